package io.strata.frontend.command;

import com.zaxxer.hikari.HikariDataSource;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.strata.backend.connection.PoolStats;
import io.strata.backend.jdbc.BinarySafeSql;
import io.strata.backend.jdbc.JdbcExecutor;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.packet.Responses;
import io.strata.frontend.session.Charsets;
import io.strata.frontend.session.Session;
import io.strata.protocol.Capabilities;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.protocol.OkPacket;
import io.strata.protocol.ServerStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;

/**
 * The JDBC executor's side of a client connection: each statement runs on a virtual thread over a HikariCP
 * connection (MariaDB Connector/J), whose results are decoded and encoded again for the client. The session keeps
 * its JDBC connection while server-side state ties it there; it is reset (COM_RESET_CONNECTION) before another
 * session gets it. The JDBC side always speaks utf8mb4: Strata itself converts to and from the client's character
 * set, so SET NAMES is answered here.
 */
final class JdbcRunner implements StatementRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcRunner.class);
    private static final ThreadFactory VIRTUAL = Thread.ofVirtual().name("strata-jdbc-", 0).factory();

    private final FrontendContext context;
    private final ChannelHandlerContext ctx;
    private final Session session;
    private final Completion completion;
    private Connection pinned;
    /** The data source of {@link #pinned}. */
    private volatile String pinnedDataSource;
    private boolean pinnedDirty;
    private volatile JdbcResultWriter writer;
    private volatile boolean running;

    JdbcRunner(FrontendContext context, ChannelHandlerContext ctx, Session session, Completion completion) {
        this.context = context;
        this.ctx = ctx;
        this.session = session;
        this.completion = completion;
    }

    @Override
    public void run(Command command) {
        byte[] text = new byte[command.payload().readableBytes() - 1];
        command.payload().getBytes(command.payload().readerIndex() + 1, text);
        command.payload().release();
        if (command.sql() == null) {
            throw ErrorCode.UNSUPPORTED.exception("this command with executor: jdbc");
        }
        if (command.info().multiStatement() && !session.multiStatements()) {
            // The pools always allow several statements; a session that turned them off (or never asked) gets the
            // server's own refusal, and nothing runs, as on the server.
            throw new MySQLException(new ErrPacket(1064, "42000", syntaxError(command.sql())));
        }
        if (command.info().charset() != null && !command.info().multiStatement()) {
            session.charset(command.info().charset());
            Responses.ok(ctx.channel(), command.next(), new OkPacket(0, 0, session.statusFlags(), 0));
            completion.done();
            return;
        }
        boolean foundRows = Capabilities.has(session.capabilities(), Capabilities.CLIENT_FOUND_ROWS);
        HikariDataSource pool = context.jdbc().get(command.database(), command.dataSource(), foundRows);
        Charset charset = Charsets.java(session.charset());
        JdbcResultWriter out = new JdbcResultWriter(ctx.channel(), command.next(), session.deprecateEof(),
                session.extendedTypeInfo(), charset);
        writer = out;
        running = true;
        Connection kept = pinned;
        Connection left = null;
        if (kept != null && !command.dataSource().equals(pinnedDataSource)) {
            if (session.hasServerState()) {
                running = false;
                throw ErrorCode.UNSUPPORTED.exception("moving a session with an open transaction or session "
                        + "state to another data source (" + pinnedDataSource + " -> " + command.dataSource() + ")");
            }
            left = kept; // kept only for SHOW WARNINGS: the statement goes elsewhere, the connection back
            kept = null;
            pinned = null;
        }
        String sql = BinarySafeSql.decode(text, charset,
                (session.statusFlags() & ServerStatus.NO_BACKSLASH_ESCAPES) != 0);
        Connection use = kept;
        Connection giveBack = left;
        boolean dirty = pinnedDirty;
        VIRTUAL.newThread(() -> {
            if (giveBack != null) {
                close(giveBack, dirty);
            }
            execute(pool, use, command, sql, out);
        }).start();
    }

    /** On the virtual thread: borrow, run, decide whether the session keeps the connection, then answer. */
    private void execute(HikariDataSource pool, Connection kept, Command command, String sql, JdbcResultWriter out) {
        Connection connection = kept;
        try {
            if (connection == null) {
                connection = pool.getConnection();
                context.jdbc().variables().sync(connection, session.variables());
            }
            try (Statement statement = connection.createStatement()) {
                session.running(() -> cancel(statement));
                JdbcExecutor.execute(connection, statement, sql, out,
                        Charsets.defaultCollation(session.charset()), Charsets.maxBytesPerChar(session.charset()));
            } finally {
                session.running(null);
            }
            session.afterStatement(out.statusFlags(), out.lastInsertId(), out.warnings(), command.info(),
                    out.failed());
            pinnedDirty |= command.info().pinsSession();
            if (!command.info().trackedVariables().isEmpty() && !out.failed()) {
                // Read back (the SET may be relative) so any pooled connection can be made equal later.
                session.variables().putAll(context.jdbc().variables().readBack(connection,
                        command.info().trackedVariables(), session.variables()));
            }
            keepOrReturn(connection);
            pinnedDataSource = pinned == null ? null : command.dataSource();
        } catch (SQLException e) {
            if (command.retryable() && !out.written() && (connection == null || isConnectionError(e))) {
                // A read that found its replica dead before answering anything: it goes elsewhere.
                if (connection != null) {
                    discard(pool, connection);
                }
                running = false;
                ctx.executor().execute(() -> retryElsewhere(command, sql, e));
                return;
            }
            ErrPacket err = failure(command.dataSource(), pool, connection, e);
            out.error(err.errorCode(), err.sqlState(), err.message());
            if (connection != null) {
                discard(pool, connection);
                session.lostServerState(); // a transaction or variables on that connection are gone with it
            }
        } catch (InterruptedException e) {
            LOG.debug("session {}: client went away mid-result", session.connectionId());
            discard(pool, connection);
        }
        running = false;
        out.flush();
        ctx.executor().execute(completion::done);
    }

    @Override
    public String pinnedDataSource() {
        return pinned != null && session.needsPinnedConnection() ? pinnedDataSource : null;
    }

    private void keepOrReturn(Connection connection) throws SQLException {
        if (completion.closed()) {
            pinned = null;
            close(connection, pinnedDirty || session.needsPinnedConnection());
        } else if (session.needsPinnedConnection()) {
            pinned = connection;
        } else {
            pinned = null;
            connection.close();
        }
    }

    /** SQLSTATE class 08: the connection failed, not the statement. */
    private static boolean isConnectionError(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /** On the client's loop: the read goes to another data source, or the client hears why it cannot. */
    private void retryElsewhere(Command command, String sql, SQLException e) {
        byte[] text = sql.getBytes(Charsets.java(session.charset()));
        ByteBuf payload = Unpooled.buffer(1 + text.length).writeByte(CommandType.COM_QUERY.code()).writeBytes(text);
        MySQLException why = ErrorCode.BACKEND_UNAVAILABLE.exception(command.dataSource(), e.getMessage());
        Command again = completion.closed() ? null : completion.reroute(command, payload, why);
        if (again != null) {
            run(again);
            return;
        }
        payload.release();
        if (!completion.closed()) {
            Responses.err(ctx.channel(), command.next(), why.packet());
            completion.done();
        }
    }

    /** What the client hears when JDBC itself failed (not the statement): no connection, or a connection lost. */
    private static ErrPacket failure(String dataSource, HikariDataSource pool, Connection connection,
                                     SQLException e) {
        if (connection != null) {
            return ErrorCode.BACKEND_LOST.packet(dataSource, e.getMessage());
        }
        if (e instanceof SQLTransientConnectionException && e.getCause() == null) {
            // Said as the relay executor's pool says it, whichever executor runs.
            var hikari = pool.getHikariPoolMXBean();
            return ErrorCode.POOL_EXHAUSTED.packet(new PoolStats(dataSource, hikari.getTotalConnections(),
                    hikari.getActiveConnections(), hikari.getIdleConnections(),
                    hikari.getThreadsAwaitingConnection()).exhausted(pool.getConnectionTimeout()));
        }
        return ErrorCode.BACKEND_UNAVAILABLE.packet(dataSource, e.getCause() != null ? e.getCause().getMessage()
                : e.getMessage());
    }

    /** MariaDB's 1064 for a second statement when multi-statements are off: "near" the rest of the text. */
    static String syntaxError(String sql) {
        int end = sql.indexOf(';');
        String rest = end < 0 ? "" : sql.substring(end + 1).stripLeading();
        int line = 1 + (int) sql.substring(0, Math.max(end, 0)).chars().filter(c -> c == '\n').count();
        return "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server "
                + "version for the right syntax to use near '" + (rest.length() > 80 ? rest.substring(0, 80) : rest)
                + "' at line " + line;
    }

    /** A broken connection leaves HikariCP's pool for good. */
    private void discard(HikariDataSource pool, Connection connection) {
        pinned = null;
        pinnedDirty = false;
        if (connection != null) {
            pool.evictConnection(connection);
        }
    }

    /** Back to HikariCP, reset first when the session left state on it; a connection that fails that is closed. */
    private void close(Connection connection, boolean reset) {
        pinnedDirty = false;
        try {
            if (reset) {
                connection.unwrap(org.mariadb.jdbc.Connection.class).reset();
                context.jdbc().variables().forget(connection);
            }
        } catch (SQLException e) {
            LOG.debug("cannot reset a JDBC connection; closing it", e);
            try {
                connection.unwrap(org.mariadb.jdbc.Connection.class).abort(Runnable::run);
            } catch (SQLException ignored) {
                // already broken
            }
        } finally {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("closing a JDBC connection", e);
            }
        }
    }

    private CompletableFuture<Void> cancel(Statement statement) {
        return CompletableFuture.runAsync(() -> {
            try {
                statement.cancel();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, task -> VIRTUAL.newThread(task).start());
    }

    /** The binary protocol is the relay's for now: prepares are refused so drivers prepare on their side. */
    @Override
    public void prepare(Command command, int clientId) {
        command.payload().release();
        session.prepareFailed();
        throw ErrorCode.UNSUPPORTED_PS.exception();
    }

    @Override
    public void runStatement(Command command, io.strata.frontend.session.PreparedStatement statement) {
        command.payload().release();
        throw ErrorCode.UNSUPPORTED_PS.exception();
    }

    @Override
    public void closeStatement(io.strata.frontend.session.PreparedStatement statement) {
        session.closeStatement(statement);
    }

    @Override
    public CompletableFuture<Void> releaseSession() {
        Connection connection = pinned;
        if (connection == null) {
            return CompletableFuture.completedFuture(null);
        }
        pinned = null;
        boolean reset = pinnedDirty || session.inTransaction() || !session.autocommit();
        return CompletableFuture.runAsync(() -> close(connection, reset), task -> VIRTUAL.newThread(task).start());
    }

    @Override
    public void clientClosed() {
        if (!running) {
            releaseSession();
        }
        // A statement still running sees completion.closed() when it ends and gives its connection back then.
    }

    @Override
    public void writabilityChanged() {
        JdbcResultWriter current = writer;
        if (current != null) {
            current.writabilityChanged();
        }
    }
}
