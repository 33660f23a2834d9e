package io.strata.rule.broadcast;

import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.ResultMerge;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RuleChain;
import io.strata.rule.StatementContext;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BroadcastRuleTest {

    private static final String FILE = "config-shop.yaml";
    private final HealthRegistry health = new HealthRegistry();

    private static DatabaseConfig database(List<String> dataSources, List<RuleConfig> rules) {
        Map<String, DataSourceConfig> all = new LinkedHashMap<>();
        for (String name : dataSources) {
            all.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/shop", "app", "app", Map.of()));
        }
        return new DatabaseConfig("shop", all, rules);
    }

    private static RuleConfig broadcast(Object tables) {
        return new RuleConfig("BROADCAST", Map.of("tables", tables));
    }

    private RuleChain chain() {
        return RuleChain.of(database(List.of("ds_0", "ds_1"), List.of(broadcast(List.of("t_dict", "t_country")))),
                FILE, health, BuiltInRules.factories());
    }

    private static RouteResult route(RuleChain chain, String sql) {
        return chain.route(new StatementContext("shop", SqlClassifier.classify(sql), false));
    }

    private static final List<RouteUnit> EVERYWHERE = List.of(new RouteUnit("ds_0"), new RouteUnit("ds_1"));

    @ParameterizedTest
    @ValueSource(strings = {"INSERT INTO t_dict VALUES (1, 'a')", "insert into `T_DICT` set id = 1",
        "REPLACE INTO t_dict VALUES (1, 'a')", "INSERT IGNORE INTO t_dict VALUES (1, 'a') ON DUPLICATE KEY UPDATE v = 1",
        "UPDATE t_dict SET v = 'b' WHERE id = 1", "DELETE FROM shop.t_dict WHERE id = 1",
        "CREATE TABLE t_dict (id INT PRIMARY KEY)", "ALTER TABLE t_dict ADD COLUMN c INT", "DROP TABLE t_dict",
        "TRUNCATE TABLE t_country", "CREATE INDEX i ON t_dict (v)", "DROP INDEX i ON t_dict",
        "LOAD DATA INFILE '/tmp/dict.csv' INTO TABLE t_dict"})
    void aChangeOfABroadcastTableRunsOnEveryDataSourceAnsweredByOneCopy(String sql) {
        RouteResult route = route(chain(), sql);

        assertEquals(EVERYWHERE, route.units(), sql);
        assertEquals(ResultMerge.ONE_COPY, route.merge());
        assertFalse(route.retryable(), "a change never goes elsewhere");
    }

    @Test
    void readsGoRoundRobinToOneDataSourceAndMayGoElsewhere() {
        RuleChain chain = chain();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RouteResult route = route(chain, "SELECT name FROM t_country WHERE code = 'NZ'");
            assertTrue(route.isSingle() && route.retryable());
            order.add(route.first().dataSource());
        }
        assertEquals(List.of("ds_0", "ds_1", "ds_0", "ds_1"), order);

        health.status("shop", "ds_0").down("unreachable", null);
        assertEquals("ds_1", route(chain, "SELECT * FROM t_dict").first().dataSource());
        assertEquals("ds_1", route(chain, "SELECT * FROM t_dict").first().dataSource(), "ds_0 is out of rotation");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT * FROM t_dict d JOIN orders o ON o.dict = d.id",
        "SELECT * FROM orders WHERE dict IN (SELECT id FROM t_dict)", "SELECT * FROM t_dict FOR UPDATE",
        "INSERT INTO orders SELECT * FROM t_dict", "SELECT * FROM orders", "SELECT 't_dict'",
        "UPDATE orders o JOIN t_dict d ON o.dict = d.id SET o.v = d.v"})
    void statementsOfATableOfOneDataSourceStayWhereItIs(String sql) {
        assertEquals(RouteResult.single("ds_0"), route(chain(), sql), sql);
    }

    @Test
    void insideATransactionReadsStayWithTheSessionsDefault() {
        RouteResult route = chain().route(new StatementContext("shop", SqlClassifier.classify(
                "SELECT * FROM t_dict"), true));

        assertEquals(RouteResult.single("ds_0"), route);
    }

    @ParameterizedTest
    @ValueSource(strings = {"INSERT INTO t_dict SELECT * FROM orders", "DELETE d FROM t_dict d JOIN orders o ON o.id = d.id",
        "DROP TABLE t_dict, orders", "SELECT 1; INSERT INTO t_dict VALUES (1)",
        "LOAD DATA LOCAL INFILE 'dict.csv' INTO TABLE t_dict", "INSERT INTO t_dict VALUES (1, 'a'"})
    void whatCannotRunOnEveryCopyAsOneIsRefusedSayingWhy(String sql) {
        RouteException refused = assertThrows(RouteException.class, () -> route(chain(), sql));

        assertEquals(1235, refused.errorCode());
        assertFalse(refused.getMessage().isBlank());
    }

    @Test
    void aBulkInsertTooLongToParseStillGoesEverywhere() {
        StringBuilder sql = new StringBuilder("INSERT INTO t_dict (id, v) VALUES (0, 'v')");
        for (int i = 1; i < 3000; i++) {
            sql.append(", (").append(i).append(", 'value number ").append(i).append("')");
        }

        assertEquals(EVERYWHERE, route(chain(), sql.toString()).units());
    }

    @Test
    void aReadWriteGroupCountsAsOneDataSourceAndPlacesItsUnit() {
        Map<String, Object> group = Map.of("name", "rw", "writeDataSource", "primary", "readDataSources",
                List.of("replica"));
        RuleChain chain = RuleChain.of(database(List.of("primary", "replica", "ds_1"), List.of(
                        broadcast(List.of("t_dict")),
                        new RuleConfig("READWRITE_SPLITTING", Map.of("groups", List.of(group))))),
                FILE, health, BuiltInRules.factories());

        assertEquals(List.of(new RouteUnit("primary"), new RouteUnit("ds_1")),
                route(chain, "UPDATE t_dict SET v = 1").units(), "the group's primary takes the group's copy");
        List<String> reads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            reads.add(route(chain, "SELECT * FROM t_dict").first().dataSource());
        }
        assertEquals(List.of("replica", "ds_1", "replica", "ds_1"), reads, "the group's reads go to its replica");
    }

    @Test
    void badSettingsStopTheStartNamingTheKey() {
        assertEquals("rules[0].tables", configError(Map.of("tables", List.of())).key());
        assertEquals("rules[0].tables[1]", configError(Map.of("tables", List.of("a", "A"))).key());
        assertEquals("rules[0].tables[0]", configError(Map.of("tables", List.of("db.a"))).key());
        assertEquals("rules[0].table", configError(Map.of("table", List.of("a"))).key());
    }

    private ConfigException configError(Map<String, Object> props) {
        return assertThrows(ConfigException.class, () -> RuleChain.of(database(List.of("ds_0"),
                List.of(new RuleConfig("BROADCAST", props))), FILE, health, BuiltInRules.factories()));
    }
}
