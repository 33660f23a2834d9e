package io.strata.rule.shadow;

import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RuleChain;
import io.strata.rule.SessionRouteState;
import io.strata.rule.StatementContext;
import io.strata.rule.StatementContext.Hold;
import io.strata.rule.builtin.BuiltInRules;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShadowRuleTest {

    private static final String FILE = "config-shop.yaml";

    /** The example, as a user writes it. */
    private static final String RULE = """
            type: SHADOW
            dataSources:
              shadow_group: { productionDataSourceName: ds, shadowDataSourceName: ds_shadow }
            tables:
              t_order: { dataSourceNames: [shadow_group], shadowAlgorithmNames: [user_id_insert_match, user_id_select_match] }
              t_user:  { dataSourceNames: [shadow_group], shadowAlgorithmNames: [tester_regex] }
              t_audit: { dataSourceNames: [shadow_group] }
            defaultShadowAlgorithmName: sql_hint
            shadowAlgorithms:
              user_id_insert_match: { type: VALUE_MATCH, props: { operation: insert, column: user_id, value: 0 } }
              user_id_select_match: { type: VALUE_MATCH, props: { operation: select, column: user_id, value: 0 } }
              tester_regex: { type: REGEX_MATCH, props: { operation: update, column: name, regex: "^tester_.*" } }
              sql_hint: { type: SQL_HINT }
            """;

    private static RuleConfig rule(String yaml) {
        Map<String, Object> props = new LinkedHashMap<>(new Yaml().<Map<String, Object>>load(yaml));
        return new RuleConfig((String) props.remove("type"), props);
    }

    private static DatabaseConfig database(List<String> dataSources, List<RuleConfig> rules) {
        Map<String, DataSourceConfig> all = new LinkedHashMap<>();
        for (String name : dataSources) {
            all.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/shop", "app", "app", Map.of()));
        }
        return new DatabaseConfig("shop", all, rules);
    }

    private static RuleChain chain(List<String> dataSources, String... rules) {
        return RuleChain.of(database(dataSources, Arrays.stream(rules).map(ShadowRuleTest::rule).toList()), FILE,
                new HealthRegistry(), BuiltInRules.factories());
    }

    private static final RuleChain CHAIN = chain(List.of("ds", "ds_shadow"), RULE);

    private static RouteResult route(String sql, Object... params) {
        return CHAIN.route(context(sql, params));
    }

    private static StatementContext context(String sql, Object... params) {
        return new StatementContext("shop", SqlClassifier.classify(sql), false, Map.of(), false,
                new SessionRouteState(), () -> Arrays.asList(params));
    }

    private static String where(String sql, Object... params) {
        return route(sql, params).first().dataSource();
    }

    private static RouteException refused(String sql, Object... params) {
        return assertThrows(RouteException.class, () -> route(sql, params), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"INSERT INTO t_order (order_id, user_id) VALUES (1, 0)",
        "INSERT INTO t_order (user_id, order_id) VALUES (0, 1), (0, 2), ('0', 3)",
        "insert into `T_ORDER` set order_id = 1, user_id = 0", "REPLACE INTO t_order (order_id, user_id) VALUES (1, 0)",
        "INSERT INTO shop.t_order (order_id, user_id) VALUES (1, 0) ON DUPLICATE KEY UPDATE status = 'x'",
        "SELECT * FROM t_order WHERE user_id = 0", "SELECT * FROM t_order WHERE 0 = user_id AND status = 'new'",
        "SELECT * FROM t_order o WHERE o.user_id IN (0, 0) ORDER BY order_id", "SELECT * FROM t_order WHERE user_id LIKE '0'",
        "SELECT COUNT(*) FROM t_order WHERE (user_id = 0 OR user_id = 0)",
        "UPDATE t_user SET age = 3 WHERE name = 'tester_ann'", "UPDATE t_user SET age = 3 WHERE name IN ('tester_a', 'tester_b')"})
    void testTrafficGoesToTheShadowDataSource(String sql) {
        assertEquals("ds_shadow", where(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"INSERT INTO t_order (order_id, user_id) VALUES (1, 7)",
        "INSERT INTO t_order (order_id, user_id) VALUES (1, 7), (2, 8)", "SELECT * FROM t_order WHERE user_id = 7",
        "SELECT * FROM t_order WHERE user_id IN (7, 8)", "SELECT * FROM t_order WHERE user_id LIKE '1%'",
        "UPDATE t_user SET age = 3 WHERE name = 'ann'", "UPDATE t_user SET age = 3 WHERE name = 'a_tester_x'",
        // what the algorithms do not look at is production's
        "SELECT * FROM t_order", "SELECT * FROM t_order WHERE order_id = 1", "SELECT * FROM t_order WHERE user_id > 0",
        "UPDATE t_order SET status = 'x' WHERE user_id = 0", "DELETE FROM t_order WHERE user_id = 0",
        "SELECT * FROM t_user WHERE name = 'tester_ann'", "INSERT INTO t_audit (user_id) VALUES (0)",
        "CREATE TABLE t_order (order_id INT, user_id INT)", "ALTER TABLE t_user ADD COLUMN c INT",
        // tables the rule does not list are not even parsed
        "SELECT * FROM t_item WHERE user_id = 0", "INSERT INTO t_item (user_id) VALUES (0)", "SELECT 1"})
    void everythingElseGoesToProduction(String sql) {
        assertEquals("ds", where(sql), sql);
    }

    @Test
    void theRouteSaysWhichAlgorithmDecided() {
        assertEquals(List.of("shadow: user_id_insert_match"),
                route("INSERT INTO t_order (order_id, user_id) VALUES (1, 0)").notes());
        assertEquals(List.of("production: user_id_select_match"),
                route("SELECT * FROM t_order WHERE user_id = 5").notes());
        assertEquals(List.of("shadow: hint"), route("/* strata:shadow */ SELECT 1").notes());
    }

    @Test
    void preparedStatementParametersDecideAsLiteralsDo() {
        String insert = "INSERT INTO t_order (order_id, user_id) VALUES (?, ?)";
        assertEquals("ds_shadow", where(insert, 1L, 0));
        assertEquals("ds", where(insert, 1L, 7));
        assertEquals("ds_shadow", where("SELECT * FROM t_order WHERE user_id = ? AND status = ?", "0", "new"));
        assertEquals("ds_shadow", where("UPDATE t_user SET age = ? WHERE name = ?", 3, "tester_1".getBytes()));
        assertEquals("ds", where("UPDATE t_user SET age = ? WHERE name = ?", 3, "ann"));
        assertEquals("ds_shadow", where("SELECT * FROM t_order WHERE user_id = ?", 0.0));
    }

    @Test
    void aPrepareIsAnsweredByProductionAndEachExecuteDecides() {
        String insert = "INSERT INTO t_order (order_id, user_id) VALUES (?, ?)";
        assertEquals("ds", where(insert), "prepared: no values yet");
        assertEquals("ds_shadow", where("/* strata:shadow */ " + insert));
        assertEquals("ds_shadow", where(insert, 1, 0));
    }

    @Test
    void aStatementHalfTestHalfProductionIsRefusedNotGuessed() {
        assertTrue(refused("INSERT INTO t_order (order_id, user_id) VALUES (1, 0), (2, 7)").getMessage()
                .contains("Some values of user_id match user_id_insert_match and some do not"));
        refused("SELECT * FROM t_order WHERE user_id IN (0, 7)");
        refused("UPDATE t_user SET age = 1 WHERE name IN ('tester_a', 'bob')");
        refused("INSERT INTO t_order (order_id, user_id) VALUES (?, ?), (?, ?)", 1, 0, 2, 7);
        RouteException error = refused("SELECT * FROM t_order WHERE user_id IN (?, ?)", 0, 7);
        assertEquals(1235, error.errorCode());
        assertEquals("42000", error.sqlState());
    }

    @Test
    void aValueStrataCannotReadIsRefused() {
        assertTrue(refused("INSERT INTO t_order (order_id, user_id) VALUES (1, 1 - 1)").getMessage()
                .contains("an expression Strata does not evaluate (1 - 1)"));
        refused("SELECT * FROM t_order WHERE user_id = ABS(0)");
        assertTrue(refused("INSERT INTO t_order VALUES (1, 0)").getMessage().contains("must name its columns"));
        refused("INSERT INTO t_order (order_id, user_id) SELECT order_id, user_id FROM t_staging");
        assertTrue(refused("SELECT * FROM t_order WHERE user_id = 0 OR status = 'x'").getMessage()
                .contains("one of several alternatives"));
        refused("SELECT * FROM t_order WHERE user_id = 0; SELECT 1");
        refused("SELECT * FROM t_order WHERE user_id = 0 AND"); // cannot be parsed
    }

    @ParameterizedTest
    @ValueSource(strings = {"/* strata:shadow */ SELECT * FROM t_order WHERE user_id = 7",
        "/*strata:shadow*/INSERT INTO t_item (id) VALUES (1)", "  /* SHARDINGSPHERE_HINT: SHADOW=true */ SELECT 1",
        "/* shardingsphere_hint: foo=bar, shadow=TRUE */ DELETE FROM t_user",
        "/* strata:shadow */ CREATE TABLE t_order (id INT)", "/* strata:shadow */ INSERT INTO t_order (order_id, user_id) VALUES (1, 0), (2, 7)"})
    void aHintSendsAnyStatementToTheShadowSideAndWinsOverTheValues(String sql) {
        assertEquals("ds_shadow", where(sql), sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/* strata:shadow=false */ SELECT 1", "/* SHARDINGSPHERE_HINT: SHADOW=false */ SELECT 1",
        "/* shadow */ SELECT 1", "SELECT 1 /* strata:shadow */", "/*!50000 strata:shadow */ SELECT 1"})
    void onlyAHintAtTheStartSaysShadow(String sql) {
        assertEquals("ds", where(sql), sql);
    }

    @Test
    void eachStatementOfATransactionKeepsItsOwnDecision() {
        StatementContext inTransaction = new StatementContext("shop",
                SqlClassifier.classify("INSERT INTO t_order (order_id, user_id) VALUES (1, 0)"), true,
                Map.of("ds", Hold.STATE), false, new SessionRouteState());
        assertEquals("ds_shadow", CHAIN.route(inTransaction).first().dataSource());
    }

    @Test
    void aReadWriteGroupOnTheShadowSideSplitsTheShadowTraffic() {
        RuleChain chain = chain(List.of("ds", "shadow_primary", "shadow_replica"), """
                type: READWRITE_SPLITTING
                groups:
                  - { name: shadow_rw, writeDataSource: shadow_primary, readDataSources: [shadow_replica] }
                """, RULE.replace("shadowDataSourceName: ds_shadow", "shadowDataSourceName: shadow_rw"));

        assertEquals("shadow_primary", chain.route(context("INSERT INTO t_order (order_id, user_id) VALUES (1, 0)"))
                .first().dataSource());
        assertEquals("shadow_replica", chain.route(context("SELECT * FROM t_order WHERE user_id = 0"))
                .first().dataSource());
        assertEquals("ds", chain.route(context("SELECT * FROM t_order WHERE user_id = 3")).first().dataSource());
    }

    @Test
    void aReadWriteGroupOnTheProductionSideIsNamedByItsGroup() {
        RuleChain chain = chain(List.of("ds_primary", "ds_replica", "ds_shadow"), """
                type: READWRITE_SPLITTING
                groups:
                  - { name: ds, writeDataSource: ds_primary, readDataSources: [ds_replica] }
                """, RULE);

        assertEquals("ds_replica", chain.route(context("SELECT * FROM t_order WHERE user_id = 3")).first()
                .dataSource());
        assertEquals("ds_primary", chain.route(context("UPDATE t_item SET a = 1")).first().dataSource());
        assertEquals("ds_shadow", chain.route(context("SELECT * FROM t_order WHERE user_id = 0")).first()
                .dataSource());
    }

    @Test
    void eachConfigurationMistakeStopsTheStartNamingKeyAndExpectation() {
        List<String[]> mistakes = new ArrayList<>();
        mistakes.add(new String[]{RULE.replace("[tester_regex]", "[tester_regexp]"),
            "tables.t_user.shadowAlgorithmNames[0]", "one of shadowAlgorithms"});
        mistakes.add(new String[]{RULE.replace("defaultShadowAlgorithmName: sql_hint",
            "defaultShadowAlgorithmName: tester_regex"), "defaultShadowAlgorithmName",
            "the name of a SQL_HINT algorithm"});
        mistakes.add(new String[]{RULE.replace("shadowDataSourceName: ds_shadow", "shadowDataSourceName: ds_test"),
            "dataSources.shadow_group.shadowDataSourceName", "a data source or read/write group"});
        mistakes.add(new String[]{RULE.replace("shadowDataSourceName: ds_shadow", "shadowDataSourceName: ds"),
            "shadowDataSourceName", "another data source than the production one"});
        mistakes.add(new String[]{RULE.replace("[shadow_group] }", "[shadow_grp] }"),
            "tables.t_audit.dataSourceNames[0]", "one of dataSources"});
        mistakes.add(new String[]{RULE.replace("\"^tester_.*\"", "\"^tester_(\""), "tester_regex.props.regex",
            "a Java regular expression"});
        mistakes.add(new String[]{RULE.replace("operation: update", "operation: upsert"),
            "tester_regex.props.operation", "one of insert, update, delete, select"});
        mistakes.add(new String[]{RULE.replace("type: VALUE_MATCH, props: { operation: insert",
            "type: VALUE_MATCHES, props: { operation: insert"), "user_id_insert_match.type", "VALUE_MATCH"});
        mistakes.add(new String[]{RULE.replace("defaultShadowAlgorithmName: sql_hint\n", ""),
            "tables.t_audit.shadowAlgorithmNames", "or a defaultShadowAlgorithmName"});
        mistakes.add(new String[]{RULE.replace("tables:", "tabels:"), "tabels", "tables"});
        for (String[] mistake : mistakes) {
            ConfigException error = assertThrows(ConfigException.class,
                    () -> chain(List.of("ds", "ds_shadow"), mistake[0]), mistake[1]);
            for (String part : List.of(FILE, mistake[1], mistake[2])) {
                assertTrue(error.getMessage().contains(part), () -> "'" + part + "' not in: " + error.getMessage());
            }
        }
    }

    @Test
    void aPairNamesAReadWriteGroupByItsNameNotByAMember() {
        ConfigException error = assertThrows(ConfigException.class, () -> chain(
                List.of("ds_primary", "ds_replica", "ds_shadow"), """
                type: READWRITE_SPLITTING
                groups:
                  - { name: ds_rw, writeDataSource: ds_primary, readDataSources: [ds_replica] }
                """, RULE.replace("productionDataSourceName: ds,", "productionDataSourceName: ds_primary,")));
        assertTrue(error.getMessage().contains("the read/write group's name ds_rw"), error.getMessage());
    }
}
