package io.strata.rule.readwrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.strata.rule.health.GtidPosition;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

class ReadWriteSplittingRuleTest {

    private static final String FILE = "config-app.yaml";

    private final HealthRegistry health = new HealthRegistry();
    private final SessionRouteState session = new SessionRouteState();

    private static DatabaseConfig database(Map<String, Object> group, Map<String, Object> check) {
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("primary", "replica_0", "replica_1")) {
            dataSources.put(name, DataSourceConfig.of(name, "jdbc:mariadb://127.0.0.1:3306/app", "app", "app",
                    Map.of()));
        }
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("groups", List.of(group));
        if (check != null) {
            props.put("healthCheck", check);
        }
        return new DatabaseConfig("app", dataSources,
                List.of(new RuleConfig(ReadWriteSplittingRuleFactory.TYPE, props)));
    }

    private static Map<String, Object> group(Object... keysAndValues) {
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("name", "rw");
        group.put("writeDataSource", "primary");
        group.put("readDataSources", List.of("replica_0", "replica_1"));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            group.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return group;
    }

    private RuleChain chain(Object... keysAndValues) {
        return chain(database(group(keysAndValues), null), health);
    }

    private static RuleChain chain(DatabaseConfig database, HealthRegistry health) {
        return RuleChain.of(database, FILE, health, List.of(new ReadWriteSplittingRuleFactory()));
    }

    private String route(RuleChain chain, String sql) {
        return route(chain, sql, false, Map.of());
    }

    /** Routes as the executor would, which records a write's end (read-your-writes reads it). */
    private String route(RuleChain chain, String sql, boolean inTransaction, Map<String, Hold> held) {
        var info = SqlClassifier.classify(sql);
        RouteResult route = chain.route(new StatementContext("app", info, inTransaction, held, false, session));
        if (info.mayWrite()) {
            session.wroteAt(System.nanoTime());
        }
        return route.first().dataSource();
    }

    @Test
    void writesAndUnsafeReadsGoToThePrimaryPlainReadsToAReplica() {
        RuleChain chain = chain("readYourWrites", false);
        for (String sql : List.of("INSERT INTO t VALUES (1)", "UPDATE t SET a = 1", "DELETE FROM t",
                "REPLACE INTO t VALUES (1)", "CREATE TABLE x (a int)", "CALL p()", "FLUSH TABLES", "SHOW TABLES",
                "SELECT * FROM t FOR UPDATE", "SELECT * FROM t LOCK IN SHARE MODE", "SELECT * FROM t FOR SHARE",
                "SELECT LAST_INSERT_ID() + 1", "SELECT GET_LOCK('a', 1)", "SELECT @x", "SELECT a INTO @x FROM t",
                "SELECT NEXT VALUE FOR s", "SELECT nextval(s)", "SELECT 1; SELECT 2",
                "WITH c AS (SELECT 1) UPDATE t SET a = 1", "SELECT @@identity", "/* strata:primary */ SELECT 1")) {
            assertEquals("primary", route(chain, sql), sql);
        }
        for (String sql : List.of("SELECT * FROM t WHERE id = 1", "select replace(a, 'x', 'y') from t",
                "SELECT insert(a, 1, 2, 'z') FROM t", "WITH c AS (SELECT 1) SELECT * FROM c", "(SELECT 1)",
                "SELECT @@sql_mode", "/*+ strata:replica */ SELECT 1")) {
            assertTrue(route(chain, sql).startsWith("replica_"), sql);
        }
    }

    @Test
    void transactionsAndSessionStayOnTheirDataSource() {
        RuleChain chain = chain("readYourWrites", false);

        assertEquals("primary", route(chain, "SELECT 1", true, Map.of()), "inside a transaction");
        assertEquals("primary", route(chain, "SELECT 1", false, Map.of("primary", Hold.STATE)),
                "session state on the primary");
        assertEquals("replica_1", route(chain, "SHOW WARNINGS", false, Map.of("replica_1", Hold.WARNINGS)),
                "warnings of a read");
        assertEquals("replica_1", route(chain, "SELECT 1", false, Map.of("replica_1", Hold.WARNINGS)),
                "a read stays where the last read's warnings are");
        assertEquals("primary", route(chain, "INSERT INTO t VALUES (1)", false, Map.of("replica_1", Hold.WARNINGS)),
                "kept on a replica only for its warnings: a write goes to the primary");
        assertTrue(route(chain, "SELECT 1", false, Map.of("other", Hold.STATE)).startsWith("replica_"),
                "state on a data source of other data does not hold the group's reads");
    }

    /** The group's name stands for its data sources wherever a route names it. */
    @Test
    void aUnitRoutedToTheGroupsNameIsPlacedInTheGroup() {
        RuleChain chain = new RuleChain("rw", List.of(new ReadWriteSplittingRuleFactory().create(
                database(group("readYourWrites", false), null), new RuleConfig(ReadWriteSplittingRuleFactory.TYPE,
                        Map.of("groups", List.of(group("readYourWrites", false)))), FILE, "rules[0]", health)));

        assertEquals("primary", route(chain, "INSERT INTO t VALUES (1)"));
        assertTrue(route(chain, "SELECT 1").startsWith("replica_"));
    }

    @Test
    void roundRobinTakesEachReplicaInTurnAndThePrimaryWhenItTakesReads() {
        RuleChain chain = chain("readYourWrites", false, "primaryTakesReads", true);
        List<String> order = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            order.add(route(chain, "SELECT 1"));
        }
        assertEquals(List.of("replica_0", "replica_1", "primary", "replica_0", "replica_1", "primary"), order);
    }

    @Test
    void weightsShareReadsExactly() {
        RuleChain chain = chain("readYourWrites", false, "loadBalancer", "WEIGHT",
                "weights", Map.of("replica_0", 1, "replica_1", 3));
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            counts.merge(route(chain, "SELECT 1"), 1, Integer::sum);
        }
        assertEquals(Map.of("replica_0", 100, "replica_1", 300), counts);
    }

    @Test
    void randomAndLeastActiveUseEveryReplica() {
        for (String balancer : List.of("RANDOM", "LEAST_ACTIVE")) {
            RuleChain chain = chain("readYourWrites", false, "loadBalancer", balancer);
            Map<String, Integer> counts = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                counts.merge(route(chain, "SELECT 1"), 1, Integer::sum);
            }
            assertEquals(2, counts.size(), balancer + ": " + counts);
            assertTrue(counts.values().stream().allMatch(n -> n > 50), balancer + ": " + counts);
        }
    }

    @Test
    void leastActiveAvoidsTheBusyReplica() {
        RuleChain chain = chain("readYourWrites", false, "loadBalancer", "LEAST_ACTIVE");
        health.status("app", "replica_0").started(false); // a long read runs there

        for (int i = 0; i < 5; i++) {
            assertEquals("replica_1", route(chain, "SELECT 1"));
        }
    }

    @Test
    void replicasOutOfRotationGetNoReadsAndWithNoneLeftThePrimaryAnswers() {
        RuleChain chain = chain("readYourWrites", false);
        health.status("app", "replica_0").down("unreachable: connection refused", null);

        for (int i = 0; i < 4; i++) {
            assertEquals("replica_1", route(chain, "SELECT 1"));
        }
        health.status("app", "replica_1").down("lag 30 s > 10 s", 30L);
        assertEquals("primary", route(chain, "SELECT 1"));

        health.status("app", "replica_0").up("ok", 0L, null);
        assertEquals("replica_0", route(chain, "SELECT 1"));
    }

    @Test
    void whenNoReplicaFailSaysWhichReplicasAreOutAndWhy() {
        RuleChain chain = chain("readYourWrites", false, "whenNoReplica", "FAIL");
        health.status("app", "replica_0").down("unreachable: connection refused", null);
        health.status("app", "replica_1").down("replication stopped", null);

        RouteException error = assertThrows(RouteException.class, () -> route(chain, "SELECT 1"));

        assertEquals(1429, error.errorCode());
        assertEquals("No replica of read/write group 'rw' is in rotation: replica_0: unreachable: connection "
                + "refused; replica_1: replication stopped", error.getMessage());
        assertEquals("primary", route(chain, "INSERT INTO t VALUES (1)"), "writes are not affected");
    }

    @Test
    void afterAWriteReadsGoWhereTheWriteIsKnownToBe() {
        RuleChain chain = chain();
        var primary = health.status("app", "primary");
        var replica0 = health.status("app", "replica_0");
        var replica1 = health.status("app", "replica_1");
        replica0.up("ok", 0L, GtidPosition.parse("0-1-10"));
        replica1.up("ok", 0L, GtidPosition.parse("0-1-10"));

        assertTrue(route(chain, "SELECT 1").startsWith("replica_"), "nothing written yet");
        assertEquals("primary", route(chain, "INSERT INTO t VALUES (1)"));
        assertEquals("primary", route(chain, "SELECT 1"), "no check has seen the write yet");

        primary.recordPosition(System.nanoTime(), GtidPosition.parse("0-1-11"));
        assertEquals("primary", route(chain, "SELECT 1"), "no replica has it yet");

        replica1.up("ok", 0L, GtidPosition.parse("0-1-11"));
        for (int i = 0; i < 3; i++) {
            assertEquals("replica_1", route(chain, "SELECT 1"), "replica_1 has caught up, replica_0 not");
        }
        assertTrue(route(chain, "/* strata:replica */ SELECT 1").startsWith("replica_"), "the hint accepts any");
    }

    /** MariaDB's SET STATEMENT ... FOR is what its statement is: a write there is a write, a plain read a read. */
    @Test
    void setStatementRoutesAsItsStatement() {
        RuleChain chain = chain();
        health.status("app", "replica_0").up("ok", 0L, GtidPosition.parse("0-1-10"));
        health.status("app", "replica_1").up("ok", 0L, GtidPosition.parse("0-1-10"));

        assertTrue(route(chain, "SET STATEMENT max_statement_time = 5 FOR SELECT c FROM t").startsWith("replica_"));
        assertEquals("primary", route(chain, "SET STATEMENT max_statement_time = 5 FOR INSERT INTO t VALUES (1)"));
        assertEquals("primary", route(chain, "SELECT c FROM t"), "the session reads its own write");
    }

    @Test
    void theSessionSwitchSendsReadsToThePrimaryUntilReset() {
        RuleChain chain = chain("readYourWrites", false);
        session.readFrom(SessionRouteState.ReadFrom.PRIMARY);
        assertEquals("primary", route(chain, "SELECT 1"));
        assertTrue(route(chain, "/* strata:replica */ SELECT 1").startsWith("replica_"), "a hint beats the switch");

        session.reset();
        assertTrue(route(chain, "SELECT 1").startsWith("replica_"));
    }

    @Test
    void badSettingsStopTheStartNamingTheKey() {
        assertEquals("rules[0].groups[0].readDataSources[1]", configError(group("readDataSources",
                List.of("replica_0", "nope"))).key());
        assertEquals("rules[0].groups[0].loadBalancer", configError(group("loadBalancer", "FASTEST")).key());
        assertEquals("rules[0].groups[0].weights.other", configError(group("weights", Map.of("other", 1))).key());
        assertEquals("rules[0].groups[0].readDataSources[0]", configError(group("readDataSources",
                List.of("primary"))).key(), "the primary cannot be its own replica");
        assertEquals("rules[0].groups[0].color", configError(group("color", "red")).key());
        ConfigException check = assertThrows(ConfigException.class, () -> chain(database(group(),
                Map.of("interval", -1)), health));
        assertEquals("rules[0].healthCheck.interval", check.key());
    }

    @Test
    void theHealthMonitorIsToldWhatToCheck() {
        chain(database(group(), Map.of("username", "monitor", "password", "pw", "maxReplicationLag", 5)), health);

        List<HealthRegistry.Watch> watches = health.watches();
        assertEquals(3, watches.size());
        assertEquals(HealthRegistry.Role.PRIMARY, watches.get(0).role());
        assertEquals("replica_1", watches.get(2).status().name());
        assertEquals(5, watches.get(2).check().maxReplicationLagSeconds());
        assertEquals("monitor", watches.get(2).check().username());
        assertFalse(watches.get(2).check().intervalMillis() <= 0);
    }

    private ConfigException configError(Map<String, Object> group) {
        return assertThrows(ConfigException.class, () -> chain(database(group, null), new HealthRegistry()));
    }
}
