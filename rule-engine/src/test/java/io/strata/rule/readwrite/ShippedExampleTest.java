package io.strata.rule.readwrite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.strata.config.ConfigLoader;
import io.strata.config.StrataConfig;
import io.strata.rule.RouteResult;
import io.strata.rule.RuleChain;
import io.strata.rule.StatementContext;
import io.strata.rule.broadcast.BroadcastRule;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The examples the distribution ships in conf/examples load as the README says. */
class ShippedExampleTest {

    private static final Path CONF = Path.of("..", "conf");

    @Test
    void theReadWriteSplittingExampleLoadsWithTheShippedServerSettings(@TempDir Path dir) throws IOException {
        Files.copy(CONF.resolve("server.yaml"), dir.resolve("server.yaml"));
        Files.copy(CONF.resolve("examples/config-readwrite-splitting.yaml"), dir.resolve("config-app.yaml"));

        StrataConfig config = ConfigLoader.load(dir);
        HealthRegistry health = new HealthRegistry();
        RuleChain.of(config.databases().get("app"), "config-app.yaml", health, BuiltInRules.factories());

        assertEquals(3, health.watches().size());
        assertEquals("monitor", health.watches().get(0).check().username());
        assertEquals(10, health.watches().get(1).check().maxReplicationLagSeconds());
    }

    @Test
    void theBroadcastExampleLoadsWithTheShippedServerSettings(@TempDir Path dir) throws IOException {
        Files.copy(CONF.resolve("server.yaml"), dir.resolve("server.yaml"));
        Files.copy(CONF.resolve("examples/config-broadcast.yaml"), dir.resolve("config-shop.yaml"));

        StrataConfig config = ConfigLoader.load(dir);
        RuleChain chain = RuleChain.of(config.databases().get("shop"), "config-shop.yaml", new HealthRegistry(),
                BuiltInRules.factories());

        BroadcastRule broadcast = (BroadcastRule) chain.routingRules().get(0);
        assertEquals(List.of("t_dict", "t_country"), broadcast.tables());
        assertEquals(List.of("ds_0", "ds_1"), broadcast.dataSources());
    }

    @Test
    void theShadowExampleLoadsWithTheShippedServerSettings(@TempDir Path dir) throws IOException {
        Files.copy(CONF.resolve("server.yaml"), dir.resolve("server.yaml"));
        Files.copy(CONF.resolve("examples/config-shadow.yaml"), dir.resolve("config-shop.yaml"));

        StrataConfig config = ConfigLoader.load(dir);
        RuleChain chain = RuleChain.of(config.databases().get("shop"), "config-shop.yaml", new HealthRegistry(),
                BuiltInRules.factories());

        RouteResult test = chain.route(new StatementContext("shop",
                SqlClassifier.classify("INSERT INTO t_order (order_id, user_id) VALUES (1, 0)"), false));
        assertEquals("ds_shadow", test.first().dataSource());
        RouteResult production = chain.route(new StatementContext("shop",
                SqlClassifier.classify("SELECT * FROM t_order WHERE user_id = 7"), false));
        assertEquals("ds", production.first().dataSource());
    }
}
