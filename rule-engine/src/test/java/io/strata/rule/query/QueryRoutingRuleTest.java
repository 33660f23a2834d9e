package io.strata.rule.query;

import io.strata.config.ClientAddress;
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
import org.yaml.snakeyaml.Yaml;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryRoutingRuleTest {

    private static final String FILE = "config-shop.yaml";

    /** The issue's example, as a user writes it. */
    private static final String RULES = """
            type: QUERY_ROUTING
            rules:
              - { name: reports-to-replica, user: reporting, dataSource: replica_2 }
              - { name: no-full-scans, pattern: "(?i)^select \\\\* from big_table$", error: { code: 1317, message: "blocked by the DBA" } }
              - { name: slow-search, digestPattern: "^SELECT .* FROM `?search`? WHERE .* LIKE \\\\?", dataSource: rw, timeout: 2000 }
              - { name: hot-lookup, digest: "SELECT `name` FROM `t_dict` WHERE `id` = ?", dataSource: ds_1 }
              - { name: mirror-orders, pattern: "(?i)^insert into orders", mirror: ds_audit, continue: true }
              - { name: office, clientAddress: 10.1.0.0/16, pattern: "(?i)^select", rewrite: { pattern: "(?i)^select ", replacement: "SELECT /* office */ " } }
            """;

    private static final RuleChain CHAIN = chain(RULES);

    private static RuleChain chain(String yaml) {
        Map<String, Object> props = new LinkedHashMap<>(new Yaml().<Map<String, Object>>load(yaml));
        RuleConfig rule = new RuleConfig((String) props.remove("type"), props);
        Map<String, DataSourceConfig> all = new LinkedHashMap<>();
        for (String name : List.of("rw", "ds_1", "replica_2", "ds_audit")) {
            all.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/shop", "app", "app", Map.of()));
        }
        return RuleChain.of(new DatabaseConfig("shop", all, List.of(rule)), FILE, new HealthRegistry(),
                BuiltInRules.factories());
    }

    private static SessionRouteState session(String user, String address) {
        SessionRouteState session = new SessionRouteState();
        session.login(user, address);
        return session;
    }

    private static RouteResult route(String sql, SessionRouteState session) {
        return CHAIN.route(new StatementContext("shop", SqlClassifier.classify(sql), false, Map.of(), false, session));
    }

    private static RouteResult route(String sql) {
        return route(sql, session("app", "10.0.0.5"));
    }

    @Test
    void aStatementNoRuleMatchesKeepsItsRoute() {
        RouteResult route = route("SELECT 1");
        assertEquals("rw", route.first().dataSource());
        assertTrue(route.passThrough());
        assertEquals(0, route.steering().timeoutMillis());
    }

    @Test
    void aUserIsSentToItsDataSource() {
        assertEquals("replica_2", route("SELECT * FROM orders", session("reporting", "10.0.0.5")).first().dataSource());
        assertEquals(List.of("reports-to-replica"), route("SELECT 1", session("reporting", "10.0.0.5"))
                .steering().rules());
    }

    @Test
    void aPatternRefusesTheStatementWithTheRulesError() {
        RouteException e = assertThrows(RouteException.class, () -> route("select * from big_table"));
        assertEquals(1317, e.errorCode());
        assertEquals("HY000", e.sqlState());
        assertEquals("blocked by the DBA", e.getMessage());
        assertEquals("rw", route("select * from big_table where id = 1").first().dataSource());
    }

    @Test
    void aDigestPatternMatchesWhateverTheLiterals() {
        RouteResult route = route("select  title from search where body like '%cat%'");
        assertEquals("rw", route.first().dataSource());
        assertEquals(2000, route.steering().timeoutMillis());
    }

    @Test
    void anExactDigestMatchesTheStatementWithAnyLiteral() {
        assertEquals("ds_1", route("SELECT name FROM t_dict WHERE id = 42").first().dataSource());
        assertEquals("ds_1", route("select name  from t_dict where id=7 -- hot").first().dataSource());
        assertEquals("rw", route("SELECT name, id FROM t_dict WHERE id = 42").first().dataSource());
    }

    @Test
    void continueLetsLaterRulesAddTheirActions() {
        RouteResult route = route("INSERT INTO orders VALUES (1)");
        assertEquals(List.of("ds_audit"), route.steering().mirrors());
        assertEquals("rw", route.first().dataSource());
        assertTrue(route.passThrough(), "a mirror leaves the client's statement as it came");
    }

    @Test
    void aRewriteChangesTheTextThatRuns() {
        RouteResult route = route("select id from t", session("app", "10.1.2.3"));
        assertEquals("SELECT /* office */ id from t", route.first().sql());
        assertEquals("SELECT /* office */ id from t", route.steering().rewritten());
        assertTrue(route("select id from t", session("app", "10.2.2.3")).passThrough(), "outside the CIDR block");
    }

    @Test
    void aTransactionKeepsItsDataSourceWhateverTheRulesSay() {
        StatementContext inTransaction = new StatementContext("shop",
                SqlClassifier.classify("SELECT name FROM t_dict WHERE id = 42"), true, Map.of("rw", Hold.STATE),
                false, session("app", "10.0.0.5"));
        assertEquals("rw", CHAIN.route(inTransaction).first().dataSource());
        StatementContext onReplica = new StatementContext("shop", SqlClassifier.classify("SELECT 1"), true,
                Map.of("replica_2", Hold.STATE), false, session("app", "10.0.0.5"));
        assertEquals("replica_2", CHAIN.route(onReplica).first().dataSource(),
                "a statement no rule matches follows the transaction too");
    }

    @Test
    void hitsAreCountedPerRule() {
        RuleChain chain = chain("""
                type: QUERY_ROUTING
                rules:
                  - { name: a, pattern: "^SELECT", timeout: 10, continue: true }
                  - { name: b, pattern: "1$", dataSource: ds_1 }
                """);
        for (String sql : List.of("SELECT 1", "SELECT 2", "UPDATE t SET a = 1")) {
            chain.route(new StatementContext("shop", SqlClassifier.classify(sql), false, Map.of(), false,
                    session("app", "10.0.0.5")));
        }
        QueryRoutingRule rule = (QueryRoutingRule) chain.routingRules().get(0);
        assertEquals(List.of(2L, 2L), rule.stats().stream().map(QueryRoutingRule.RuleStats::hits).toList());
    }

    @Test
    void configMistakesStopTheStartNamingTheRule() {
        assertEquals("config-shop.yaml: rules[0].rules[0].name: expected query rule 'x' to have a matcher (one of "
                        + "[user, schema, clientAddress, digest, digestPattern, pattern]), got 'none'",
                assertThrows(ConfigException.class, () -> chain("""
                        type: QUERY_ROUTING
                        rules: [ { name: x, dataSource: ds_1 } ]
                        """)).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, pattern: "(unclosed", dataSource: ds_1 } ]
                """)).getMessage().contains("rules[0].rules[0].pattern: expected a Java regular expression"));
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, user: a, dataSource: nowhere } ]
                """)).getMessage().contains("rules[0].rules[0].dataSource"));
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, user: a, timeout: 5 }, { name: x, user: b, timeout: 5 } ]
                """)).getMessage().contains("rules[0].rules[1].name"));
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, user: a } ]
                """)).getMessage().contains("to have an action"));
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, clientAddress: office.example.com, timeout: 5 } ]
                """)).getMessage().contains("clientAddress"));
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, user: a, rewrite: { pattern: "a", replacement: "$2" } } ]
                """)).getMessage().contains("replacement"));
        assertEquals("config-shop.yaml: rules[0].rules[0].error.code: expected a server error code, 1000-1999 or "
                        + "3000-65535 (2000-2999 are the client library's own, which the mariadb client prints as a "
                        + "malformed packet), got '2013'",
                assertThrows(ConfigException.class, () -> chain("""
                        type: QUERY_ROUTING
                        rules: [ { name: x, user: a, error: { code: 2013 } } ]
                        """)).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> chain("""
                type: QUERY_ROUTING
                rules: [ { name: x, user: a, error: { code: 999 } } ]
                """)).getMessage().contains("error.code"));
    }

    @Test
    void aRegexAnchoredAtTheStartIsTriedThereOnly() {
        assertTrue(QueryRule.Regex.anchored("^select"));
        assertTrue(QueryRule.Regex.anchored("(?i)^select"));
        assertTrue(QueryRule.Regex.anchored("(?i)(?s)^select"));
        assertTrue(!QueryRule.Regex.anchored("(?im)^select"), "multiline: ^ after any line break");
        assertTrue(!QueryRule.Regex.anchored("(^a)|b"));
        assertTrue(!QueryRule.Regex.anchored("select"));
        QueryRule.Regex anchored = QueryRule.Regex.of(java.util.regex.Pattern.compile("(?i)^select \\d"));
        assertTrue(anchored.found("SELECT 1 FROM t"));
        assertTrue(!anchored.found("/* x */ SELECT 1"));
        assertTrue(QueryRule.Regex.of(java.util.regex.Pattern.compile("FROM t$")).found("SELECT 1 FROM t"));
    }

    @Test
    void clientAddressesMatchTheirBlock() {
        assertTrue(ClientAddress.parse("10.0.0.0/8").matches("10.200.3.4"));
        assertTrue(!ClientAddress.parse("10.0.0.0/8").matches("11.0.0.1"));
        assertTrue(ClientAddress.parse("192.168.1.7").matches("192.168.1.7"));
        assertTrue(ClientAddress.parse("fd00::/8").matches("fd12:0:0:0:0:0:0:1"));
        assertTrue(!ClientAddress.parse("10.0.0.0/9").matches("10.128.0.1"));
        assertTrue(ClientAddress.parse("localhost").matches("127.0.0.1"));
        assertTrue(ClientAddress.parse("0.0.0.0/0").matches("203.0.113.9"));
    }
}
