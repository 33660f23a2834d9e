package io.strata.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class RuleChainTest {

    private static final String FILE = "conf/config-sbtest.yaml";

    @TempDir
    Path pluginDir;

    private static DatabaseConfig database(List<RuleConfig> rules) {
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        dataSources.put("ds_0", DataSourceConfig.of("ds_0", "jdbc:mariadb://127.0.0.1:3306/sbtest_0", "sbtest",
                "sbtest", Map.of()));
        dataSources.put("ds_1", DataSourceConfig.of("ds_1", "jdbc:mariadb://127.0.0.1:3306/sbtest_1", "sbtest",
                "sbtest", Map.of()));
        return new DatabaseConfig("sbtest", dataSources, rules);
    }

    private static StatementContext statement(String sql) {
        return new StatementContext("sbtest", SqlClassifier.classify(sql), false);
    }

    /** A plugin rule: sends every statement to the data source named in its {@code to} property. */
    public static final class RedirectRuleFactory implements RuleFactory {

        public RedirectRuleFactory() {
        }

        @Override
        public String type() {
            return "REDIRECT";
        }

        @Override
        public Rule create(DatabaseConfig database, RuleConfig config, String file, String path,
                           HealthRegistry health) {
            String target = (String) config.props().get("to");
            return (RoutingRule) (context, routed) -> RouteResult.single(target);
        }
    }

    /** Runs {@code action} with {@link RedirectRuleFactory} on the class path as a ServiceLoader plugin. */
    private <T> T withRedirectPlugin(Supplier<T> action) throws IOException {
        Path services = pluginDir.resolve("META-INF/services/" + RuleFactory.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, RedirectRuleFactory.class.getName() + "\n");
        Thread thread = Thread.currentThread();
        ClassLoader original = thread.getContextClassLoader();
        try (var plugins = new URLClassLoader(new URL[]{pluginDir.toUri().toURL()}, getClass().getClassLoader())) {
            thread.setContextClassLoader(plugins);
            return action.get();
        } finally {
            thread.setContextClassLoader(original);
        }
    }

    @Test
    void anEmptyChainRoutesEverythingToTheDefaultDataSource() {
        RuleChain chain = RuleChain.of(database(List.of()), FILE, new HealthRegistry(), BuiltInRules.factories());

        assertTrue(chain.isEmpty());
        for (String sql : List.of("select 1", "update t set a = 1", "begin", "")) {
            RouteResult route = chain.route(statement(sql));
            assertTrue(route.isSingle(), sql);
            assertEquals(new RouteUnit("ds_0"), route.first(), sql);
            assertTrue(route.passThrough(), sql);
        }
    }

    @Test
    void anUnknownRuleTypeFailsNamingTheFileTheKeyAndTheKnownTypes() throws IOException {
        var rules = List.of(new RuleConfig("ENCRYPT", Map.of()));

        var error = withRedirectPlugin(() -> assertThrows(ConfigException.class,
                () -> RuleChain.of(database(rules), FILE, new HealthRegistry(), BuiltInRules.factories())));

        assertEquals(FILE, error.file());
        assertEquals("rules[0].type", error.key());
        assertEquals(FILE + ": rules[0].type: expected one of [BROADCAST, QUERY_ROUTING, READWRITE_SPLITTING, REDIRECT, SHADOW, SHARDING, SINGLE], got 'ENCRYPT'",
                error.getMessage());
    }

    @Test
    void anUnknownRuleTypeFailsWithoutPlugins() {
        var rules = List.of(new RuleConfig("ENCRYPT", Map.of()));

        var error = assertThrows(ConfigException.class, () -> RuleChain.of(database(rules), FILE, new HealthRegistry(), BuiltInRules.factories()));

        assertEquals(FILE, error.file());
        assertEquals("rules[0].type", error.key());
        assertTrue(error.getMessage().startsWith(FILE + ": rules[0].type: expected one of ["), error::getMessage);
        assertTrue(error.getMessage().endsWith("got 'ENCRYPT'"), error::getMessage);
    }

    @Test
    void theKeyNamesTheIndexOfTheUnknownRule() throws IOException {
        var rules = List.of(new RuleConfig("REDIRECT", Map.of("to", "ds_1")), new RuleConfig("ENCRYPT", Map.of()));

        var error = withRedirectPlugin(() -> assertThrows(ConfigException.class,
                () -> RuleChain.of(database(rules), FILE, new HealthRegistry(), BuiltInRules.factories())));

        assertEquals("rules[1].type", error.key());
    }

    /** Sends a unit routed to "pair" to "left", or to "right" for a statement with a strata:right hint. */
    private static final DecoratingRule PAIR = new DecoratingRule() {
        @Override
        public Placement place(String dataSource, StatementContext context) {
            if (!dataSource.equals("pair")) {
                return null;
            }
            return new Placement("right".equals(context.statement().hint()) ? "right" : "left", true);
        }

        @Override
        public Set<String> sameData(String dataSource) {
            return dataSource.equals("pair") ? Set.of("pair", "left", "right") : Set.of();
        }
    };

    /** Fans every statement out to "pair" and "ds_1". */
    private static final RoutingRule FAN_OUT = (context, routed) -> new RouteResult(
            List.of(new RouteUnit("pair"), new RouteUnit("ds_1", "SELECT 2", List.of())), ResultMerge.ONE_COPY,
            false);

    @Test
    void decoratingRulesPlaceEachUnitOfARoutingRulesRoute() {
        RuleChain chain = new RuleChain("ds_0", List.of(PAIR, FAN_OUT));

        RouteResult route = chain.route(statement("select 1"));

        assertEquals(List.of(new RouteUnit("left"), new RouteUnit("ds_1", "SELECT 2", List.of())), route.units());
        assertEquals(ResultMerge.ONE_COPY, route.merge());
        assertFalse(route.passThrough());
        assertFalse(route.retryable(), "a placement's retry applies to a single unit only");
    }

    @Test
    void aSessionHoldingStateAmongTheSameDataStaysThereWhateverTheRuleSays() {
        RuleChain chain = new RuleChain("pair", List.of(PAIR));
        var hinted = SqlClassifier.classify("/* strata:right */ select 1");

        assertEquals(RouteResult.read("right"), chain.route(new StatementContext("sbtest", hinted, false)));
        RouteResult held = chain.route(new StatementContext("sbtest", hinted, false,
                Map.of("left", StatementContext.Hold.STATE), false, new SessionRouteState()));
        assertEquals(RouteResult.single("left"), held, "the session's state is on left: it stays, and cannot retry");
        RouteResult write = chain.route(new StatementContext("sbtest", SqlClassifier.classify(
                "/* strata:right */ insert into t values (1)"), false, Map.of("left", StatementContext.Hold.WARNINGS),
                false, new SessionRouteState()));
        assertEquals("right", write.first().dataSource(), "warnings alone hold reads only");
    }

    @Test
    void aPluginRuleFoundOnTheClassPathChangesTheRoute() throws IOException {
        var rules = List.of(new RuleConfig("REDIRECT", Map.of("to", "ds_1")));

        RuleChain chain = withRedirectPlugin(() -> RuleChain.of(database(rules), FILE, new HealthRegistry(), BuiltInRules.factories()));

        assertFalse(chain.isEmpty());
        assertEquals(RouteResult.single("ds_1"), chain.route(statement("select 1")));
    }
}
