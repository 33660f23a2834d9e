package io.strata.frontend.command;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.strata.backend.connection.StateSync;
import io.strata.backend.execute.PreparedStatement;
import io.strata.backend.execute.SessionState;
import io.strata.backend.execute.StatementRunner;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseSummary;
import io.strata.config.DatabaseConfig;
import io.strata.config.UserConfig;
import io.strata.frontend.Databases;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.kernel.Session;
import io.strata.kernel.Reloader;
import io.strata.kernel.StatementLife;
import io.strata.protocol.Charsets;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.command.ComQuery;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.protocol.command.ComStmtFetch;
import io.strata.protocol.command.ComStmtPrepare;
import io.strata.protocol.command.ComStmtReset;
import io.strata.protocol.command.ComStmtSendLongData;
import io.strata.protocol.command.ExecuteParameters;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.StatementContext;
import io.strata.rule.Steering;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The commands that carry a statement, from decoded packet to executor: COM_QUERY (answered by Strata itself where
 * it can: USE, KILL, its own variables and admin statements, the process list; else routed), COM_INIT_DB, COM_STMT_*
 * and the commands only the relay knows (COM_FIELD_LIST, COM_STATISTICS). Each is routed through the kernel's
 * {@link StatementLife} and handed to the session's runner with its route. One per client connection, on its loop.
 */
final class StatementCommands {

    private static final String STRATA = StatementLife.STRATA;

    /** What the command handler does for the statements run here: answer, end the command, KILL. */
    interface Answers {
        /** An OK with the session's status, then the command is done. */
        void ok(int next);

        /** The command has been answered completely. */
        void done();

        /** KILL [QUERY|CONNECTION] n as SQL; false when the statement is not of that form. */
        boolean kill(SqlStatementInfo info, int next);

        /** The command failed after the packet {@code lastSequenceId}: the client hears {@code error}, then done. */
        void fail(int lastSequenceId, Throwable error);
    }

    private final FrontendContext context;
    private final Session session;
    private final SessionState state;
    private final StatementLife life;
    private final Channel channel;
    private final StatementRunner runner;
    /** COM_FIELD_LIST and COM_STATISTICS have no JDBC form: they are relayed whatever the executor. */
    private final StatementRunner relayRunner;
    private final Answers answers;

    StatementCommands(FrontendContext context, Session session, StatementLife life, Channel channel,
                      StatementRunner runner, StatementRunner relayRunner, Answers answers) {
        this.context = context;
        this.session = session;
        this.state = session.state();
        this.life = life;
        this.channel = channel;
        this.runner = runner;
        this.relayRunner = relayRunner;
        this.answers = answers;
    }

    void query(ComQuery query, int next) {
        String sql = query.sql();
        SqlStatementInfo info = SqlClassifier.classify(sql);
        life.statementIs(info, state.database() == null ? "" : state.database(), STRATA);
        if (!info.multiStatement()) {
            if (info.kind() == SqlKind.USE && info.tokens().size() == 2) {
                initDb(SqlClassifier.unquote(info.token(1)), next);
                return;
            }
            if (info.kind() == SqlKind.KILL && answers.kill(info, next)) {
                return;
            }
            if (mayAnswerLocally(info) && answeredLocally(info, next)) {
                return;
            }
        }
        String schemaStatementIn = info.kind() == SqlKind.DDL ? Databases.schemaStatementDatabase(context, user(),
                session.remoteHost(), info, state.database()) : null;
        route(query.payload(), next, ResponseKind.QUERY, sql, info, schemaStatementIn != null ? schemaStatementIn
                : currentDatabase());
    }

    /**
     * Whether Strata may answer the statement itself (see {@link #local}): SHOW, SET and FLUSH, a SELECT of four
     * tokens or fewer (its variables, the session's functions) or one naming the process list. Every other
     * statement, an OLTP load's, goes on to its route without asking the local answers one by one.
     */
    static boolean mayAnswerLocally(SqlStatementInfo info) {
        return switch (info.kind()) {
            case SHOW, SET, OTHER -> true;
            case DDL -> info.tokenIs(1, "STRATA"); // ALTER STRATA DATA SOURCE
            case SELECT -> info.tokens().size() <= 4 || mentionsProcessList(info.sql());
            default -> false;
        };
    }

    /**
     * Whether the word PROCESSLIST is in the text, in any case: one pass over its characters, where looking at
     * its tokens would make them.
     */
    static boolean mentionsProcessList(String sql) {
        for (int at = sql.length() - PROCESSLIST.length(); at >= 0; at--) {
            char c = sql.charAt(at);
            if ((c == 'P' || c == 'p') && sql.regionMatches(true, at, PROCESSLIST, 0, PROCESSLIST.length())) {
                return true;
            }
        }
        return false;
    }

    private static final String PROCESSLIST = "PROCESSLIST";

    /** A statement Strata answers itself is answered: SET strata_read_from, an admin statement, a local query. */
    private boolean answeredLocally(SqlStatementInfo info, int next) {
        if (LocalQueries.setReadFrom(session, info)) {
            state.counted(info, 0, ResponseSummary.UNCHANGED); // as a SET on the server
            answers.ok(next);
            return true;
        }
        if (AdminStatements.isAdmin(info) && AdminStatements.isReload(info)) {
            AdminStatements.checkAdmin(context, session);
            reload(next);
            return true;
        }
        if (context.kernel().cluster() != null && ProcessList.is(info)) {
            processListOfCluster(info, next);
            return true;
        }
        Optional<LocalResultSet> local = local(info);
        if (local.isPresent() && local.get() == AdminStatements.OK) {
            answers.ok(next);
            return true;
        }
        if (local.isPresent()) {
            local.get().write(channel, next, state.deprecateEof(), state.extendedTypeInfo(), state.statusFlags());
            state.counted(info, -1, local.get().rows().size());
            answers.done();
            return true;
        }
        return false;
    }

    /**
     * RELOAD STRATA CONFIG: the conf folder is read and validated off the event loop; the client hears each change
     * and each key left for a restart, or the configuration's mistake (the running configuration then stays).
     */
    private void reload(int next) {
        Reloader reloader = context.kernel().reloader();
        if (reloader == null) {
            throw ErrorCode.UNSUPPORTED.exception("RELOAD STRATA CONFIG in a Strata built from configuration "
                    + "records (there is no conf folder to read)");
        }
        String by = "RELOAD STRATA CONFIG by " + session.user() + "@" + session.remoteHost();
        reloader.reload(by).whenComplete((version, error) -> channel.eventLoop().execute(() -> {
            if (error != null) {
                Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                answers.fail(next - 1, ErrorCode.CONFIG_REFUSED.exception(cause.getMessage()));
                return;
            }
            LocalResultSet answer = ConfigStatus.reloaded(version, context.kernel().cluster());
            answer.write(channel, next, state.deprecateEof(), state.extendedTypeInfo(), state.statusFlags());
            state.counted(null, -1, answer.rows().size());
            answers.done();
        }));
    }

    /**
     * The process list of a cluster member: its own sessions and those of the other members, asked through the
     * registry off the event loop.
     */
    private void processListOfCluster(SqlStatementInfo info, int next) {
        context.kernel().cluster().otherMembersProcesses(session.user(),
                AdminStatements.isAdministrator(context, session)).whenComplete((others, error) ->
                channel.eventLoop().execute(() -> {
                    LocalResultSet answer;
                    try {
                        answer = ProcessList.answer(context, session, info, others == null ? List.of() : others);
                    } catch (RuntimeException e) {
                        answers.fail(next - 1, e);
                        return;
                    }
                    answer.write(channel, next, state.deprecateEof(), state.extendedTypeInfo(), state.statusFlags());
                    state.counted(info, -1, answer.rows().size());
                    answers.done();
                }));
    }

    /** What Strata answers itself: admin statements (for administrators only), the process list, local queries. */
    private Optional<LocalResultSet> local(SqlStatementInfo info) {
        if (AdminStatements.isAdmin(info)) {
            AdminStatements.checkAdmin(context, session);
            if (DataSourceSwitch.is(info)) {
                DataSourceSwitch.apply(life.runtime(), info, state.database(), context.kernel().cluster());
                return Optional.of(AdminStatements.OK);
            }
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

    void route(ByteBuf payload, int next, ResponseKind kind, String sql, SqlStatementInfo info,
               String database) {
        Routed routed = routed(payload, next, kind, sql, info, database,
                database.equals(state.database()) ? state.schema() : null);
        if (routed.route().steering() != Steering.NONE && routed.route().steering().rewritten() != null
                && routed.route().isSingle() && routed.route().first().params().isEmpty()) {
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
            life.statementIs(info, database, null); // an error rule's refusal is counted under the statement too
        }
        // a prepare runs nothing yet: neither a read nor a write
        RouteResult route = life.route(routing, kind != ResponseKind.PREPARE, parameters);
        return new Routed(new StatementRunner.Command(database, schema, route.first().dataSource(),
                payload.retainedDuplicate(), sql, kind, info, next, routing, route.retryable()), route);
    }

    /** See {@link StatementRunner.Completion#reroute}. */
    StatementRunner.Command reroute(StatementRunner.Command command, ByteBuf payload, Throwable why) {
        if (!command.retryable()) {
            return null;
        }
        RouteResult route = life.reroute(command.routing(), command.dataSource(), why);
        return route == null ? null : command.to(route.first().dataSource(), route.retryable(), payload);
    }

    /** COM_FIELD_LIST and COM_STATISTICS: no statement, relayed to the session's data source. */
    void relayed(ByteBuf payload, int next, ResponseKind kind) {
        route(payload, next, kind, null, null);
    }

    void execute(ComStmtExecute execute, int next) {
        statementCommand(execute.payload(), execute.statementId(), next, ResponseKind.QUERY, "mysqld_stmt_execute",
                execute.opensCursor());
    }

    void fetch(ComStmtFetch fetch, int next) {
        statementCommand(fetch.payload(), fetch.statementId(), next, ResponseKind.FETCH, "mysqld_stmt_fetch", false);
    }

    void reset(ComStmtReset reset, int next) {
        statementCommand(reset.payload(), reset.statementId(), next, ResponseKind.STATUS, "mysqld_stmt_reset", false);
    }

    /** COM_STMT_SEND_LONG_DATA, which has no answer. */
    void longData(ComStmtSendLongData longData, int next) {
        statementCommand(longData.payload(), longData.statementId(), next, null, null, false);
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
    void prepare(ComStmtPrepare prepare, int next) {
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
                answers.done(); // MySQL too stays silent here; the execute reports the unknown statement
                return;
            }
            throw ErrorCode.UNKNOWN_STMT_HANDLER.exception(id == ComStmtExecute.LAST_PREPARED ? "-1" : id, function);
        }
        if (kind == ResponseKind.STATUS && !state.needsPinnedConnection()) {
            state.cursor(statement, false); // nothing of this statement lives on a server: reset is a no-op
            runner.statementReset(statement);
            answers.ok(next);
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
        return life.runtime().config().server().jdbcExecutor() && route.isSingle() && route.first().rewritten()
                && route.first().sql().equals(route.steering().rewritten());
    }

    /**
     * An execute's parameter values, decoded only when a rule asks (the relay forwards the block as it came). Values
     * sent as long data are not in the block, so a rule cannot read them: refused.
     */
    private Supplier<List<Object>> parameters(ByteBuf payload, PreparedStatement statement) {
        return () -> {
            if (statement.longDataSent()) {
                throw new RouteException(1235, "42000", "A rule needs this execute's parameter values, and some came "
                        + "as long data (COM_STMT_SEND_LONG_DATA), which Strata does not read: bind them as plain values");
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

    void closeStatement(long id) {
        PreparedStatement statement = state.statement(id);
        if (statement != null) {
            runner.closeStatement(statement);
        }
        answers.done(); // COM_STMT_CLOSE has no response
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
        return context.authenticator().loggedIn(session.user());
    }

    /**
     * USE and COM_INIT_DB: a logical database at once; a schema of the session's logical database's data sources
     * where that database exposes them, as {@code USE `name`} on the session's own connection, whose answer the
     * client gets (the runner then follows the session into it: {@link Session#use}).
     */
    void initDb(String database, int next) {
        UserConfig user = user();
        if (user.mayUse(database) && life.runtime().config().databases().containsKey(database)) {
            state.use(database, null);
            answers.ok(next);
            return;
        }
        DatabaseConfig exposing = Databases.exposing(context, user, state.database());
        if (exposing == null) {
            // MySQL's order: an unknown database is 1049 for users who may see every database, 1044 for the others
            throw user.mayUse(database) ? ErrorCode.BAD_DB.exception(database)
                    : ErrorCode.DB_ACCESS_DENIED.exception(user.name(), session.remoteHost(), database);
        }
        String use = "USE `" + database.replace("`", "``") + "`";
        ByteBuf payload = StateSync.command(channel.alloc(), CommandType.COM_QUERY, use);
        try {
            runner.run(routed(payload, next, ResponseKind.QUERY, use, SqlClassifier.classify(use),
                    exposing.databaseName(), null).command());
        } finally {
            payload.release();
        }
    }
}
