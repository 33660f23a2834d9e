package io.strata.backend.execute;

import io.strata.backend.result.StatementShape;
import com.zaxxer.hikari.HikariDataSource;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.config.DataSourceConfig;
import io.strata.config.StrataConfig;
import io.strata.backend.connection.ParseState;
import io.strata.backend.connection.PoolStats;
import io.strata.backend.connection.StateSync;
import io.strata.backend.jdbc.BinarySafeSql;
import io.strata.backend.jdbc.JdbcExecutor;
import io.strata.backend.jdbc.JdbcSessionVariables;
import io.strata.backend.jdbc.PreparedExecutor;
import io.strata.protocol.Charsets;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.protocol.command.ComStmtFetch;
import io.strata.protocol.command.ComStmtSendLongData;
import io.strata.protocol.command.CommandDecoder;
import io.strata.protocol.command.ExecuteParameters;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.protocol.ServerStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.strata.backend.jdbc.UnitOptions;
import io.strata.rule.ResultMerge;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.StatementContext.Hold;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * The JDBC executor's side of a client connection: each statement runs on a virtual thread over a HikariCP
 * connection (MariaDB Connector/J), whose results are decoded and encoded again for the client. The session keeps
 * its JDBC connection while server-side state ties it there; it is reset (COM_RESET_CONNECTION) before another
 * session gets it. The JDBC side always speaks utf8mb4: Strata itself converts to and from the client's character
 * set, so SET NAMES is answered here. Prepared statements are the session's (ids, long data, cursors); each execute
 * runs as a server-side statement of the driver's on whichever connection it gets ({@link PreparedExecutor}).
 */
public final class JdbcRunner implements StatementRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcRunner.class);
    private static final ThreadFactory VIRTUAL = Thread.ofVirtual().name("strata-jdbc-", 0).factory();

    private JdbcDataSources jdbc;
    private StrataConfig config;
    private final Channel client;
    private final SessionState session;
    private final Completion completion;
    /** The connections the session keeps, one per data source its transaction or state reached. */
    private final JdbcConnections connections = new JdbcConnections();
    private volatile ResultWriter writer;
    private volatile boolean running;
    /** The JDBC side of the session's prepared statements, by client statement id. */
    private final Map<Integer, JdbcStatement> statements = new HashMap<>();

    public JdbcRunner(JdbcDataSources jdbc, StrataConfig config, Channel client, SessionState session,
                      Completion completion) {
        this.jdbc = jdbc;
        this.config = config;
        this.client = client;
        this.session = session;
        this.completion = completion;
    }

    @Override
    public void run(Command command) {
        if (command.sql() == null) {
            command.payload().release();
            throw ErrorCode.UNSUPPORTED.exception("this command with executor: jdbc");
        }
        if (command.info().multiStatement() && !session.multiStatements()) {
            // The pools always allow several statements; a session that turned them off (or never asked) gets the
            // server's own refusal, and nothing runs, as on the server.
            command.payload().release();
            throw new MySQLException(new ErrPacket(1064, "42000", syntaxError(command.sql())));
        }
        SqlStatementInfo info = command.info();
        if (endsTransactionElsewhere(command, info)) {
            fanOut(command, everyKept(), null);
            return;
        }
        // The connections speak utf8mb4 whatever the client does: SET NAMES is Strata's to answer, unless it sets
        // more (variables, or a utf8mb4 collation, which the connection can take; another set's cannot: README)
        boolean connectionsCharset = connectionsCharset(info);
        List<String> followed = followed(info);
        boolean namesOnly = followed.isEmpty() || !connectionsCharset
                && info.trackedVariables().equals(List.of("collation_connection"));
        if (info.charset() != null && !info.multiStatement() && namesOnly) {
            command.payload().release();
            session.names(info.charset());
            completion.ok(command.next());
            return;
        }
        String sql = statementText(command.payload());
        List<String> several = info.multiStatement() ? SqlClassifier.split(sql) : null;
        List<String> statements = several != null ? several : List.of(sql);
        ResultWriter out = writer(command, false);
        start(command, out, info, this::run, connection -> {
            try (Statement statement = connection.createStatement()) {
                session.running(() -> cancel(statement));
                JdbcExecutor.execute(statement, statements, out, collation(), maxBytesPerChar());
                if (info.charset() != null && !connectionsCharset) {
                    // SET NAMES x, var = ...: the variables are the session's, the character set is Strata's to
                    // convert to
                    statement.execute("SET NAMES " + JdbcSessionVariables.CHARSET);
                }
            } finally {
                session.running(null);
            }
        });
    }

    /** Whether the statement is a SET NAMES (or CHARACTER SET) of the connections' own character set, utf8mb4. */
    private static boolean connectionsCharset(SqlStatementInfo info) {
        return info.charset() != null
                && JdbcSessionVariables.CHARSET.equalsIgnoreCase(Charsets.ofNames(info.charset()));
    }

    /**
     * The variables a statement sets that the connections follow: its tracked ones, and for SET NAMES utf8mb4
     * COLLATE y the collation, which the connections can take (another set's collation they cannot: README).
     */
    private static List<String> followed(SqlStatementInfo info) {
        List<String> tracked = info.trackedVariables();
        if (!connectionsCharset(info) || Charsets.collateOf(info.charset()) == null
                || tracked.contains("collation_connection")) {
            return tracked;
        }
        List<String> withCollation = new java.util.ArrayList<>(tracked);
        withCollation.add("collation_connection");
        return withCollation;
    }

    /** The SQL of a COM_QUERY or COM_STMT_PREPARE in the session's character set, binary literals kept whole. */
    private String statementText(ByteBuf payload) {
        return BinarySafeSql.decode(CommandDecoder.statementBytes(payload), Charsets.java(session.charset()),
                (session.statusFlags() & ServerStatus.NO_BACKSLASH_ESCAPES) != 0);
    }

    private ResultWriter writer(Command command, boolean binary) {
        ResultWriter out = completion.results(command.next(), binary);
        writer = out;
        return out;
    }

    /** The collation text columns are described in: the session's SET NAMES (or handshake) collation. */
    private int collation() {
        return Charsets.collationOfNames(session.names());
    }

    /**
     * The variables a connection is to hold for the session: its tracked ones, and the collation of a handshake
     * that asked for another utf8mb4 collation than the default (the connections speak utf8mb4, so they can take it;
     * another set's collation they cannot: README).
     */
    private Map<String, String> wantedVariables() {
        Map<String, String> variables = session.variables();
        String collate = Charsets.collateOf(session.names());
        if (collate == null || variables.containsKey("collation_connection")
                || !JdbcSessionVariables.CHARSET.equalsIgnoreCase(session.charset())) {
            return variables;
        }
        Map<String, String> wanted = new HashMap<>(variables); // not Map.copyOf: a value may be NULL
        wanted.put("collation_connection", collate);
        return wanted;
    }

    private int maxBytesPerChar() {
        return Charsets.maxBytesPerChar(session.charset());
    }

    /** What runs on the backend connection, on the virtual thread; it answers the client through its writer. */
    @FunctionalInterface
    private interface Work {
        void run(Connection connection) throws SQLException, InterruptedException;
    }

    /**
     * On the client's loop: picks the connection the command may use (the session's own, unless the command goes
     * to another data source and nothing ties the session to the old one) and runs the work on a virtual thread.
     * The command's payload is released when it ends, or handed on with the command when a read goes elsewhere.
     *
     * @param info  what the statement is (null when it changes nothing on the server, as a prepare)
     * @param again runs the command rerouted to another data source
     */
    private void start(Command command, ResultWriter out, SqlStatementInfo info, Consumer<Command> again,
                       Work work) {
        HikariDataSource pool = pool(command.database(), command.dataSource());
        running = true;
        Connection use = connections.on(command.dataSource());
        // kept only for SHOW WARNINGS: the statement goes elsewhere, they go back
        boolean giveBack = use == null && connections.onOtherThan(command.dataSource()) && !session.hasServerState();
        VIRTUAL.newThread(() -> {
            if (giveBack) {
                giveBackAll(true); // their warnings may quote the session's values: not the next session's
            }
            execute(pool, use, command, out, info, again, work);
        }).start();
    }

    /**
     * On the virtual thread: borrow, run, decide whether the session keeps the connection, then answer. A read that
     * finds its freshly borrowed connection dead before anything reached the client runs once more on another (a
     * pooled connection can die while idle: the server restarted, or a KILL), so the client never sees it.
     */
    private void execute(HikariDataSource pool, Connection kept, Command command, ResultWriter out,
                         SqlStatementInfo info, Consumer<Command> again, Work work) {
        Connection connection = kept;
        boolean retried = false;
        while (true) {
            try {
                if (connection == null) {
                    connection = borrow(pool);
                }
                boolean inSchema = useSchema(connection, command, command.dataSource(), out);
                // HikariCP hands out a new wrapper per borrow: the same object is the same lease
                if (session.needsLastInsertId(info, connection, 0)) {
                    try (Statement set = connection.createStatement()) {
                        set.execute(session.lastInsertIdStatement());
                    }
                    session.lastInsertIdGiven(connection, 0);
                }
                if (inSchema) {
                    run(command, connection, work);
                }
                session.afterStatement(out.statusFlags(), out.lastInsertId(), out.warnings(), info, out.failed());
                if (!out.failed()) {
                    session.ranOnBackend(command.database(), info);
                }
                if (info != null) { // a query or an execute: prepares, fetches and resets leave the counts
                    session.counted(info, out.rowCount(), out.foundRows());
                }
                if (info != null && info.pinsSession()) {
                    connections.dirty(command.dataSource());
                }
                List<String> followed = info == null ? List.of() : followed(info);
                if (!followed.isEmpty() && !out.failed()) {
                    followVariables(connection, command.dataSource(), followed);
                }
                keepOrReturn(command.dataSource(), connection);
            } catch (SQLException e) {
                boolean nothingSent = !out.written();
                if (command.retryable() && nothingSent && (connection == null || isConnectionError(e))) {
                    // A read that found its replica dead before answering anything: it goes elsewhere.
                    if (connection != null) {
                        discard(pool, command.dataSource(), connection);
                    }
                    running = false;
                    client.eventLoop().execute(() -> retryElsewhere(command, e, again));
                    return;
                }
                if (kept == null && connection != null && !retried && nothingSent && isConnectionError(e)
                        && harmlessToRepeat(info)) {
                    discard(pool, command.dataSource(), connection);
                    connection = null;
                    retried = true;
                    continue;
                }
                ErrPacket err = failure(command.database(), command.dataSource(), pool, connection, e);
                out.error(err.errorCode(), err.sqlState(), err.message());
                if (connection != null) {
                    discard(pool, command.dataSource(), connection);
                    session.lostServerState(); // a transaction or variables on that connection are gone with it
                }
            } catch (InterruptedException e) {
                LOG.debug("session {}: client went away mid-result", session.connectionId());
                discard(pool, command.dataSource(), connection);
            } catch (RuntimeException e) {
                // Strata's own fault, not the statement's: the client hears it instead of waiting for ever, and the
                // connection, in a state nobody knows, goes.
                LOG.error("session {}: the statement failed inside Strata", session.connectionId(), e);
                ErrPacket err = ErrorCode.INTERNAL.packet(String.valueOf(e));
                out.error(err.errorCode(), err.sqlState(), err.message());
                if (connection != null) {
                    discard(pool, command.dataSource(), connection);
                    session.lostServerState();
                }
            }
            break;
        }
        command.payload().release();
        running = false;
        client.eventLoop().execute(() -> completion.done(out));
    }

    /**
     * After a SET of tracked variables: their values are read back (the SET may be relative), so any pooled
     * connection can be made equal later. When they cannot be read (MySQL 8 has no tx_isolation), the session keeps
     * this connection for good, as the relay does; the client already has its OK.
     */
    private void followVariables(Connection connection, String dataSource, List<String> names)
            throws SQLException {
        try {
            StateSync.follow(session.variables(),
                    jdbc.variables().readBack(connection, names, wantedVariables()));
        } catch (SQLException e) {
            if (isConnectionError(e)) {
                throw e;
            }
            LOG.debug("session {}: {}", session.connectionId(), e.getMessage());
            session.holdsServerState(true);
            connections.dirty(dataSource);
        }
    }

    /**
     * Puts the connection in the command's schema; false when the server refused (the client has its error). The
     * driver follows the connection's schema from the server's
     * session tracking, so this costs a round trip only when it differs; it is set on the driver's own connection,
     * out of HikariCP's sight, which would otherwise set it back at every return to the pool.
     */
    boolean useSchema(Connection connection, Command command, String dataSource, ResultWriter out)
            throws SQLException {
        String schema = command.schemaOn(config.databases().get(command.database()).dataSources()
                .get(dataSource).schema());
        if (schema.isEmpty()) {
            return true;
        }
        org.mariadb.jdbc.Connection driver = connection.unwrap(org.mariadb.jdbc.Connection.class);
        if (schema.equals(driver.getCatalog())) {
            return true;
        }
        try {
            driver.setCatalog(schema);
            return true;
        } catch (SQLException e) {
            return JdbcExecutor.statementError(e, out); // the server's word (the schema is gone), else rethrown
        }
    }

    /** A prepare, or a single SELECT outside a transaction: running it twice changes nothing. */
    private boolean harmlessToRepeat(SqlStatementInfo info) {
        return info == null || info.kind() == SqlKind.SELECT && !info.multiStatement() && !info.pinsSession()
                && !session.inTransaction() && session.autocommit();
    }

    /**
     * A route whose answer Strata makes: several units, or one a rule rewrote. Their answers are merged by
     * {@link JdbcFanOut} on a virtual thread; an execute's values are decoded here, on the client's loop.
     */
    @Override
    public void fanOut(Command command, RouteResult route, PreparedStatement statement) {
        String sql;
        List<Object> values = null;
        if (statement == null) {
            for (RouteUnit unit : route.units()) {
                if (unit.rewritten() && !unit.params().isEmpty()) {
                    command.payload().release(); // a unit's values are an execute's, which a text command has none of
                    throw ErrorCode.UNSUPPORTED.exception("rewritten statements with parameters");
                }
            }
            sql = statementText(command.payload());
        } else {
            JdbcStatement prepared = statements.get(statement.id());
            if (prepared == null) {
                command.payload().release();
                throw ErrorCode.UNKNOWN_STMT_HANDLER.exception(statement.id(), "mysqld_stmt_execute");
            }
            values = java.util.Arrays.asList(parameters(command.payload(), statement, prepared));
            sql = prepared.sql();
        }
        command.payload().release();
        ResultWriter out = writer(command, statement != null);
        UnitOptions options = new UnitOptions(0, 0, 0,
                statement != null ? UnitOptions.Cells.BINARY : UnitOptions.Cells.TEXT, collation(), maxBytesPerChar());
        JdbcFanOut fanOut = new JdbcFanOut(this, command, route, sql, values, out, options);
        boolean giveBack = !session.hasServerState() && !connections.isEmpty();
        running = true;
        VIRTUAL.newThread(() -> {
            if (giveBack) {
                giveBackAll(true); // kept only for SHOW WARNINGS, which the next statement replaces
            }
            try {
                fanOut.run();
            } catch (InterruptedException e) {
                LOG.debug("session {}: client went away mid-result", session.connectionId());
            } catch (RuntimeException e) {
                LOG.error("session {}: the statement failed inside Strata", session.connectionId(), e);
                if (!out.written()) {
                    ErrPacket err = ErrorCode.INTERNAL.packet(String.valueOf(e));
                    out.error(err.errorCode(), err.sqlState(), err.message());
                }
            }
            running = false;
            if (completion.closed()) {
                giveBackAll(true);
            }
            client.eventLoop().execute(() -> completion.done(out));
        }).start();
    }

    /**
     * A COMMIT, ROLLBACK, BEGIN or SET autocommit = 1 while the session keeps connections on other data sources than
     * the command's: the statement goes to every one of them (the transaction reached them), as the relay does.
     */
    private boolean endsTransactionElsewhere(Command command, SqlStatementInfo info) {
        return info != null && info.endsTransaction() && connections.onOtherThan(command.dataSource());
    }

    private RouteResult everyKept() {
        return new RouteResult(connections.dataSources().stream().map(RouteUnit::new).toList(), ResultMerge.ONE_COPY,
                false);
    }

    SessionState session() {
        return session;
    }

    /** The data source's pool for this session: the one whose connections report found rows when the client asked. */
    HikariDataSource pool(String database, String dataSource) {
        return jdbc.get(database, dataSource, Capabilities.has(session.capabilities(),
                Capabilities.CLIENT_FOUND_ROWS));
    }

    /** The connection the session keeps on {@code dataSource}, or null. */
    Connection kept(String dataSource) {
        return connections.on(dataSource);
    }

    void markDirty(String dataSource) {
        connections.dirty(dataSource);
    }

    @Override
    public Map<String, Hold> held() {
        if (connections.isEmpty() || !session.needsPinnedConnection()) {
            return Map.of();
        }
        Hold hold = session.hasServerState() ? Hold.STATE : Hold.WARNINGS;
        Map<String, Hold> held = new java.util.LinkedHashMap<>();
        connections.dataSources().forEach(dataSource -> held.put(dataSource, hold));
        return held;
    }

    /**
     * After a statement on {@code dataSource}: the session keeps the connection while something of its own lives
     * there; else it goes back, and so do those it kept on other data sources (their transaction ended).
     */
    void keepOrReturn(String dataSource, Connection connection) throws SQLException {
        if (completion.closed()) {
            takeCursors().forEach(PreparedExecutor.Cursor::close);
            boolean dirty = connections.forget(dataSource);
            close(connection, dirty || session.needsPinnedConnection());
            giveBackAll(true);
        } else if (session.needsPinnedConnection()) {
            connections.keep(dataSource, connection);
        } else {
            connections.forget(dataSource);
            connection.close();
            giveBackAll(false);
        }
    }

    /** Every kept connection goes back to its pool, reset first when {@code reset} or when it is dirty. */
    void giveBackAll(boolean reset) {
        connections.takeAll().forEach((dataSource, connection) ->
                close(connection, connections.forget(dataSource) || reset));
    }

    /**
     * A connection fresh from the pool, in the session's state: its variables and autocommit, and the session's open
     * transaction joined (a transaction begun on another data source reaches this one, as the relay's does).
     */
    Connection borrow(HikariDataSource pool) throws SQLException {
        Connection connection = pool.getConnection();
        try {
            jdbc.variables().sync(connection, wantedVariables(), session.autocommit());
            if (session.inTransaction() && session.autocommit()) {
                try (Statement begin = connection.createStatement()) {
                    begin.execute(session.transactionStart());
                }
            }
        } catch (SQLException e) {
            pool.evictConnection(connection);
            throw e;
        }
        return connection;
    }

    /** Runs the work; a read is known to the health check meanwhile, which may abort it on a replica that hangs. */
    private void run(Command command, Connection connection, Work work) throws SQLException, InterruptedException {
        if (!command.retryable()) {
            work.run(connection);
            return;
        }
        jdbc.readStarted(command.database(), command.dataSource(), connection);
        try {
            work.run(connection);
        } finally {
            jdbc.readEnded(command.database(), command.dataSource(), connection);
        }
    }

    /** SQLSTATE class 08: the connection failed, not the statement. */
    private static boolean isConnectionError(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /** On the client's loop: the read goes to another data source, or the client hears why it cannot. */
    private void retryElsewhere(Command command, SQLException e, Consumer<Command> again) {
        MySQLException why = ErrorCode.BACKEND_UNAVAILABLE.exception(DataSourceConfig.describe(command.database(),
                command.dataSource()), e.getMessage());
        Command rerouted = completion.closed() ? null : completion.reroute(command, command.payload(), why);
        if (rerouted != null) {
            again.accept(rerouted);
            return;
        }
        command.payload().release();
        if (!completion.closed()) {
            completion.fail(command.next(), why.packet());
        }
    }

    /** What the client hears when JDBC itself failed (not the statement): no connection, or a connection lost. */
    private static ErrPacket failure(String database, String dataSource, HikariDataSource pool,
                                     Connection connection, SQLException e) {
        String described = DataSourceConfig.describe(database, dataSource);
        if (connection != null) {
            return ErrorCode.BACKEND_LOST.packet(described, e.getMessage());
        }
        if (e instanceof SQLTransientConnectionException && e.getCause() == null) {
            // Said as the relay executor's pool says it, whichever executor runs.
            var hikari = pool.getHikariPoolMXBean();
            return ErrorCode.POOL_EXHAUSTED.packet(new PoolStats(dataSource, hikari.getTotalConnections(),
                    hikari.getActiveConnections(), hikari.getIdleConnections(),
                    hikari.getThreadsAwaitingConnection()).exhausted(pool.getConnectionTimeout()));
        }
        return ErrorCode.BACKEND_UNAVAILABLE.packet(described, e.getCause() != null ? e.getCause().getMessage()
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
    void discard(HikariDataSource pool, String dataSource, Connection connection) {
        connections.forget(dataSource);
        // what the session had there is gone, and its transaction with it: what it began elsewhere is reset too
        connections.dataSources().forEach(connections::dirty);
        if (connection != null) {
            pool.evictConnection(connection);
        }
    }

    /** Back to HikariCP, reset first when the session left state on it; a connection that fails that is closed. */
    private void close(Connection connection, boolean reset) {
        try {
            if (reset) {
                connection.unwrap(org.mariadb.jdbc.Connection.class).reset();
                jdbc.variables().forget(connection);
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

    /**
     * COM_STMT_PREPARE: prepared on a backend connection (where the driver caches it) to learn its parameters and
     * columns; each execute prepares it again only on connections that do not hold it yet.
     */
    @Override
    public void prepare(Command command, int clientId) {
        String sqlMode = session.variables().get("sql_mode");
        String sql = withSqlMode(withResultCharset(statementText(command.payload())), sqlMode);
        ResultWriter out = writer(command, false);
        start(command, out, null, again -> prepare(again, clientId), connection -> {
            StatementShape shape = PreparedExecutor.prepare(connection, sql, collation(), maxBytesPerChar(),
                    out);
            if (shape == null) {
                session.prepareFailed();
                return;
            }
            statements.put(clientId, new JdbcStatement(sql, sqlMode));
            session.prepared(new PreparedStatement(clientId, command.sql(), command.info(), command.database(),
                    command.schema(), null,
                    shape.params().size(), shape.columns().size()));
            out.prepared(clientId, shape);
        });
    }

    /**
     * The statement's text as the driver prepares and caches it. The server describes result columns in the
     * session's character_set_results, and a cached statement keeps the description of the session that prepared
     * it: a session that set the variable (MySQL Connector/J sets it to NULL) gets statements of its own, told apart
     * by a comment.
     */
    private String withResultCharset(String sql) {
        Map<String, String> variables = session.variables();
        if (!variables.containsKey("character_set_results") && !variables.containsKey("collation_connection")) {
            return sql;
        }
        return sql + "\n/* results: " + variables.get("character_set_results") + " "
                + variables.get("collation_connection") + " */";
    }

    /**
     * The statement's text told apart, for the driver's cache, by the sql_mode a session set when it prepared it:
     * the server parses it in that mode, and a statement keeps its parse (under ANSI_QUOTES "q" is a column).
     */
    private static String withSqlMode(String sql, String sqlMode) {
        return sqlMode == null ? sql : sql + "\n/* sql_mode: " + sqlMode + " */";
    }

    /**
     * COM_STMT_EXECUTE, COM_STMT_FETCH, COM_STMT_RESET and COM_STMT_SEND_LONG_DATA. Long data stays here until the
     * execute binds it; a cursor is a result set held open on the session's connection.
     */
    @Override
    public void runStatement(Command command, PreparedStatement statement) {
        JdbcStatement kept = statements.get(statement.id());
        ByteBuf payload = command.payload();
        if (kept == null) { // prepared before the executor changed (COM_CHANGE_USER keeps no statements either)
            payload.release();
            throw ErrorCode.UNKNOWN_STMT_HANDLER.exception(statement.id(), "mysqld_stmt_execute");
        }
        if (command.kind() == null) {
            ComStmtSendLongData longData = (ComStmtSendLongData) CommandDecoder.decode(payload);
            kept.longData(longData.paramId(), longData.data());
            payload.release();
            completion.done(); // COM_STMT_SEND_LONG_DATA has no response
            return;
        }
        if (command.kind() == io.strata.backend.relay.ResponseKind.QUERY
                && endsTransactionElsewhere(command, statement.info())) {
            fanOut(command, everyKept(), statement); // a prepared COMMIT, ROLLBACK...: as run() does
            return;
        }
        switch (command.kind()) {
            case QUERY -> execute(command, statement, kept);
            case FETCH -> fetch(command, statement, kept);
            default -> reset(command, statement, kept);
        }
    }

    private void execute(Command command, PreparedStatement statement, JdbcStatement kept) {
        Object[] values = parameters(command.payload(), statement, kept);
        execute(command, statement, kept, values, ComStmtExecute.opensCursor(command.payload()));
    }

    /** An execute's parameter values; a malformed one releases the payload and refuses (1835 or 1210). */
    private Object[] parameters(ByteBuf payload, PreparedStatement statement, JdbcStatement kept) {
        try {
            byte[] types = ComStmtExecute.types(payload, statement.params());
            if (types != null) {
                statement.types(types);
            } else if (statement.params() > 0 && statement.types() == null) {
                throw ErrorCode.WRONG_ARGUMENTS.exception("mysqld_stmt_execute");
            }
            return ExecuteParameters.decode(payload, statement.params(), statement.types(), kept.takeLongData(),
                    Charsets.java(session.charset()));
        } catch (RuntimeException e) {
            payload.release(); // the types or values end before the packet does: the client hears 1835 or 1210
            throw e;
        }
    }

    /** Runs an execute whose parameter values are decoded (once: a rerouted execute has no long data left). */
    private void execute(Command command, PreparedStatement statement, JdbcStatement kept, Object[] values,
                         boolean cursorRequested) {
        PreparedExecutor.Cursor previous = kept.cursor(null);
        ResultWriter out = writer(command, true);
        start(command, out, statement.info(), again -> execute(again, statement, kept, values, cursorRequested),
                connection -> {
                    if (previous != null) {
                        previous.close(); // executing again closes the statement's cursor, as on the server
                    }
                    // prepared before the session set another sql_mode: parsed in the first wherever it is prepared
                    if (!Objects.equals(session.variables().get("sql_mode"), kept.sqlMode())) {
                        Map<String, String> now = wantedVariables();
                        if (!PreparedExecutor.prepareIn(connection, kept.sql(), jdbc.variables(),
                                ParseState.withSqlMode(now, kept.sqlMode()), now, out)) {
                            return;
                        }
                    }
                    try {
                        PreparedExecutor.Cursor cursor = PreparedExecutor.execute(connection, kept.sql(), values,
                                out, collation(), maxBytesPerChar(), cursorRequested,
                                running -> session.running(() -> cancel(running)));
                        kept.cursor(cursor);
                        session.cursor(statement, cursor != null);
                    } finally {
                        session.running(null);
                    }
                });
    }

    /** COM_STMT_FETCH: the next rows of the statement's cursor. */
    private void fetch(Command command, PreparedStatement statement, JdbcStatement kept) {
        PreparedExecutor.Cursor cursor = kept.cursor();
        long rows = ((ComStmtFetch) CommandDecoder.decode(command.payload())).numRows();
        if (cursor == null) {
            command.payload().release();
            throw ErrorCode.NO_OPEN_CURSOR.exception(statement.id());
        }
        ResultWriter out = writer(command, true);
        out.rowsOf(cursor.columns());
        start(command, out, null, again -> fetch(again, statement, kept), connection -> {
            if (cursor.fetch(rows, out)) {
                kept.cursor(null);
                session.cursor(statement, false);
            }
        });
    }

    /** COM_STMT_RESET: long data and the cursor go; the statement stays. */
    private void reset(Command command, PreparedStatement statement, JdbcStatement kept) {
        kept.takeLongData();
        PreparedExecutor.Cursor cursor = kept.cursor(null);
        session.cursor(statement, false);
        ResultWriter out = writer(command, false);
        start(command, out, null, again -> reset(again, statement, kept), connection -> {
            if (cursor != null) {
                cursor.close();
            }
            out.update(0, 0, session.statusFlags(), 0);
            out.finish();
        });
    }

    @Override
    public void statementReset(PreparedStatement statement) {
        JdbcStatement kept = statements.get(statement.id());
        if (kept != null) {
            kept.takeLongData();
        }
    }

    @Override
    public void closeStatement(PreparedStatement statement) {
        session.closeStatement(statement);
        JdbcStatement kept = statements.remove(statement.id());
        PreparedExecutor.Cursor cursor = kept == null ? null : kept.cursor(null);
        if (cursor != null) {
            VIRTUAL.newThread(cursor::close).start(); // may read the rest of its rows off the connection
        }
    }

    @Override
    public CompletableFuture<Void> releaseSession() {
        List<PreparedExecutor.Cursor> cursors = takeCursors();
        statements.clear(); // the session's statements go with it (COM_RESET_CONNECTION, COM_CHANGE_USER)
        boolean reset = session.needsPinnedConnection(); // see RelayRunner.giveBack
        if (connections.isEmpty() && cursors.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.runAsync(() -> {
            cursors.forEach(PreparedExecutor.Cursor::close);
            giveBackAll(reset);
        }, task -> VIRTUAL.newThread(task).start());
    }

    /** The open cursors of the session's statements, which no longer hold them. */
    private List<PreparedExecutor.Cursor> takeCursors() {
        List<PreparedExecutor.Cursor> cursors = new ArrayList<>();
        for (JdbcStatement kept : statements.values()) {
            PreparedExecutor.Cursor cursor = kept.cursor(null);
            if (cursor != null) {
                cursors.add(cursor);
            }
        }
        return cursors;
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
        ResultWriter current = writer;
        if (current != null) {
            current.writabilityChanged();
        }
    }

    @Override
    public void runtimeChanged(io.strata.backend.Backends backends, JdbcDataSources jdbc, StrataConfig config) {
        this.jdbc = jdbc;
        this.config = config;
    }
}
