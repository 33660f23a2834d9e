package io.strata.backend.execute;

import com.zaxxer.hikari.HikariDataSource;
import io.strata.backend.jdbc.JdbcUnits;
import io.strata.backend.jdbc.UnitConnection;
import io.strata.backend.jdbc.UnitOptions;
import io.strata.backend.merge.ResultMerger;
import io.strata.backend.merge.UnitAnswer;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.backend.execute.StatementRunner.Command;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A route of several units (or one a rule rewrote) under the JDBC executor: each data source's units run one after
 * another on its connection (the one the session keeps there, else one from its pool in the session's state and
 * transaction), the data sources at once, and their answers are merged by the same merge as the relay's and the
 * embedded driver's, then written to the client. Runs on a virtual thread; one per statement.
 */
final class JdbcFanOut {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcFanOut.class);
    /** Rows a unit of a merge reads at a time: a merge streams rather than holding every unit's rows. */
    private static final int MERGE_FETCH_SIZE = 256;

    private final JdbcRunner runner;
    private final Command command;
    private final RouteResult route;
    /** The client's own statement, which a unit not rewritten runs. */
    private final String sql;
    /** The values of an execute's {@code ?}, or null for a text statement. */
    private final List<Object> values;
    private final ResultWriter out;
    private final UnitOptions options;
    /** Each data source's units, by index, in route order. */
    private final Map<String, List<Integer>> byDataSource = new LinkedHashMap<>();
    private final Set<Statement> running = ConcurrentHashMap.newKeySet();
    private final Set<String> broken = ConcurrentHashMap.newKeySet();

    JdbcFanOut(JdbcRunner runner, Command command, RouteResult route, String sql, List<Object> values,
               ResultWriter out, UnitOptions options) {
        this.runner = runner;
        this.command = command;
        this.route = route;
        this.sql = sql;
        this.values = values;
        this.out = out;
        this.options = options.withFetchSize(MERGE_FETCH_SIZE);
        List<RouteUnit> units = route.units();
        for (int i = 0; i < units.size(); i++) {
            byDataSource.computeIfAbsent(units.get(i).dataSource(), ds -> new ArrayList<>()).add(i);
        }
    }

    /** Takes the connections, runs the units, merges and writes their answers, then keeps or returns them. */
    void run() throws InterruptedException {
        Map<String, Connection> connections = new LinkedHashMap<>();
        Map<String, HikariDataSource> pools = new LinkedHashMap<>();
        if (!connect(connections, pools)) {
            return;
        }
        runner.session().running(this::cancel);
        Result merged;
        try {
            merged = merge(units(connections));
        } finally {
            runner.session().running(null);
        }
        try {
            out.write(merged);
        } finally {
            if (merged instanceof QueryResult rows) {
                rows.close();
            }
            settle(connections, pools, merged);
        }
    }

    /**
     * A connection for every data source of the route, in the command's schema; false when one could not be had
     * (the client heard why, and those taken went back).
     */
    private boolean connect(Map<String, Connection> connections, Map<String, HikariDataSource> pools) {
        Map<String, Connection> fresh = new LinkedHashMap<>();
        String dataSource = null;
        try {
            for (String each : byDataSource.keySet()) {
                dataSource = each;
                HikariDataSource pool = runner.pool(command.database(), each);
                pools.put(each, pool);
                Connection connection = runner.kept(each);
                if (connection == null) {
                    connection = runner.borrow(pool);
                    fresh.put(each, connection);
                }
                connections.put(each, connection);
                if (!runner.useSchema(connection, command, each, out)) {
                    giveBack(fresh);
                    return false;
                }
            }
            return true;
        } catch (SQLException e) {
            giveBack(fresh);
            ErrPacket why = ErrorCode.BACKEND_UNAVAILABLE.packet(
                    DataSourceConfig.describe(command.database(), dataSource), JdbcUnits.message(e));
            out.error(why.errorCode(), why.sqlState(), why.message());
            return false;
        }
    }

    private static void giveBack(Map<String, Connection> fresh) {
        fresh.values().forEach(connection -> {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("returning a JDBC connection", e);
            }
        });
    }

    /** Every unit's answer, in route order: each data source's in turn on its connection, the data sources at once. */
    private Result[] units(Map<String, Connection> connections) throws InterruptedException {
        List<RouteUnit> units = route.units();
        Result[] results = new Result[units.size()];
        List<Runnable> groups = new ArrayList<>();
        byDataSource.forEach((dataSource, indexes) -> groups.add(() -> {
            UnitConnection lease = lease(dataSource, connections.get(dataSource));
            for (int index : indexes) {
                RouteUnit unit = units.get(index);
                results[index] = JdbcUnits.run(lease, unit.rewritten() ? unit.sql() : sql,
                        unit.rewritten() ? (unit.params().isEmpty() ? null : unit.params()) : values, options, null);
            }
        }));
        List<Thread> others = new ArrayList<>();
        for (int g = 1; g < groups.size(); g++) {
            others.add(Thread.ofVirtual().name("strata-jdbc-unit").start(groups.get(g)));
        }
        groups.get(0).run();
        for (Thread other : others) {
            other.join();
        }
        return results;
    }

    /** The answers merged as the route says, with the rule's generated key and the table's logical name. */
    private Result merge(Result[] results) {
        List<UnitAnswer> answers = new ArrayList<>(results.length);
        for (int i = 0; i < results.length; i++) {
            answers.add(new UnitAnswer(route.units().get(i).dataSource(), results[i]));
        }
        Result combined = ResultMerger.merge(answers, route);
        if (combined instanceof ErrorResult) {
            for (Result result : results) {
                if (result instanceof QueryResult rows) {
                    rows.close(); // the other units' rows: nobody reads them now
                }
            }
        }
        return combined;
    }

    /** The session follows what happened; each connection is kept (its transaction or state lives there) or goes. */
    private void settle(Map<String, Connection> connections, Map<String, HikariDataSource> pools, Result merged) {
        SqlStatementInfo info = command.info();
        SessionState session = runner.session();
        session.afterStatement(out.statusFlags(), out.lastInsertId(), out.warnings(), info, out.failed());
        session.counted(info, merged instanceof UpdateResult update ? update.affectedRows() : -1,
                merged instanceof QueryResult ? out.foundRows() : ResponseSummary.UNCHANGED);
        connections.forEach((dataSource, connection) -> {
            if (broken.contains(dataSource)) {
                runner.discard(pools.get(dataSource), dataSource, connection);
                session.lostServerState(); // a transaction or variables on that connection are gone with it
                return;
            }
            if (info != null && info.pinsSession()) {
                runner.markDirty(dataSource);
            }
            try {
                runner.keepOrReturn(dataSource, connection);
            } catch (SQLException e) {
                LOG.debug("returning a JDBC connection", e);
            }
        });
    }

    private CompletableFuture<Void> cancel() {
        return CompletableFuture.runAsync(() -> {
            for (Statement statement : running) {
                try {
                    statement.cancel();
                } catch (SQLException e) {
                    // it ended meanwhile, or its connection broke: nothing runs there to stop
                }
            }
        }, task -> Thread.ofVirtual().start(task));
    }

    /** A unit's hold on its data source's connection; answers are closed before the connection is settled. */
    private UnitConnection lease(String dataSource, Connection connection) {
        return new UnitConnection() {
            @Override
            public Connection connection() {
                return connection;
            }

            @Override
            public void opened() {
            }

            @Override
            public void done() {
            }

            @Override
            public void running(Statement statement) {
                running.add(statement);
            }

            @Override
            public void stopped(Statement statement) {
                running.remove(statement);
            }

            @Override
            public void lost() {
                broken.add(dataSource);
            }
        };
    }
}
