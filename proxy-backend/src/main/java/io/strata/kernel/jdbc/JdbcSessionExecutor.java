package io.strata.kernel.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.backend.jdbc.JdbcUnits;
import io.strata.backend.jdbc.UnitOptions;
import io.strata.backend.merge.ResultMerger;
import io.strata.backend.merge.UnitAnswer;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.kernel.Executor;
import io.strata.kernel.Outcome;
import io.strata.protocol.ErrorCode;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlStatementInfo;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The kernel's executor over HikariCP pools of MariaDB Connector/J connections, for one session: each unit of a
 * route runs on a pooled connection of its data source (those of several data sources at once), and their answers
 * are merged by the proxy's own merge. Rows are values, never MySQL packets.
 *
 * <p>Transactions are the proxy's LOCAL ones: with autocommit off or after BEGIN, the session keeps the connection
 * of every data source it touched until COMMIT or ROLLBACK, which then run on each in turn. The backend work runs on
 * the thread {@code work} gives it; one statement at a time.
 */
public final class JdbcSessionExecutor implements Executor, AutoCloseable {

    /** Rows a unit of a merge reads at a time: a merge streams rather than holding every unit's rows. */
    private static final int MERGE_FETCH_SIZE = 256;

    private final java.util.concurrent.Executor work;
    private final SessionConnections connections = new SessionConnections();
    private StatementOptions options = StatementOptions.DEFAULT;
    /** The keys the last statement generated, in order. */
    private List<Long> generatedKeys = List.of();
    /** The warnings of the last statement, when it was an update of one unit that had some; else null. */
    private java.sql.SQLWarning warnings;

    /** @param work where a statement's backend work runs: a {@link HandOff} runs it on the caller's thread */
    public JdbcSessionExecutor(java.util.concurrent.Executor work) {
        this.work = work;
    }

    /** What the next statement runs with (fetch size, row limit, time limit), set by the host before it. */
    public void options(StatementOptions next) {
        this.options = next;
    }

    public SessionConnections connections() {
        return connections;
    }

    /** The keys the last statement generated: an auto-increment's, or the first key a rule generated. */
    public List<Long> generatedKeys() {
        return generatedKeys;
    }

    /** The last statement's warnings (an update of one unit), as the backend driver read them; null for none. */
    public java.sql.SQLWarning warnings() {
        return warnings;
    }

    public void clearWarnings() {
        warnings = null;
    }

    @Override
    public Map<String, StatementContext.Hold> held() {
        return connections.held();
    }

    @Override
    public CompletionStage<Outcome> execute(Routed routed) {
        CompletableFuture<Outcome> answer = new CompletableFuture<>();
        work.execute(() -> {
            try {
                answer.complete(run(routed));
            } catch (Throwable failed) {
                answer.completeExceptionally(failed);
            }
        });
        return answer;
    }

    /** Cancels what the session runs now on its backends (a query rule's time limit, KILL QUERY). */
    public CompletableFuture<Void> cancel() {
        connections.cancelRunning();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void close() {
        connections.close();
    }

    private Outcome run(Routed routed) throws InterruptedException {
        generatedKeys = List.of();
        warnings = null;
        SqlStatementInfo info = routed.info();
        Outcome control = transactionControl(info);
        if (control != null) {
            return control;
        }
        if (info.pinsSession()) {
            connections.pin(); // its state must be there for the session's next statements, and for no other
        }
        RouteResult route = routed.route();
        Result combined = route.units().size() == 1
                ? ResultMerger.asRouted(unit(routed, route.units().get(0), options.fetchSize(),
                        route.renamed() == null), route)
                : merged(routed, route);
        if (combined instanceof UpdateResult && route.insertId() != 0) {
            generatedKeys = List.of(route.insertId());
        }
        return Outcome.of(combined);
    }

    /**
     * BEGIN, COMMIT, ROLLBACK and {@code SET autocommit} end or start the session's transaction on every data source
     * it holds, as the proxy does; null for any other statement.
     */
    private Outcome transactionControl(SqlStatementInfo info) {
        if (info.multiStatement()) {
            return null;
        }
        try {
            switch (info.kind()) {
                case BEGIN -> connections.begin();
                case COMMIT -> connections.commit();
                case ROLLBACK -> {
                    if (info.tokens().size() > 1 && info.tokenIs(1, "TO")
                            || info.tokens().size() > 2 && info.tokenIs(2, "TO")) {
                        return null; // ROLLBACK TO SAVEPOINT: on the held connections, as routed
                    }
                    connections.rollback();
                }
                case SET -> {
                    Boolean autocommit = info.autocommitSet();
                    if (autocommit == null) {
                        return null;
                    }
                    connections.autocommit(autocommit);
                }
                default -> {
                    return null;
                }
            }
        } catch (SQLException e) {
            return new Outcome.Failure(JdbcUnits.error(e));
        }
        return new Outcome.Update(new UpdateResult(0, 0, connections.statusFlags(), 0, ""));
    }

    /** One unit on its data source's connection (the one the session holds there, else a pooled one). */
    private Result unit(Routed routed, RouteUnit unit, int fetchSize, boolean inPlace) {
        JdbcDataSources pools = routed.runtime().jdbc();
        HikariDataSource pool = pools.get(routed.database(), unit.dataSource(), true);
        SessionConnections.Lease lease;
        try {
            lease = connections.take(pool, unit.dataSource());
        } catch (SQLException e) {
            return new ErrorResult(ErrorCode.BACKEND_UNAVAILABLE.packet(unit.dataSource() + " of " + routed.database(),
                    JdbcUnits.message(e)));
        }
        String sql = unit.rewritten() ? unit.sql() : routed.statement().sql();
        List<Object> values = unit.rewritten() ? (unit.params().isEmpty() ? null : unit.params())
                : routed.statement().parameters();
        return JdbcUnits.run(lease, sql, values, options.forUnit(fetchSize, inPlace), this::updated);
    }

    private void updated(JdbcUnits.UpdateDetails details) {
        generatedKeys = details.keys();
        if (details.warnings() != null) {
            warnings = details.warnings();
        }
    }

    /**
     * Several units: each data source's run one after another on its connection, the data sources at once (the
     * first on this thread, the others on virtual threads); their answers merged as the route says.
     */
    private Result merged(Routed routed, RouteResult route) throws InterruptedException {
        List<RouteUnit> units = route.units();
        Map<String, List<Integer>> byDataSource = new LinkedHashMap<>();
        for (int i = 0; i < units.size(); i++) {
            byDataSource.computeIfAbsent(units.get(i).dataSource(), ds -> new ArrayList<>()).add(i);
        }
        Result[] results = new Result[units.size()];
        List<Thread> others = new ArrayList<>();
        List<Runnable> groups = new ArrayList<>();
        for (List<Integer> indexes : byDataSource.values()) {
            groups.add(() -> {
                for (int index : indexes) {
                    results[index] = unit(routed, units.get(index), MERGE_FETCH_SIZE, false);
                }
            });
        }
        for (int g = 1; g < groups.size(); g++) {
            others.add(Thread.ofVirtual().name("strata-unit").start(groups.get(g)));
        }
        groups.get(0).run();
        for (Thread other : others) {
            other.join();
        }
        List<UnitAnswer> answers = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            answers.add(new UnitAnswer(units.get(i).dataSource(), results[i]));
        }
        return ResultMerger.merge(answers, route);
    }

    /** The per-statement settings of JDBC's Statement that reach the backend's. */
    public record StatementOptions(int fetchSize, int maxRows, int queryTimeoutSeconds) {
        public static final StatementOptions DEFAULT = new StatementOptions(0, 0, 0);

        /** A unit's options: rows read in place by the driver's result set, or copied as binary values to merge. */
        UnitOptions forUnit(int unitFetchSize, boolean inPlace) {
            return new UnitOptions(unitFetchSize, maxRows, queryTimeoutSeconds,
                    inPlace ? UnitOptions.Cells.IN_PLACE : UnitOptions.Cells.BINARY, 0, 0);
        }
    }
}
