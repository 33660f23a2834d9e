package io.strata.jmh;

import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.RouteResult;
import io.strata.rule.RuleChain;
import io.strata.rule.SessionRouteState;
import io.strata.rule.StatementContext;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlStatementInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Route and rewrite per statement under a SHARDING rule: sysbench's sbtest1 split by id over two data sources
 * (bench/sharding: the actual tables keep the logical name) and t_order split over two data sources and two tables
 * each (the names change, so every unit gets a text of its own).
 *
 * <ul>
 *   <li>{@code sbtest_point}: one node, the client's own text passes through (the parse is cached);</li>
 *   <li>{@code sbtest_point_ps}: the same as an execute with a parameter value;</li>
 *   <li>{@code order_point}: one node, renamed;</li>
 *   <li>{@code order_range_order_by}: four nodes, each statement planned for the merge (an uncached parse of the
 *       text with its derived columns, then a rename per node).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class ShardingRouteBenchmark {

    @Param({"sbtest_point", "sbtest_point_ps", "order_point", "order_range_order_by"})
    public String statement;

    private RuleChain chain;
    private SqlStatementInfo info;
    private List<Object> params;

    @Setup(Level.Trial)
    public void setup() {
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("ds_0", "ds_1")) {
            dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/sbtest", "sbtest",
                    "sbtest", Map.of()));
        }
        Map<String, Object> rule = Map.of(
                "tables", Map.of(
                        "sbtest1", Map.of("actualDataNodes", "ds_${0..1}.sbtest1",
                                "databaseStrategy", Map.of("standard", Map.of("shardingColumn", "id",
                                        "shardingAlgorithmName", "mod"))),
                        "t_order", Map.of("actualDataNodes", "ds_${0..1}.t_order_${0..1}",
                                "databaseStrategy", Map.of("standard", Map.of("shardingColumn", "user_id",
                                        "shardingAlgorithmName", "mod")),
                                "tableStrategy", Map.of("standard", Map.of("shardingColumn", "order_id",
                                        "shardingAlgorithmName", "order_inline")))),
                "shardingAlgorithms", Map.of(
                        "mod", Map.of("type", "MOD", "props", Map.of("sharding-count", 2)),
                        "order_inline", Map.of("type", "INLINE", "props", Map.of("algorithm-expression",
                                "t_order_${order_id % 2}", "allow-range-query-with-inline-sharding", true))));
        chain = RuleChain.of(new DatabaseConfig("sbtest", dataSources, List.of(new RuleConfig("SHARDING", rule))),
                "config-sbtest.yaml", new HealthRegistry(), BuiltInRules.factories());
        String sql = switch (statement) {
            case "sbtest_point" -> "SELECT c FROM sbtest1 WHERE id=5021";
            case "sbtest_point_ps" -> "SELECT c FROM sbtest1 WHERE id=?";
            case "order_point" -> "SELECT status FROM t_order WHERE user_id = 7 AND order_id = 5021";
            default -> "SELECT order_id, status FROM t_order WHERE order_id BETWEEN 5021 AND 5120 ORDER BY status";
        };
        info = SqlClassifier.classify(sql);
        params = statement.endsWith("_ps") ? List.of(5021L) : List.of();
        int expected = statement.equals("order_range_order_by") ? 4 : 1;
        if (route().units().size() != expected) {
            throw new IllegalStateException(statement + " should reach " + expected + " nodes");
        }
    }

    @Benchmark
    public RouteResult route() {
        return chain.route(new StatementContext("sbtest", info, false, Map.of(), false, new SessionRouteState(),
                () -> params));
    }
}
