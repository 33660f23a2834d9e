package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.RouteResult;
import io.strata.rule.RuleChain;
import io.strata.rule.StatementContext;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The rule engine's fast path, run once for every COM_QUERY before it is routed: {@link SqlClassifier#classify}
 * lexes the statement text (kind, multi-statement, session pinning) and {@link RuleChain#route} applies the rules;
 * the empty chain is the pass-through proxy. Both run on the client's event loop, so their cost is added to every
 * statement's latency.
 *
 * <ul>
 *   <li>{@code classify}: the statements of sysbench's oltp_read_write as text with literals, as sysbench sends
 *       them with {@code --db-ps-mode=disable} (how the README runs it against Strata);</li>
 *   <li>{@code decode}: the statement's text made a String from its COM_QUERY payload in a direct buffer, as
 *       {@code CommandHandler.query} does before classifying (the price of a classifier reading Strings instead of
 *       the packet's bytes);</li>
 *   <li>{@code route}: the empty chain, with the {@link StatementContext} the command handler builds per statement;</li>
 *   <li>{@code routeShadow}: a SHADOW rule over other tables than the statement's (bench/rules/shadow.yaml): what the
 *       rule costs the statements it leaves alone (a hint check and a scan of the classifier's tokens).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ClassifierBenchmark {

    static final Map<String, String> STATEMENTS = Map.of(
            "point_select", "SELECT c FROM sbtest1 WHERE id=5021",
            "range_select", "SELECT c FROM sbtest1 WHERE id BETWEEN 5021 AND 5120",
            "distinct_range", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5021 AND 5120 ORDER BY c",
            "update_index", "UPDATE sbtest1 SET k=k+1 WHERE id=5021",
            "update_non_index", "UPDATE sbtest1 SET c='" + Wire.C + "' WHERE id=5021",
            "insert", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5021, 4993, '" + Wire.C + "', '" + Wire.PAD
                    + "')",
            "begin", "BEGIN",
            "commit", "COMMIT");

    @State(Scope.Thread)
    public static class Statement {
        @Param({"point_select", "range_select", "distinct_range", "update_index", "update_non_index", "insert",
                "begin", "commit"})
        String statement;
        String sql;

        @Setup(Level.Trial)
        public void setup() {
            sql = STATEMENTS.get(statement);
            if (SqlClassifier.classify(sql).pinsSession()) {
                throw new IllegalStateException("a sysbench statement must not pin the session: " + sql);
            }
        }
    }

    /** The statement as a client's COM_QUERY payload (command byte, then the text), in a direct buffer. */
    @State(Scope.Thread)
    public static class Payload {
        @Param({"point_select", "insert"})
        String statement;
        ByteBuf payload;

        @Setup(Level.Trial)
        public void setup() {
            byte[] text = STATEMENTS.get(statement).getBytes(StandardCharsets.UTF_8);
            payload = Unpooled.directBuffer(text.length + 1).writeByte(0x03).writeBytes(text);
        }

        @TearDown(Level.Trial)
        public void release() {
            payload.release();
        }
    }

    @State(Scope.Thread)
    public static class EmptyChain {
        RuleChain chain;
        SqlStatementInfo info;

        @Setup(Level.Trial)
        public void setup() {
            chain = new RuleChain("ds0", List.of());
            info = SqlClassifier.classify(STATEMENTS.get("point_select"));
            if (info.kind() != SqlKind.SELECT) {
                throw new IllegalStateException("unexpected " + info);
            }
        }
    }

    @State(Scope.Thread)
    public static class ShadowChain {
        RuleChain chain;
        SqlStatementInfo info;

        @Setup(Level.Trial)
        public void setup() {
            Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
            for (String name : List.of("ds_0", "ds_shadow")) {
                dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/sbtest", "sbtest",
                        "sbtest", Map.of()));
            }
            Map<String, Object> rule = Map.of(
                    "dataSources", Map.of("shadow_group", Map.of("productionDataSourceName", "ds_0",
                            "shadowDataSourceName", "ds_shadow")),
                    "tables", Map.of("t_order", Map.of("dataSourceNames", List.of("shadow_group"),
                            "shadowAlgorithmNames", List.of("user_id_insert_match"))),
                    "shadowAlgorithms", Map.of("user_id_insert_match", Map.of("type", "VALUE_MATCH", "props",
                            Map.of("operation", "insert", "column", "user_id", "value", 0))));
            chain = RuleChain.of(new DatabaseConfig("sbtest", dataSources, List.of(new RuleConfig("SHADOW", rule))),
                    "config-sbtest.yaml", new HealthRegistry(), BuiltInRules.factories());
            info = SqlClassifier.classify(STATEMENTS.get("point_select"));
            if (!chain.route(new StatementContext("sbtest", info, false)).first().dataSource().equals("ds_0")) {
                throw new IllegalStateException("the statement should stay in production");
            }
        }
    }

    @Benchmark
    public SqlStatementInfo classify(Statement s) {
        return SqlClassifier.classify(s.sql);
    }

    @Benchmark
    public String decode(Payload p) {
        ByteBuf payload = p.payload;
        return payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, StandardCharsets.UTF_8);
    }

    @Benchmark
    public RouteResult route(EmptyChain s) {
        return s.chain.route(new StatementContext("sbtest", s.info, false));
    }

    @Benchmark
    public RouteResult routeShadow(ShadowChain s) {
        return s.chain.route(new StatementContext("sbtest", s.info, false));
    }
}
