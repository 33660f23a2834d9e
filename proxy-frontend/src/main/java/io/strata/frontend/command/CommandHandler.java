package io.strata.frontend.command;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.connection.StateSync;
import io.strata.config.DatabaseConfig;
import io.strata.config.UserConfig;
import io.strata.frontend.Databases;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.FrontendStats;
import io.strata.frontend.Phases;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.frontend.packet.Responses;
import io.strata.backend.execute.PreparedStatement;
import io.strata.backend.execute.ResultWriter;
import io.strata.backend.execute.SessionState;
import io.strata.backend.execute.StatementRunner;
import io.strata.protocol.Charsets;
import io.strata.kernel.Session;
import io.strata.kernel.StatementLife;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLException;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.OkPacket;
import io.strata.protocol.command.ClientCommand;
import io.strata.protocol.command.ComChangeUser;
import io.strata.protocol.command.ComFieldList;
import io.strata.protocol.command.ComInitDb;
import io.strata.protocol.command.ComPing;
import io.strata.protocol.command.ComProcessKill;
import io.strata.protocol.command.ComQuery;
import io.strata.protocol.command.ComQuit;
import io.strata.protocol.command.ComResetConnection;
import io.strata.protocol.command.ComSetOption;
import io.strata.protocol.command.ComStatistics;
import io.strata.protocol.command.ComStmtClose;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.protocol.command.ComStmtFetch;
import io.strata.protocol.command.ComStmtPrepare;
import io.strata.protocol.command.ComStmtReset;
import io.strata.protocol.command.ComStmtSendLongData;
import io.strata.protocol.command.ExecuteParameters;
import io.strata.protocol.command.CommandDecoder;
import io.strata.protocol.command.UnknownCommand;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The command phase of one client connection. Commands run one at a time in arrival order (clients may pipeline):
 * a command is answered locally, or routed by the logical database's rule chain and relayed to a backend connection
 * which the session borrows for the statement or keeps while server-side state ties it there. Everything here runs
 * on the client channel's event loop and never blocks.
 *
 * <p>The command phase's dispatcher: one method per command family, larger than most classes on purpose.
 */
public final class CommandHandler extends SimpleChannelInboundHandler<MySQLFrame> {

    private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);
    private static final String STRATA = StatementLife.STRATA;

    private final FrontendContext context;
    private final Phases phases;
    private final Session session;
    /** What the session's backends mirror (its own object: looked up on every command). */
    private final SessionState state;
    /** The kernel's stages around each command: process list, routing, counts, steering, digests, slow log. */
    private StatementLife life;
    private final ArrayDeque<MySQLFrame> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private StatementRunner runner;
    /** Where this connection's commands are counted (its event loop's row). */
    private FrontendStats.CommandCounter commands;
    /** While LOAD DATA LOCAL INFILE runs: where the client's packets go (they are its file), else null. */
    private StatementRunner.LocalDataSink localData;
    /** COM_FIELD_LIST and COM_STATISTICS have no JDBC form: they are relayed whatever the executor. */
    private StatementRunner relayRunner;
    private boolean busy;
    private boolean draining;
    /**
     * Reading the client may be paused: commands queued behind a running one, a file upload waiting for its backend,
     * or the handler before this one. When a command ends, the channel's setting is read only then: reading it after
     * every command cost a cold cache line each (2-6% of Strata's user time at 64 clients).
     */
    private boolean readingMayBePaused = true;
    private volatile boolean closed;
    /** When the last command ended (or the session logged in): server.idleTimeout counts from there. */
    private long idleSinceNanos = System.nanoTime();
    /** The check of server.idleTimeout, or null when there is none. */
    private ScheduledFuture<?> idleCheck;
    /** Strata is stopping: the session closes at its next statement boundary outside a transaction. */
    private boolean stopping;

    /** The event a stop sends every session ({@link #stopAtBoundary}). */
    public static final Object STOP_AT_BOUNDARY = new Object() {
        @Override
        public String toString() {
            return "stop at the next statement boundary";
        }
    };

    public CommandHandler(FrontendContext context, Phases phases, Session session) {
        this.context = context;
        this.phases = phases;
        this.session = session;
        this.state = session.state();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.commands = context.stats().commandsOn(ctx.executor());
        this.life = new StatementLife(context.kernel(), session, ctx.channel().eventLoop());
        StatementRunner.Completion completion = new StatementRunner.Completion() {
            @Override
            public void done() {
                CommandHandler.this.done();
            }

            @Override
            public boolean closed() {
                return closed;
            }

            @Override
            public StatementRunner.Command reroute(StatementRunner.Command command, ByteBuf payload,
                                                   Throwable why) {
                return CommandHandler.this.reroute(command, payload, why);
            }

            @Override
            public void localData(StatementRunner.LocalDataSink sink) {
                localData = sink;
                readingMayBePaused = true; // while the file comes, reading pauses whenever the backend is full
                ctx.channel().config().setAutoRead(true); // the file must come in while the command is running
            }

            @Override
            public void fail(int sequenceId, ErrPacket error) {
                state.answerFailed(true);
                Responses.err(ctx.channel(), sequenceId, error);
                CommandHandler.this.done();
            }

            @Override
            public void ok(int sequenceId) {
                CommandHandler.this.ok(sequenceId);
            }

            @Override
            public ResultWriter results(int sequenceId, boolean binary) {
                return new ResultPackets(ctx.channel(), sequenceId, state.deprecateEof(),
                        state.extendedTypeInfo(), Charsets.java(state.charset()), binary, state::interruption);
            }
        };
        this.relayRunner = life.runtime().relay(ctx.channel(), state, completion);
        long idleMillis = context.config().server().limits().idleTimeoutMillis();
        if (idleMillis > 0) {
            // checked a tenth of the limit apart: a session is closed after 1 to 1.1 times its idle limit, never sooner
            long period = Math.max(10, idleMillis / 10);
            idleCheck = ctx.executor().scheduleAtFixedRate(() -> closeIfIdle(idleMillis), period, period,
                    TimeUnit.MILLISECONDS);
        }
        this.runner = life.runtime().runner(ctx.channel(), state, completion, relayRunner);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, MySQLFrame frame) {
        if (localData != null) {
            if (localData.accept(frame.retain())) {
                localData = null; // the file has ended; what follows are commands again
            }
            return;
        }
        queue.add(frame.retain());
        if (busy) {
            readingMayBePaused = true;
            ctx.channel().config().setAutoRead(false);
        }
        runQueued();
    }

    private void runQueued() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            MySQLFrame frame;
            while (!busy && !closed && (frame = queue.poll()) != null) {
                busy = true;
                try {
                    dispatch(frame);
                } catch (RuntimeException e) {
                    fail(frame.lastSequenceId(), e);
                } finally {
                    frame.release();
                }
            }
            if (!busy && !closed && readingMayBePaused) {
                readingMayBePaused = false;
                if (!ctx.channel().config().isAutoRead()) {
                    ctx.channel().config().setAutoRead(true); // reading paused while commands queued: go on
                }
            }
        } finally {
            draining = false;
        }
    }

    /** The current command has been answered completely; the next may run. */
    private void done() {
        localData = null; // an answer ends a file transfer too (the server may refuse it half-way)
        life.ends();
        idleSinceNanos = System.nanoTime();
        busy = false;
        if (stopping && stopAtBoundary()) {
            return;
        }
        runQueued();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == STOP_AT_BOUNDARY) {
            stopping = true;
            stopAtBoundary();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    /**
     * A graceful stop: the session closes, after MySQL's 1053, once no statement runs, none waits and no transaction
     * is open; until then it goes on, so a running statement is answered and an open transaction can commit.
     *
     * @return whether it closed
     */
    private boolean stopAtBoundary() {
        if (busy || closed || !queue.isEmpty() || state.inTransaction()) {
            return false;
        }
        goodbye(ErrorCode.SHUTDOWN.packet());
        return true;
    }

    /** Closes the session after an error telling the client why (MySQL's way for a server-side close). */
    private void goodbye(ErrPacket why) {
        closed = true;
        ByteBuf out = ctx.alloc().buffer(64 + why.message().length());
        why.encode(out);
        ctx.writeAndFlush(new MySQLFrame(0, out)).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }

    /** Decodes the command and runs it: one case per command, so a command without a handler does not compile. */
    private void dispatch(MySQLFrame frame) {
        int next = (frame.lastSequenceId() + 1) & 0xFF;
        ClientCommand command = decode(frame.payload());
        if (command == null) {
            done();
            return;
        }
        commands.count(command.type());
        commandStarts(command);
        switch (command) {
            case ComQuery query -> query(query, next);
            case ComInitDb initDb -> initDb(initDb.schemaName(), next);
            case ComPing ping -> ok(next);
            case ComQuit quit -> {
                closed = true;
                ctx.close();
            }
            case ComFieldList fields -> route(fields.payload(), next, ResponseKind.FIELD_LIST, null, null);
            case ComStatistics statistics -> route(statistics.payload(), next, ResponseKind.SINGLE_PACKET, null,
                    null);
            case ComResetConnection reset -> resetConnection(next);
            case ComChangeUser changeUser -> changeUser(changeUser, next);
            case ComSetOption option -> setOption(option.option(), next);
            case ComProcessKill kill -> kill(kill.connectionId(), false, next);
            case ComStmtPrepare prepare -> prepare(prepare, next);
            case ComStmtExecute execute -> statementCommand(execute.payload(), execute.statementId(), next,
                    ResponseKind.QUERY, "mysqld_stmt_execute", execute.opensCursor());
            case ComStmtFetch fetch -> statementCommand(fetch.payload(), fetch.statementId(), next,
                    ResponseKind.FETCH, "mysqld_stmt_fetch", false);
            case ComStmtReset reset -> statementCommand(reset.payload(), reset.statementId(), next,
                    ResponseKind.STATUS, "mysqld_stmt_reset", false);
            case ComStmtSendLongData longData -> statementCommand(longData.payload(), longData.statementId(), next,
                    null, null, false);
            case ComStmtClose close -> closeStatement(close.statementId());
            case UnknownCommand unknown -> throw ErrorCode.UNKNOWN_COMMAND.exception(unknown.name());
        }
    }

    /**
     * The command, or null for a malformed one that gets no answer: COM_STMT_SEND_LONG_DATA and COM_STMT_CLOSE have
     * none, even for an error, and the server ignores a short one. Any other malformed command gets MySQL's error.
     */
    private static ClientCommand decode(ByteBuf payload) {
        try {
            return CommandDecoder.decode(payload);
        } catch (MySQLException e) {
            int code = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
            if (code == CommandType.COM_STMT_SEND_LONG_DATA.code() || code == CommandType.COM_STMT_CLOSE.code()) {
                return null;
            }
            throw e;
        }
    }

    private void query(ComQuery query, int next) {
        String sql = query.sql();
        SqlStatementInfo info = SqlClassifier.classify(sql);
        statementIs(info, state.database() == null ? "" : state.database(), STRATA);
        if (!info.multiStatement()) {
            if (info.kind() == SqlKind.USE && info.tokens().size() == 2) {
                initDb(SqlClassifier.unquote(info.token(1)), next);
                return;
            }
            if (info.kind() == SqlKind.KILL && kill(info, next)) {
                return;
            }
            if (LocalQueries.setReadFrom(session, info)) {
                state.counted(info, 0, ResponseSummary.UNCHANGED); // as a SET on the server
                ok(next);
                return;
            }
            Optional<LocalResultSet> local = local(info);
            if (local.isPresent() && local.get() == AdminStatements.OK) {
                ok(next);
                return;
            }
            if (local.isPresent()) {
                local.get().write(ctx.channel(), next, state.deprecateEof(), state.extendedTypeInfo(),
                        state.statusFlags());
                state.counted(info, -1, local.get().rows().size());
                done();
                return;
            }
        }
        String schemaStatementIn = info.kind() == SqlKind.DDL ? Databases.schemaStatementDatabase(context, user(),
                session.remoteHost(), info, state.database()) : null;
        route(query.payload(), next, ResponseKind.QUERY, sql, info, schemaStatementIn != null ? schemaStatementIn
                : currentDatabase());
    }

    /** What Strata answers itself: admin statements (for administrators only), the process list, local queries. */
    private Optional<LocalResultSet> local(SqlStatementInfo info) {
        if (AdminStatements.isAdmin(info)) {
            AdminStatements.checkAdmin(context, session);
            return AdminStatements.answer(context, info).or(() -> LocalQueries.answer(context, session, info))
                    .or(() -> explain(info));
        }
        return ProcessList.answer(context, session, info).or(() -> LocalQueries.answer(context, session, info));
    }

    /** SHOW STRATA ROUTE: the route of the statement it names, in the session as it stands. */
    private Optional<LocalResultSet> explain(SqlStatementInfo info) {
        String sql = RouteExplain.statementOf(info);
        if (sql == null) {
            return Optional.empty();
        }
        String database = currentDatabase();
        StatementContext routing = new StatementContext(database, SqlClassifier.classify(sql),
                state.inTransaction() || !state.autocommit(), runner.held(), false, session.routeState());
        return Optional.of(RouteExplain.answer(life.runtime().ruleChain(database), routing));
    }

    /** Routes the command with the rule chain and hands it to the executor's runner. */
    private void route(ByteBuf payload, int next, ResponseKind kind, String sql, SqlStatementInfo info) {
        route(payload, next, kind, sql, info, currentDatabase());
    }

    private void route(ByteBuf payload, int next, ResponseKind kind, String sql, SqlStatementInfo info,
                       String database) {
        Routed routed = routed(payload, next, kind, sql, info, database,
                database.equals(state.database()) ? state.schema() : null);
        if (routed.route().steering().rewritten() != null && routed.route().isSingle()
                && routed.route().first().params().isEmpty()) {
            routed = rewrittenText(routed); // a query rule's rewrite: relayed as the client's own statement is
        }
        if (!routed.route().passThrough()) {
            if (info != null && info.multiStatement()) {
                routed.command().payload().release();
                throw ErrorCode.UNSUPPORTED.exception("several statements in one query when they go to several "
                        + "data sources");
            }
            runner.fanOut(routed.command(), routed.route(), null);
            return;
        }
        (kind == ResponseKind.QUERY ? runner : relayRunner).run(routed.command());
    }

    /** The command as a COM_QUERY of the text its single unit runs, in the session's character set. */
    private Routed rewrittenText(Routed routed) {
        StatementRunner.Command command = routed.command();
        ByteBuf rewritten = StateSync.command(command.payload().alloc(), CommandType.COM_QUERY,
                routed.route().first().sql(), Charsets.java(state.charset()));
        command.payload().release();
        RouteUnit unit = new RouteUnit(routed.route().first().dataSource());
        return new Routed(command.to(command.dataSource(), command.retryable(), rewritten),
                routed.route().withUnits(List.of(unit), routed.route().retryable(), List.of()));
    }

    /** A command with its route: the route's first unit is the command's data source. */
    private record Routed(StatementRunner.Command command, RouteResult route) {
    }

    /**
     * @param payload the command's payload, of which the routed command takes a reference of its own
     * @param schema  the backend schema to run in, or null for the data source's own
     */
    private Routed routed(ByteBuf payload, int next, ResponseKind kind, String sql, SqlStatementInfo info,
                          String database, String schema) {
        return routed(payload, next, kind, sql, info, database, schema, kind == null, null);
    }

    /**
     * @param keepsState the command leaves state on its connection (long data, a cursor)
     * @param parameters an execute's parameter values, for the rules that ask; null for none
     */
    private Routed routed(ByteBuf payload, int next, ResponseKind kind, String sql, SqlStatementInfo info,
                          String database, String schema, boolean keepsState, Supplier<List<Object>> parameters) {
        StatementContext routing = new StatementContext(database, info,
                state.inTransaction() || !state.autocommit(), runner.held(), keepsState, session.routeState(),
                parameters, kind == ResponseKind.PREPARE);
        if (kind == ResponseKind.QUERY && info != null) {
            statementIs(info, database, null); // an error rule's refusal is counted under the statement too
        }
        // a prepare runs nothing yet: neither a read nor a write
        RouteResult route = life.route(routing, kind != ResponseKind.PREPARE, parameters);
        return new Routed(new StatementRunner.Command(database, schema, route.first().dataSource(),
                payload.retainedDuplicate(), sql, kind, info, next, routing, route.retryable()), route);
    }

    /** See {@link StatementRunner.Completion#reroute}. */
    private StatementRunner.Command reroute(StatementRunner.Command command, ByteBuf payload, Throwable why) {
        if (!command.retryable()) {
            return null;
        }
        RouteResult route = life.reroute(command.routing(), command.dataSource(), why);
        return route == null ? null : command.to(route.first().dataSource(), route.retryable(), payload);
    }

    /**
     * COM_STMT_PREPARE: the statement gets an id of this session's; where it runs is decided per execute.
     * <p>
     * The statement is kept as the bytes the client sent, one char per byte (ISO-8859-1): that text keys backend
     * statement caches and is what another backend connection is sent when it prepares the statement again. Decoded
     * as UTF-8, a latin1 client's 'é' and 'è' would both be U+FFFD: two statements under one key, each prepared
     * again as U+FFFD's bytes. Only SQL with such bytes is decoded a second time, as UTF-8, for the rules to read.
     * The text is interned: sessions preparing the same SQL hold the same String, which a cache lookup compares by
     * identity instead of byte by byte.
     */
    private void prepare(ComStmtPrepare prepare, int next) {
        SqlStatementInfo info = SqlClassifier.classify(prepare.sqlAsUtf8());
        // answered once, by the first unit's data source: each execute then goes where its route says
        Routed routed = routed(prepare.payload(), next, ResponseKind.PREPARE, prepare.sql(), info, currentDatabase(),
                state.schema());
        StatementRunner.Command command = routed.command();
        if (routed.route().first().rewritten()) { // a rule's own text (a sharded table's first actual table)
            ByteBuf rewritten = io.strata.backend.connection.StateSync.command(command.payload().alloc(),
                    io.strata.protocol.CommandType.COM_STMT_PREPARE, routed.route().first().sql());
            command.payload().release();
            command = command.to(command.dataSource(), false, rewritten);
        }
        runner.prepare(command, state.nextStatementId());
    }

    /**
     * A COM_STMT_* command on a prepared statement; {@code kind} null for COM_STMT_SEND_LONG_DATA (no response).
     *
     * @param opensCursor an execute that asks for a cursor
     */
    private void statementCommand(ByteBuf payload, long id, int next, ResponseKind kind, String function,
                                  boolean opensCursor) {
        PreparedStatement statement = state.statement(id);
        if (statement == null) {
            if (kind == null) {
                done(); // MySQL too stays silent here; the execute reports the unknown statement
                return;
            }
            throw ErrorCode.UNKNOWN_STMT_HANDLER.exception(id == ComStmtExecute.LAST_PREPARED ? "-1" : id, function);
        }
        if (kind == ResponseKind.STATUS && !state.needsPinnedConnection()) {
            state.cursor(statement, false); // nothing of this statement lives on a server: reset is a no-op
            runner.statementReset(statement);
            ok(next);
            return;
        }
        life.executes(statement);
        // in the database it was prepared in, as the server runs it (a USE since changes nothing for it)
        Routed routed = routed(payload, next, kind, statement.sql(), statement.info(), statement.database(),
                statement.schema(), kind == null || opensCursor,
                kind == ResponseKind.QUERY ? parameters(payload, statement) : null);
        statement.longDataSent(kind == null);
        if (routed.route().passThrough() || preparedAsRewritten(routed.route())) {
            runner.runStatement(routed.command(), statement);
        } else if (kind == ResponseKind.QUERY && !opensCursor) {
            runner.fanOut(routed.command(), routed.route(), statement);
        } else {
            routed.command().payload().release();
            throw ErrorCode.UNSUPPORTED.exception(kind == null ? "long data for a statement routed to several data "
                    + "sources" : "cursors of a statement routed to several data sources");
        }
    }

    /**
     * Whether the JDBC executor's statement already runs the route's text: a whole-statement rewrite (a query
     * rule's, or the logical database shown in place of the backend's schema) made of the text alone, so that the
     * PREPARE, routed the same way, prepared that text. The relay runs such an execute as its units instead.
     */
    private boolean preparedAsRewritten(RouteResult route) {
        return context.config().server().jdbcExecutor() && route.isSingle() && route.first().rewritten()
                && route.first().sql().equals(route.steering().rewritten());
    }

    /**
     * An execute's parameter values, decoded only when a rule asks (the relay forwards the block as it came). Values
     * sent as long data are not in the block, so a rule cannot read them: refused.
     */
    private Supplier<List<Object>> parameters(ByteBuf payload, PreparedStatement statement) {
        return () -> {
            if (statement.longDataSent()) {
                throw new RouteException(1235, "42000", "A rule needs this execute's parameter values, and some came as long data "
                                + "(COM_STMT_SEND_LONG_DATA), which Strata does not read: bind them as plain values");
            }
            byte[] types = ComStmtExecute.types(payload, statement.params());
            if (types != null) {
                statement.types(types); // a later execute may bind none (new-params-bound 0): these then hold
            }
            if (statement.params() > 0 && types == null && statement.types() == null) {
                throw ErrorCode.MALFORMED_PACKET.exception("an execute that binds no parameter types");
            }
            return Arrays.asList(ExecuteParameters.decode(payload, statement.params(),
                    types != null ? types : statement.types(), Map.of(), Charsets.java(state.charset())));
        };
    }

    private void closeStatement(long id) {
        PreparedStatement statement = state.statement(id);
        if (statement != null) {
            runner.closeStatement(statement);
        }
        done(); // COM_STMT_CLOSE has no response
    }

    private String currentDatabase() {
        if (state.database() != null) {
            return state.database();
        }
        // No database selected: statements that name their tables fully still run (Databases.defaultFor says
        // where), and DATABASE() says NULL as it would on MySQL.
        String database = Databases.defaultFor(context, user());
        if (database == null) {
            throw ErrorCode.NO_DB.exception();
        }
        return database;
    }

    private UserConfig user() {
        return context.authenticator().user(session.user()).orElseThrow();
    }

    /**
     * USE and COM_INIT_DB: a logical database at once; a schema of the session's logical database's data sources
     * where that database exposes them, as {@code USE `name`} on the session's own connection, whose answer the
     * client gets (the runner then follows the session into it: {@link Session#use}).
     */
    private void initDb(String database, int next) {
        UserConfig user = user();
        if (user.mayUse(database) && context.config().databases().containsKey(database)) {
            state.use(database, null);
            ok(next);
            return;
        }
        DatabaseConfig exposing = Databases.exposing(context, user, state.database());
        if (exposing == null) {
            // MySQL's order: an unknown database is 1049 for users who may see every database, 1044 for the others
            throw user.mayUse(database) ? ErrorCode.BAD_DB.exception(database)
                    : ErrorCode.DB_ACCESS_DENIED.exception(user.name(), session.remoteHost(), database);
        }
        String use = "USE `" + database.replace("`", "``") + "`";
        ByteBuf payload = StateSync.command(ctx.alloc(), CommandType.COM_QUERY, use);
        try {
            runner.run(routed(payload, next, ResponseKind.QUERY, use, SqlClassifier.classify(use),
                    exposing.databaseName(), null).command());
        } finally {
            payload.release();
        }
    }

    private void ok(int next) {
        Responses.ok(ctx.channel(), next, new OkPacket(0, 0, state.statusFlags(), 0));
        done();
    }

    private void setOption(int option, int next) {
        state.multiStatements(option == ComSetOption.MULTI_STATEMENTS_ON);
        Responses.eof(ctx.channel(), next, state.deprecateEof(), state.statusFlags(), true);
        done();
    }

    private void resetConnection(int next) {
        runner.releaseSession().whenComplete((ignored, error) -> ctx.executor().execute(() -> {
            session.resetState();
            ok(next);
        }));
    }

    /**
     * COM_CHANGE_USER: the session's state goes, then the connection phase runs again (an auth switch with a fresh
     * nonce) for the new user.
     */
    private void changeUser(ComChangeUser change, int next) {
        HandshakeResponse41 response = new HandshakeResponse41(state.capabilities(), 0, change.characterSet(),
                change.user(), change.authResponse(), change.database(), null, Map.of(),
                state.mariaDbCapabilities());
        closed = true;
        runner.releaseSession().whenComplete((ignored, error) -> ctx.executor().execute(() -> {
            context.sessions().remove(session);
            releaseQueue();
            ctx.pipeline().replace(this, "auth", phases.changeUser(session, response, next));
            ctx.channel().config().setAutoRead(true);
        }));
    }

    /** KILL [QUERY|CONNECTION] n as SQL; false when the statement is not of that form (the backend judges it). */
    private boolean kill(SqlStatementInfo info, int next) {
        return KillCommand.parse(info).map(kill -> {
            kill(kill.id(), kill.queryOnly(), next);
            return true;
        }).orElse(false);
    }

    private void kill(long id, boolean queryOnly, int next) {
        KillCommand.run(context, session, id, queryOnly).whenComplete((result, error) ->
                ctx.executor().execute(() -> {
                    if (error != null) {
                        fail(next - 1, error);
                    } else if (result == KillCommand.Outcome.KILLED_SELF) {
                        closed = true;
                    } else {
                        ok(next);
                    }
                }));
    }

    private void fail(int lastSequenceId, Throwable error) {
        ErrPacketLog.log(LOG, session, error);
        state.answerFailed(true);
        state.counted(-1, ResponseSummary.UNCHANGED); // as after a statement the server refused
        Responses.err(ctx.channel(), (lastSequenceId + 1) & 0xFF, MySQLException.toErrPacket(error));
        done();
    }

    /** A command starts: the process list shows it, and what its statement's answer says is counted from nothing. */
    private void commandStarts(ClientCommand command) {
        life.starts(command.type().processListName(), command instanceof ComQuery query ? query.sql() : null);
    }

    /** The command runs {@code info} in {@code database}; {@code dataSources} where, when already known. */
    private void statementIs(SqlStatementInfo info, String database, String dataSources) {
        life.statementIs(info, database, dataSources);
    }

    /**
     * server.idleTimeout: a session that has run no command for longer is closed, as the server's wait_timeout
     * does, after MySQL 8's goodbye (4031). A running statement is no idleness, however long it takes.
     */
    private void closeIfIdle(long idleMillis) {
        if (busy || closed || !queue.isEmpty()
                || System.nanoTime() - idleSinceNanos <= TimeUnit.MILLISECONDS.toNanos(idleMillis)) {
            return;
        }
        LOG.debug("session {}: idle longer than server.idleTimeout ({} ms), closed", session.connectionId(),
                idleMillis);
        goodbye(ErrorCode.IDLE_TIMEOUT.packet(idleMillis));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        runner.writabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (idleCheck != null) {
            idleCheck.cancel(false); // COM_CHANGE_USER hands the connection back to the connection phase
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        life.close();
        releaseQueue();
        context.sessions().remove(session);
        runner.clientClosed();
        if (relayRunner != runner) {
            relayRunner.clientClosed();
        }
        ctx.fireChannelInactive();
    }

    private void releaseQueue() {
        MySQLFrame frame;
        while ((frame = queue.poll()) != null) {
            frame.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ErrPacketLog.log(LOG, session, cause);
        if (ctx.channel().isActive()) {
            Responses.err(ctx.channel(), 1, MySQLException.toErrPacket(cause));
        }
        ctx.close();
    }

    /** Expected errors (SQL a client got wrong) at debug; Strata's own failures at warn with the stack. */
    private static final class ErrPacketLog {
        static void log(Logger log, Session session, Throwable error) {
            if (error instanceof MySQLException || error instanceof RouteException) {
                log.debug("session {}: {}", session.connectionId(), error.getMessage());
            } else {
                log.warn("session {}: unexpected failure", session.connectionId(), error);
            }
        }
    }
}
