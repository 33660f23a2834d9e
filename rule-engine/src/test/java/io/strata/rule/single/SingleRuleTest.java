package io.strata.rule.single;

import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.RouteException;
import io.strata.rule.RuleChain;
import io.strata.rule.SessionRouteState;
import io.strata.rule.StatementContext;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SINGLE, as ShardingSphere writes it: every table of ds_1 and ds_2, and t_merchant of ds_0, found there at start; a
 * statement runs where its single tables live, new tables go to the default data source, t_dict is broadcast.
 */
class SingleRuleTest {

    private static final String RULES = """
            - type: SINGLE
              tables: [ "ds_1.*", "ds_2.*", "ds_0.t_merchant" ]
              defaultDataSource: ds_2
            - type: BROADCAST
              tables: [ t_dict ]
            """;

    private static RuleChain chain(String rules) {
        List<RuleConfig> configs = new ArrayList<>();
        for (Object rule : (List<?>) new Yaml().load(rules)) {
            Map<String, Object> props = new LinkedHashMap<>();
            ((Map<?, ?>) rule).forEach((k, v) -> props.put((String) k, v));
            configs.add(new RuleConfig((String) props.remove("type"), props));
        }
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("ds_0", "ds_1", "ds_2")) {
            dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/" + name, "app", "app",
                    Map.of()));
        }
        return RuleChain.of(new DatabaseConfig("shop", dataSources, configs), "config-shop.yaml",
                new HealthRegistry(), BuiltInRules.factories());
    }

    /** The chain with the tables found on each data source at start. */
    private static RuleChain started() {
        RuleChain chain = chain(RULES);
        SingleRule single = (SingleRule) chain.routingRules().get(0);
        assertEquals(List.of("ds_0", "ds_1", "ds_2"), single.dataSourcesToScan(List.of("ds_0", "ds_1", "ds_2")));
        single.found("ds_0", List.of("t_merchant", "t_other", "t_dict"), Set.of("t_dict"));
        single.found("ds_1", List.of("t_user", "T_Address", "t_dict"), Set.of("t_dict"));
        single.found("ds_2", List.of("t_log", "t_dict"), Set.of("t_dict"));
        return chain;
    }

    private static String where(RuleChain chain, String sql) {
        return chain.route(new StatementContext("shop", SqlClassifier.classify(sql), false, Map.of(), false,
                new SessionRouteState(), List::of)).units().stream().map(u -> u.dataSource()).toList().toString();
    }

    @Test
    void aStatementRunsWhereItsSingleTablesLive() {
        RuleChain chain = started();
        assertEquals("[ds_1]", where(chain, "SELECT * FROM t_user WHERE id = 1"));
        assertEquals("[ds_1]", where(chain, "UPDATE t_address SET city = 'x'"), "names compare without case");
        assertEquals("[ds_0]", where(chain, "SELECT * FROM t_merchant"));
        assertEquals("[ds_1]", where(chain, "SELECT * FROM t_user u JOIN t_address a ON a.user_id = u.id"));
        assertEquals("[ds_2]", where(chain, "SELECT d.name FROM t_log l JOIN t_dict d ON d.code = l.code"),
                "a broadcast table joins a single table where it lives");
        assertEquals("[ds_0]", where(chain, "SELECT * FROM t_other"), "t_other no pattern names: the default route");
        assertEquals("[ds_1]", where(chain, "DROP TABLE t_user"));
    }

    @Test
    void newTablesAreCreatedOnTheDefaultDataSourceAndFoundThere() {
        RuleChain chain = started();
        assertEquals("[ds_2]", where(chain, "CREATE TABLE t_new (id INT PRIMARY KEY)"));
        assertEquals("[ds_2]", where(chain, "INSERT INTO t_new VALUES (1)"));
        assertEquals("[ds_1]", where(chain, "CREATE TABLE IF NOT EXISTS t_user (id INT)"), "an existing table");
    }

    @Test
    void aRenamedTableIsFoundUnderItsNewNameAndADroppedOneIsForgotten() {
        RuleChain chain = started();
        assertEquals("[ds_1]", where(chain, "RENAME TABLE t_user TO t_person"), "renamed where it lives");
        assertEquals("[ds_1]", where(chain, "SELECT * FROM t_person"));
        assertEquals("[ds_1]", where(chain, "ALTER TABLE t_person RENAME TO t_people"));
        assertEquals("[ds_1]", where(chain, "SELECT * FROM T_PEOPLE"));
        assertEquals("[ds_2]", where(chain, "RENAME TABLE t_log TO t_log_old, t_new_log TO t_log"),
                "a swap on one data source");
        assertEquals("[ds_2]", where(chain, "SELECT * FROM t_log_old"));
        RouteException across = assertThrows(RouteException.class,
                () -> where(chain, "RENAME TABLE t_people TO t_a, t_log_old TO t_b"));
        assertTrue(across.getMessage().contains("different data sources"), across.getMessage());

        assertEquals("[ds_1]", where(chain, "DROP TABLE t_address"));
        assertEquals("[ds_2]", where(chain, "CREATE TABLE t_address (id INT)"), "created again, on the default");
    }

    @Test
    void singleTablesOfTwoDataSourcesAreRefused() {
        RouteException refused = assertThrows(RouteException.class, () -> where(started(),
                "SELECT * FROM t_user u JOIN t_log l ON l.user_id = u.id"));
        assertEquals(1235, refused.errorCode());
        assertTrue(refused.getMessage().contains("t_user (ds_1), t_log (ds_2) live on different data sources"),
                refused.getMessage());
    }

    @Test
    void aTableNoRulePlacesJoinsASingleTableOnlyWhereTheChainReadsIt() {
        RuleChain chain = started();
        // t_other is no pattern's: a statement naming it alone runs on ds_0, the default route
        assertEquals("[ds_0]", where(chain, "SELECT * FROM t_merchant m JOIN t_other o ON o.id = m.id"),
                "t_merchant lives on ds_0 too");
        RouteException refused = assertThrows(RouteException.class, () -> where(chain,
                "SELECT * FROM t_user u JOIN t_other o ON o.user_id = u.id"));
        assertEquals(1235, refused.errorCode());
        assertTrue(refused.getMessage().contains("single table t_user (ds_1) lives on ds_1, and t_other, which no "
                + "rule places, is read on ds_0"), refused.getMessage());
        assertThrows(RouteException.class, () -> where(chain,
                "UPDATE t_user SET name = 'x' WHERE id IN (SELECT user_id FROM t_other)"), "a subquery's table too");
        assertEquals("[ds_1]", where(chain, "SELECT u.id, d.name FROM t_user u JOIN t_dict d ON d.code = u.code"),
                "a broadcast table lives everywhere");
        assertEquals("[ds_1]", where(chain, "SELECT u.id FROM t_user u JOIN information_schema.tables t "
                + "ON t.table_name = u.name"), "another schema's table is not the database's");
        assertEquals("[ds_1]", where(chain, "WITH o AS (SELECT 1 AS id) SELECT * FROM t_user u JOIN o ON o.id = u.id"),
                "a CTE is no table");
    }

    @Test
    void aShardedTableJoinsASingleTableOnlyWhereItsShardsAreOnTheSingleTablesDataSource() {
        RuleChain chain = chain("""
                - type: SINGLE
                  tables: [ "*.*" ]
                - type: SHARDING
                  tables:
                    t_order:
                      actualDataNodes: ds_${0..1}.t_order_${0..1}
                      databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: mod } }
                      tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: inline } }
                  shardingAlgorithms:
                    mod: { type: MOD, props: { sharding-count: 2 } }
                    inline: { type: INLINE, props: { algorithm-expression: "t_order_${order_id % 2}" } }
                """);
        ((SingleRule) chain.routingRules().get(0)).found("ds_1", List.of("t_merchant", "t_order_0"),
                Set.of("t_order", "t_order_0", "t_order_1"));
        assertEquals("[ds_1, ds_1]", where(chain, "SELECT * FROM t_order o JOIN t_merchant m ON m.id = o.merchant_id "
                + "WHERE o.user_id = 1"), "user 1's shards are on ds_1, with t_merchant");
        assertEquals("[ds_1]", where(chain, "SELECT * FROM t_merchant m LEFT JOIN t_order o ON o.merchant_id = m.id "
                + "WHERE o.user_id = 1 AND o.order_id = 3"));
        for (String elsewhere : List.of("SELECT * FROM t_order o JOIN t_merchant m ON m.id = o.merchant_id",
                "SELECT * FROM t_order o JOIN t_merchant m ON m.id = o.merchant_id WHERE o.user_id = 2")) {
            RouteException refused = assertThrows(RouteException.class, () -> where(chain, elsewhere));
            assertTrue(refused.getMessage().contains("a single table on ds_1 with shards of t_order on other data "
                    + "sources"), refused.getMessage());
        }
        assertTrue(assertThrows(RouteException.class, () -> where(chain, "SELECT * FROM t_merchant m LEFT JOIN "
                + "t_order o ON o.merchant_id = m.id WHERE m.id = 1 AND (o.user_id = 1 OR o.user_id IS NULL)"))
                .getMessage().contains("keeps every row of table t_merchant m"), "each of ds_1's two shards would "
                + "add t_merchant's unmatched rows");
        assertTrue(assertThrows(RouteException.class, () -> where(chain, "UPDATE t_merchant m JOIN t_order o ON "
                + "o.merchant_id = m.id SET m.name = 'x' WHERE o.user_id = 1")).getMessage()
                .contains("changes single table t_merchant"));
    }

    @Test
    void aTableFoundOnTwoDataSourcesIsAConflict() {
        SingleRule single = (SingleRule) chain(RULES).routingRules().get(0);
        single.found("ds_1", List.of("t_twice"), Set.of());
        single.found("ds_2", List.of("T_TWICE"), Set.of());
        assertEquals(Map.of("T_TWICE", Set.of("ds_1", "ds_2")), single.conflicts());
    }

    @Test
    void mistakesStopTheStartNamingTheKey() {
        assertEquals("config-shop.yaml: rules[0].tables[0]: expected data sources or read/write groups of the file "
                + "(one of [ds_0, ds_1, ds_2]); ds_9 is none, got 'ds_9'", assertThrows(ConfigException.class, () -> chain("""
                - type: SINGLE
                  tables: [ "ds_9.*" ]
                """)).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                - type: SINGLE
                  tables: [ "*.*.*" ]
                """)).getMessage().contains("not MySQL's"));
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                - type: SINGLE
                  tables: [ "*.*" ]
                  defaultDataSource: nowhere
                """)).getMessage().contains("rules[0].defaultDataSource"));
    }
}
