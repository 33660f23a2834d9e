package io.strata.kernel;

import io.strata.backend.execute.PreparedStatement;
import io.strata.backend.execute.SessionState;
import io.strata.kernel.digest.DigestKey;
import io.strata.kernel.slowlog.SlowQuery;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.StatementContext;
import io.strata.rule.Steering;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.sql.SqlStatementInfo;
import io.strata.rule.sql.parser.ParameterInliner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The stages every command of one session passes, whichever host runs it, in order:
 * <ol>
 *     <li>{@link #starts}: the command takes the kernel's runtime for its whole life, and the process list shows
 *     it;</li>
 *     <li>{@link #route}: the runtime's rule chain routes its statement; the statement counts as running on the
 *     route's data sources (what LEAST_ACTIVE and SHOW STRATA DATA SOURCES read), and a query rule's time limit and
 *     mirrors take effect;</li>
 *     <li>the host runs the route on its executor (not here);</li>
 *     <li>{@link #ends}: the statement is counted under its digest, written to the slow log when slower than its
 *     threshold, and the session sleeps in the process list.</li>
 * </ol>
 * One per session, used on the thread that runs its stages ({@link SessionThread}), like the session itself.
 */
public final class StatementLife {

    private static final Logger LOG = LoggerFactory.getLogger(StatementLife.class);
    /** Where digests say a statement Strata answered itself ran. */
    public static final String STRATA = "strata";
    /** Where the latency histograms say a statement routed to several data sources ran. */
    public static final String SEVERAL = "several";

    private final Kernel kernel;
    private final Session session;
    private final SessionState state;
    /** Where the session's stages run: a time limit's timer runs there, mirrors take connections of it first. */
    private final SessionThread thread;
    private StrataRuntime runtime;
    /** Whether the session may move to a newer runtime now (see {@link #takesNewRuntimeWhen}). */
    private BooleanSupplier settled;
    /** Counts commands, so that a timer set for one never acts on a later one. */
    private long number;
    private long startNanos;
    private boolean running;
    /** The statement the command runs (digests, the slow log), or null for commands without one. */
    private SqlStatementInfo info;
    private String database;
    /** The prepared statement an execute runs, whose digest is made once; null for a text statement. */
    private PreparedStatement prepared;
    /** Where it went: a data source, several joined by commas, or "strata" for an answer of Strata's own. */
    private String dataSources;
    /** The data sources the statement runs on, counted there until it ends. */
    private final List<DataSourceStatus> counted = new ArrayList<>(2);
    private boolean countedWrite;
    /** A query rule's time limit on the running statement, or null. */
    private ScheduledFuture<?> timeout;

    /**
     * A reload's runtime is taken only where the session is settled: it holds no backend connection (no
     * transaction, no server state of its own), so nothing it began lives in the old runtime's pools. Until then it
     * goes on with the runtime it began under. {@code settled} null: always settled.
     */
    public void takesNewRuntimeWhen(BooleanSupplier settled) {
        this.settled = settled;
    }

    public StatementLife(Kernel kernel, Session session, SessionThread thread) {
        this.kernel = kernel;
        this.session = session;
        this.state = session.state();
        this.thread = thread;
        this.runtime = kernel.runtime();
    }

    /** The runtime of the running command (of the last one, between commands). */
    public StrataRuntime runtime() {
        return runtime;
    }

    /**
     * A command starts: it runs against the kernel's runtime of this moment until it ends, the process list shows it
     * ({@code sql}: its text when known now, else null), and what its answer says is counted from nothing.
     */
    public void starts(String command, String sql) {
        long now = System.nanoTime();
        StrataRuntime latest = kernel.runtime();
        if (latest != runtime && (settled == null || settled.getAsBoolean())) {
            runtime = latest;
        }
        number++;
        startNanos = now;
        running = true;
        info = null;
        prepared = null;
        dataSources = null;
        state.answerStarts();
        session.commandStarts(command, sql, now);
    }

    /**
     * The command runs {@code statement} in {@code database}; {@code where} it runs, when already known (
     * {@link #STRATA} for an answer of Strata's own), else null.
     */
    public void statementIs(SqlStatementInfo statement, String database, String where) {
        this.info = statement;
        this.database = database;
        this.dataSources = where;
        session.statementIs(statement.sql());
    }

    /** The command executes {@code statement}, whose digest is then made once for all its executes. */
    public void executes(PreparedStatement statement) {
        this.prepared = statement;
    }

    /**
     * Routes the statement with the rule chain of its logical database.
     *
     * @param runs       the command runs the statement now (a prepare does not: neither a read nor a write yet),
     *                   so it is counted on its data sources and a query rule's steering applies
     * @param parameters an execute's values, for a mirror's copy; null for a text statement
     */
    public RouteResult route(StatementContext routing, boolean runs, Supplier<List<Object>> parameters) {
        RouteResult route = runtime.ruleChain(routing.database()).route(routing);
        if (runs) {
            SqlStatementInfo statement = routing.statement();
            count(routing.database(), route, statement != null && statement.mayWrite());
            if (route.steering() != Steering.NONE) {
                steer(route.steering(), routing.database(), statement, parameters);
            }
        }
        return route;
    }

    /**
     * A read's data source proved unreachable before the read could have had any effect: it leaves the rotation at
     * once (the health monitor brings it back) and the rules route the read again.
     *
     * @return the new route, or null when the rules have no other single data source for it
     */
    public RouteResult reroute(StatementContext routing, String dataSource, Throwable why) {
        Throwable cause = why.getCause() != null && !(why instanceof MySQLException) ? why.getCause() : why;
        LOG.info("session {}: {} unreachable, the read goes elsewhere: {}", session.connectionId(), dataSource,
                cause.getMessage());
        DataSourceStatus status = runtime.health().status(routing.database(), dataSource);
        status.down("unreachable: " + cause.getMessage(), status.lagSeconds());
        status.retried();
        RouteResult route = runtime.ruleChain(routing.database()).route(routing);
        if (!route.isSingle() || route.first().dataSource().equals(dataSource)) {
            return null;
        }
        count(routing.database(), route, false);
        return route;
    }

    /**
     * The command was answered (or failed): its data sources stop counting it, a write counts from now for
     * read-your-writes, its statement is counted under its digest and, when slower than the slow log's threshold,
     * written there; the session falls asleep in the process list.
     *
     * @return when it ended ({@link System#nanoTime()})
     */
    public long ends() {
        long now = System.nanoTime();
        running = false;
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
        uncount(now);
        SqlStatementInfo statement = info;
        if (statement != null) {
            info = null;
            record(statement, now - startNanos, now);
        }
        session.commandEnds(now);
        return now;
    }

    /** The session ends: a timer still set goes. */
    public void close() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    private void record(SqlStatementInfo statement, long elapsed, long now) {
        StatementTimer timer = kernel.timer();
        if (timer != null) {
            String where = dataSources == null ? STRATA : dataSources.indexOf(',') < 0 ? dataSources : SEVERAL;
            timer.ended(database == null ? STRATA : database, where, statement.kind(), state.answerFailed(),
                    elapsed);
        }
        if (kernel.digests() != null) {
            kernel.digests().add(new DigestKey(digest(statement), session.user(), database,
                            dataSources == null ? STRATA : dataSources), now, elapsed / 1000, state.answerRows(),
                    state.answerAffected(), state.answerFailed(), state.answerWarnings());
        }
        if (kernel.slowLog() != null && elapsed > kernel.slowLog().thresholdNanos()) {
            kernel.slowLog().log(new SlowQuery(System.currentTimeMillis() - elapsed / 1_000_000, elapsed / 1e9,
                    session.user(), session.remoteHost(), session.connectionId(), state.databaseShown(),
                    state.answerRows(), 0, state.answerAffected(), statement.sql()));
        }
    }

    /** The statement's digest text: an execute's is its prepared statement's, made once. */
    private String digest(SqlStatementInfo statement) {
        PreparedStatement executed = prepared;
        if (executed == null || executed.info() != statement) {
            return session.routeState().digest(statement);
        }
        if (executed.digest() == null) {
            executed.digest(session.routeState().digest(statement));
        }
        return executed.digest();
    }

    /** Counts the statement as running on its route's data sources (SHOW STRATA DATA SOURCES, LEAST_ACTIVE). */
    private void count(String database, RouteResult route, boolean write) {
        uncount(System.nanoTime());
        dataSources = dataSources(route);
        session.runsOn(dataSources);
        for (RouteUnit unit : route.units()) {
            DataSourceStatus status = runtime.health().status(database, unit.dataSource());
            status.started(write);
            counted.add(status);
        }
        countedWrite = write;
    }

    private void uncount(long now) {
        if (counted.isEmpty()) {
            return;
        }
        counted.forEach(DataSourceStatus::finished);
        counted.clear();
        if (countedWrite) {
            session.routeState().wroteAt(now);
        }
        countedWrite = false;
    }

    /** The data sources of a route as the process list and digests name them. */
    private static String dataSources(RouteResult route) {
        if (route.isSingle()) {
            return route.first().dataSource();
        }
        return String.join(",", route.units().stream().map(RouteUnit::dataSource).distinct().toList());
    }

    /** What a query rule asked besides the route: a time limit, copies on other data sources. */
    private void steer(Steering steering, String database, SqlStatementInfo statement,
                       Supplier<List<Object>> parameters) {
        if (steering.timeoutMillis() > 0) {
            long command = number;
            timeout = thread.schedule(() -> timedOut(command), steering.timeoutMillis(), TimeUnit.MILLISECONDS);
        }
        if (!steering.mirrors().isEmpty() && statement != null) {
            String sql = steering.rewritten() != null ? steering.rewritten() : statement.sql();
            if (parameters != null && steering.rewritten() == null) {
                sql = ParameterInliner.inline(sql, parameters.get()); // an execute's copy runs as text
            }
            for (String mirror : steering.mirrors()) {
                runtime.mirrors().run(database, mirror, sql, state.flavor(), thread.eventLoop());
            }
        }
    }

    /**
     * A query rule's time limit passed: the statement still running is killed on its backend, and its client gets
     * the server's own timeout error (MySQL's max_execution_time, MariaDB's max_statement_time) in place of 1317.
     */
    private void timedOut(long command) {
        timeout = null;
        SessionState.Cancel cancel = state.running();
        if (command != number || !running || cancel == null) {
            return;
        }
        state.interruption(runtime.backendIsMariaDb() ? ErrorCode.STATEMENT_TIMEOUT.packet()
                : ErrorCode.QUERY_TIMEOUT.packet());
        cancel.cancel();
    }
}
