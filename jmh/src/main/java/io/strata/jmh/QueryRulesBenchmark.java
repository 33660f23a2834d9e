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
import io.strata.rule.sql.DigestText;
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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A QUERY_ROUTING rule of 100 rules on sysbench's point select, none of which matches (every rule is tried): the
 * cost of query rules per statement, by the kind of matcher the rules use.
 *
 * <ul>
 *   <li>{@code user}: 100 user matchers (a string comparison each);</li>
 *   <li>{@code pattern}: 100 regexes on the statement's text;</li>
 *   <li>{@code digest}: 100 exact digests (the digest text made once per statement, then compared);</li>
 *   <li>{@code digestPattern}: 100 regexes on the digest text.</li>
 * </ul>
 * {@code digestText} is the normalisation alone, which digests (SHOW STRATA DIGESTS) pay per statement.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class QueryRulesBenchmark {

    private static final String POINT = "SELECT c FROM sbtest1 WHERE id=5012";

    @Param({"user", "pattern", "digest", "digestPattern"})
    public String matcher;

    private RuleChain chain;
    /** Distinct statement objects of one text, as text COM_QUERYs are: no digest is reused from the last one. */
    private final SqlStatementInfo[] infos = new SqlStatementInfo[1024];
    private int next;
    private SessionRouteState session;

    @Setup(Level.Trial)
    public void setup() {
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("ds_0", "ds_1")) {
            dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/sbtest", "sbtest",
                    "sbtest", Map.of()));
        }
        List<Map<String, Object>> rules = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String value = switch (matcher) {
                case "user" -> "user_" + i;
                case "pattern" -> "(?i)^select c from sbtest" + (i + 2) + " where";
                case "digest" -> "SELECT `c` FROM `sbtest" + (i + 2) + "` WHERE `id` = ?";
                default -> "^SELECT .* FROM `sbtest" + (i + 2) + "`";
            };
            rules.add(Map.of("name", "r" + i, matcher, value, "dataSource", "ds_1"));
        }
        chain = RuleChain.of(new DatabaseConfig("sbtest", dataSources, List.of(new RuleConfig("QUERY_ROUTING",
                Map.of("rules", rules)))), "config-sbtest.yaml", new HealthRegistry(), BuiltInRules.factories());
        session = new SessionRouteState();
        session.login("sbtest", "127.0.0.1");
        for (int i = 0; i < infos.length; i++) {
            infos[i] = SqlClassifier.classify(POINT);
        }
    }

    @Benchmark
    public RouteResult route() {
        SqlStatementInfo info = infos[next++ & (infos.length - 1)];
        return chain.route(new StatementContext("sbtest", info, false, Map.of(), false, session));
    }

    @Benchmark
    public String digestText() {
        return DigestText.of(POINT);
    }
}
