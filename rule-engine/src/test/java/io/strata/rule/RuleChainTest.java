package io.strata.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
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
            return (context, routed) -> RouteResult.single(target);
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
        RuleChain chain = RuleChain.of(database(List.of()), FILE);

        assertTrue(chain.isEmpty());
        for (String sql : List.of("select 1", "update t set a = 1", "begin", "")) {
            RouteResult route = chain.route(statement(sql));
            assertTrue(route.isSingle(), sql);
            assertEquals(new RouteUnit("ds_0"), route.first(), sql);
        }
    }

    @Test
    void anUnknownRuleTypeFailsNamingTheFileTheKeyAndTheKnownTypes() throws IOException {
        var rules = List.of(new RuleConfig("SHARDING", Map.of()));

        var error = withRedirectPlugin(() -> assertThrows(ConfigException.class,
                () -> RuleChain.of(database(rules), FILE)));

        assertEquals(FILE, error.file());
        assertEquals("rules[0].type", error.key());
        assertEquals(FILE + ": rules[0].type: expected one of [READWRITE_SPLITTING, REDIRECT], got 'SHARDING'",
                error.getMessage());
    }

    @Test
    void anUnknownRuleTypeFailsWithoutPlugins() {
        var rules = List.of(new RuleConfig("ENCRYPT", Map.of()));

        var error = assertThrows(ConfigException.class, () -> RuleChain.of(database(rules), FILE));

        assertEquals(FILE, error.file());
        assertEquals("rules[0].type", error.key());
        assertTrue(error.getMessage().startsWith(FILE + ": rules[0].type: expected one of ["), error::getMessage);
        assertTrue(error.getMessage().endsWith("got 'ENCRYPT'"), error::getMessage);
    }

    @Test
    void theKeyNamesTheIndexOfTheUnknownRule() throws IOException {
        var rules = List.of(new RuleConfig("REDIRECT", Map.of("to", "ds_1")), new RuleConfig("SHADOW", Map.of()));

        var error = withRedirectPlugin(() -> assertThrows(ConfigException.class,
                () -> RuleChain.of(database(rules), FILE)));

        assertEquals("rules[1].type", error.key());
    }

    @Test
    void aPluginRuleFoundOnTheClassPathChangesTheRoute() throws IOException {
        var rules = List.of(new RuleConfig("REDIRECT", Map.of("to", "ds_1")));

        RuleChain chain = withRedirectPlugin(() -> RuleChain.of(database(rules), FILE));

        assertFalse(chain.isEmpty());
        assertEquals(RouteResult.single("ds_1"), chain.route(statement("select 1")));
    }
}
