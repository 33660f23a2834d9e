package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.jdbc.StrataDataSource;
import io.strata.bootstrap.sandbox.ReplicatedMariaDb;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BROADCAST on two MariaDB servers: a table kept whole on both. Changes land on both or neither, counted once;
 * reads spread; a table of one data source stays there, also in a transaction with a broadcast write. What is where
 * is read from the two servers themselves; each copy holds one row the other does not have, which tells which
 * server answered a read.
 */
class BroadcastIT {

    private static final String SCHEMA_A = "bc_a";
    private static final String SCHEMA_B = "bc_b";
    private static EmbeddedMariaDb serverB;
    private static Strata strata;
    private static StrataDataSource embedded;

    @BeforeAll
    static void start() {
        EmbeddedMariaDb serverA = Backend.server();
        serverA.createDatabase(SCHEMA_A, "strata", "strata");
        serverB = EmbeddedMariaDb.start(0);
        serverB.createDatabase(SCHEMA_B, "strata", "strata");
        serverB.createDatabase(SCHEMA_B, "checker", "checker");
        strata = Strata.builder().config(config(serverA, serverB)).start();
        embedded = new StrataDataSource(config(serverA, serverB), "bc");
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (embedded != null) {
            embedded.close();
        }
        if (serverB != null) {
            serverB.close();
        }
    }

    static StrataConfig config(EmbeddedMariaDb a, EmbeddedMariaDb b) {
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, a, Map.of(), "strata");
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        dataSources.put("ds_0", DataSourceConfig.of("ds_0", a.jdbcUrl(SCHEMA_A), "strata", "strata",
                Map.of("maximumPoolSize", 8, "connectionTimeout", 3000)));
        dataSources.put("ds_1", DataSourceConfig.of("ds_1", b.jdbcUrl(SCHEMA_B), "strata", "strata",
                Map.of("maximumPoolSize", 8, "connectionTimeout", 3000)));
        DatabaseConfig bc = new DatabaseConfig("bc", dataSources, List.of(new RuleConfig("BROADCAST",
                Map.of("tables", List.of("t_dict", "t_country")))));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(defaults.databases());
        databases.put("bc", bc);
        return new StrataConfig(defaults.server(), databases);
    }

    /** Through the proxy, or (driver null) through the embedded driver on the same configuration. */
    private static Connection connect(Driver driver, boolean binary) throws SQLException {
        return driver == null ? embedded.getConnection() : StrataFixture.connect(strata.port(), "bc", driver, binary);
    }

    @BeforeEach
    void tables() throws SQLException {
        for (Object[] server : new Object[][] {{Backend.server(), SCHEMA_A}, {serverB, SCHEMA_B}}) {
            direct((EmbeddedMariaDb) server[0], (String) server[1], "DROP TABLE IF EXISTS t_dict",
                    "DROP TABLE IF EXISTS t_single");
        }
        direct(Backend.server(), SCHEMA_A, "CREATE TABLE t_single (id INT PRIMARY KEY, v VARCHAR(20))");
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void ddlAndChangesLandOnEveryDataSourceCountedOnce(Driver driver, boolean binary) throws SQLException {
        try (Connection c = connect(driver, binary); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t_dict (id INT PRIMARY KEY, v VARCHAR(20))");
            assertEquals(List.of(true, true), exists("t_dict"), "the table is made on both servers");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t_dict VALUES (?, ?), (?, ?)")) {
                insert.setInt(1, 1);
                insert.setString(2, "one");
                insert.setInt(3, 2);
                insert.setString(4, "two");
                assertEquals(2, insert.executeUpdate(), "one copy's count, not the sum");
            }
            assertEquals(3, st.executeUpdate("INSERT INTO t_dict VALUES (3, 'three'), (4, 'four'), (5, 'five')"));
            assertEquals(2, st.executeUpdate("UPDATE t_dict SET v = 'changed' WHERE id IN (1, 2)"));
            assertEquals(1, st.executeUpdate("DELETE FROM t_dict WHERE id = 5"));
            st.execute("ALTER TABLE t_dict ADD COLUMN note VARCHAR(10)");
            st.execute("CREATE INDEX t_dict_v ON t_dict (v)");
        }
        Map<Integer, String> expected = Map.of(1, "changed", 2, "changed", 3, "three", 4, "four");
        assertEquals(expected, rows(Backend.server(), SCHEMA_A));
        assertEquals(expected, rows(serverB, SCHEMA_B));
        assertEquals(List.of(true, true), hasIndex("t_dict_v"));
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void aTransactionCommitsOrRollsBackOnEveryDataSourceItTouched(Driver driver, boolean binary)
            throws SQLException {
        createDict();
        try (Connection c = connect(driver, binary); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO t_single VALUES (10, 'single')");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t_dict VALUES (?, ?)")) {
                insert.setInt(1, 10);
                insert.setString(2, "ten");
                insert.executeUpdate();
            }
            assertEquals(Map.of(), rows(serverB, SCHEMA_B), "not committed yet");
            c.commit();
            assertEquals(Map.of(10, "ten"), rows(Backend.server(), SCHEMA_A));
            assertEquals(Map.of(10, "ten"), rows(serverB, SCHEMA_B));
            assertEquals(1, count(Backend.server(), SCHEMA_A, "t_single"), "the single table's row, on ds_0");

            st.executeUpdate("INSERT INTO t_dict VALUES (11, 'eleven')");
            st.executeUpdate("INSERT INTO t_single VALUES (11, 'gone')");
            c.rollback();
            c.setAutoCommit(true);
        }
        assertEquals(Map.of(10, "ten"), rows(Backend.server(), SCHEMA_A), "rolled back on ds_0");
        assertEquals(Map.of(10, "ten"), rows(serverB, SCHEMA_B), "and on ds_1");
        assertEquals(1, count(Backend.server(), SCHEMA_A, "t_single"));
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void readsSpreadOverTheDataSourcesAndJoinsWithASingleTableRunWhereItIs(Driver driver, boolean binary)
            throws Exception {
        awaitBothInRotation();
        createDict();
        direct(Backend.server(), SCHEMA_A, "INSERT INTO t_dict VALUES (999, 'on A')",
                "INSERT INTO t_single VALUES (999, 'single')");
        direct(serverB, SCHEMA_B, "INSERT INTO t_dict VALUES (999, 'on B')");
        Map<String, Integer> answeredBy = new HashMap<>();
        try (Connection c = connect(driver, binary);
             PreparedStatement read = c.prepareStatement("SELECT v FROM t_dict WHERE id = ?");
             PreparedStatement join = c.prepareStatement(
                     "SELECT d.v FROM t_dict d JOIN t_single s ON s.id = d.id WHERE d.id = ?")) {
            for (int i = 0; i < 20; i++) {
                read.setInt(1, 999);
                try (ResultSet rs = read.executeQuery()) {
                    assertTrue(rs.next());
                    answeredBy.merge(rs.getString(1), 1, Integer::sum);
                }
            }
            for (int i = 0; i < 4; i++) {
                join.setInt(1, 999);
                try (ResultSet rs = join.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("on A", rs.getString(1), "t_single lives on ds_0: the join runs there");
                }
            }
        }
        assertEquals(Map.of("on A", 10, "on B", 10), answeredBy, "round robin over the two servers");
    }

    @Test
    void aFailureOnOneDataSourceSaysWhereTheChangeWasApplied() throws SQLException {
        createDict();
        direct(serverB, SCHEMA_B, "INSERT INTO t_dict VALUES (7, 'only on B')");
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            SQLException duplicate = assertThrows(SQLException.class,
                    () -> st.executeUpdate("INSERT INTO t_dict VALUES (7, 'seven')"));
            assertEquals(1062, duplicate.getErrorCode(), "the server's own error");
            assertTrue(duplicate.getMessage().contains("data source ds_1; applied on ds_0, not on ds_1"),
                    duplicate.getMessage());
        }
        assertEquals(Map.of(7, "seven"), rows(Backend.server(), SCHEMA_A));
        assertEquals(Map.of(7, "only on B"), rows(serverB, SCHEMA_B));
    }

    @Test
    void withOneServerDownWritesFailNamingItAndReadsGoToTheOther() throws SQLException {
        createDict();
        direct(Backend.server(), SCHEMA_A, "INSERT INTO t_dict VALUES (1, 'one')");
        direct(serverB, SCHEMA_B, "INSERT INTO t_dict VALUES (1, 'one')");
        serverB.stop();
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            SQLException down = assertThrows(SQLException.class,
                    () -> st.executeUpdate("INSERT INTO t_dict VALUES (2, 'two')"));
            assertTrue(down.getMessage().contains("ds_1"), down.getMessage());
            for (int i = 0; i < 6; i++) {
                assertEquals("one", JdbcIT.queryString(st, "SELECT v FROM t_dict WHERE id = 1"));
            }
        } finally {
            serverB.restart();
        }
        assertEquals(Map.of(1, "one"), rows(Backend.server(), SCHEMA_A), "nothing was applied anywhere");
    }

    /**
     * A route of several units reading rows (a plugin rule sends every SELECT to both servers): the client gets one
     * result set, the first server's rows then the second's, in either protocol; a unit's error names its server.
     */
    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void theResultSetsOfSeveralUnitsAreConcatenated(Driver driver, boolean binary) throws SQLException {
        createDict();
        direct(Backend.server(), SCHEMA_A, "INSERT INTO t_dict VALUES (1, 'a1'), (2, 'a2')");
        direct(serverB, SCHEMA_B, "INSERT INTO t_dict VALUES (3, 'b3')");
        StrataConfig config = config(Backend.server(), serverB);
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(config.databases());
        DatabaseConfig bc = databases.get("bc");
        databases.put("bc", new DatabaseConfig("bc", bc.dataSources(), List.of(new RuleConfig(
                EverywhereRuleFactory.TYPE, Map.of()))));
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", String.valueOf(binary));
        try (Strata everywhere = Strata.builder().config(new StrataConfig(config.server(), databases)).start();
             Connection c = driver.connect(everywhere.port(), "bc", "root", "root", props);
             PreparedStatement read = c.prepareStatement("SELECT id, v FROM t_dict WHERE id > ? ORDER BY id")) {
            read.setInt(1, 0);
            List<String> rows = new java.util.ArrayList<>();
            try (ResultSet rs = read.executeQuery()) {
                assertEquals("v", rs.getMetaData().getColumnName(2));
                while (rs.next()) {
                    rows.add(rs.getInt(1) + "=" + rs.getString(2));
                }
            }
            assertEquals(List.of("1=a1", "2=a2", "3=b3"), rows);
            direct(serverB, SCHEMA_B, "DROP TABLE t_dict");
            try (Statement st = c.createStatement()) {
                SQLException missing = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM t_dict"));
                assertEquals(1146, missing.getErrorCode());
                assertTrue(missing.getMessage().contains("data source ds_1"), missing.getMessage());
                assertEquals(1, JdbcIT.queryLong(st, "SELECT 1"), "the session goes on");
            }
        }
    }

    /**
     * One of the two data sources is a read/write group (a primary and its replica): a change goes to the group's
     * primary (and so reaches its replica) and to the other server; reads spread over the group, which sends its
     * turn to its replica, and the other server. Which server answered a read is read from its port.
     */
    @Test
    void aReadWriteGroupCountsAsOneDataSourceAndReadsFromItsReplica() throws Exception {
        try (ReplicatedMariaDb group = ReplicatedMariaDb.start(0, 0, 1, "bc_rw", "strata", "strata")) {
            group.primary().createDatabase("bc_rw", "checker", "checker");
            Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
            dataSources.put("primary", DataSourceConfig.of("primary", group.primary().jdbcUrl("bc_rw"), "strata",
                    "strata", Map.of("maximumPoolSize", 4)));
            dataSources.put("replica", DataSourceConfig.of("replica", group.replicas().get(0).jdbcUrl("bc_rw"),
                    "strata", "strata", Map.of("maximumPoolSize", 4)));
            dataSources.put("ds_1", DataSourceConfig.of("ds_1", serverB.jdbcUrl(SCHEMA_B), "strata", "strata",
                    Map.of("maximumPoolSize", 4)));
            DatabaseConfig bcrw = new DatabaseConfig("bcrw", dataSources, List.of(
                    new RuleConfig("BROADCAST", Map.of("tables", List.of("t_dict"))),
                    new RuleConfig("READWRITE_SPLITTING", Map.of("groups", List.of(Map.of("name", "rw",
                            "writeDataSource", "primary", "readDataSources", List.of("replica"),
                            "readYourWrites", false))))));
            StrataConfig defaults = config(Backend.server(), serverB);
            try (Strata strataRw = Strata.builder().config(new StrataConfig(defaults.server(),
                    Map.of("bcrw", bcrw))).start();
                 Connection c = Driver.MARIADB.connect(strataRw.port(), "bcrw", "root", "root", new Properties());
                 Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t_dict (id INT PRIMARY KEY, v VARCHAR(20))");
                assertEquals(2, st.executeUpdate("INSERT INTO t_dict VALUES (1, 'one'), (2, 'two')"));
                group.awaitReplicas("checker", "checker", 30_000);
                awaitInRotation(strataRw.port(), "bcrw", 3);
                assertEquals(Map.of(1, "one", 2, "two"), rows(group.primary(), "bc_rw"));
                assertEquals(Map.of(1, "one", 2, "two"), rows(group.replicas().get(0), "bc_rw"));
                assertEquals(Map.of(1, "one", 2, "two"), rows(serverB, SCHEMA_B));
                Map<Long, Integer> answeredBy = new HashMap<>();
                for (int i = 0; i < 10; i++) {
                    answeredBy.merge(JdbcIT.queryLong(st, "SELECT @@port FROM t_dict WHERE id = 1"), 1,
                            Integer::sum);
                }
                assertEquals(Map.of((long) group.replicas().get(0).port(), 5, (long) serverB.port(), 5),
                        answeredBy, "the group's replica and the other server, in turn; never the primary");
            } finally {
                direct(serverB, SCHEMA_B, "DROP TABLE IF EXISTS t_dict");
            }
        }
    }

    /**
     * t_country is listed in the rule but on neither server: the start says so, for each data source (in the log of
     * the kernel's start-up, which every host runs).
     */
    @Test
    void aListedTableMissingOnADataSourceIsReportedAtStart() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
                .getLogger(io.strata.kernel.Startup.class);
        var appender = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        appender.start();
        logger.addAppender(appender);
        try (Strata another = Strata.builder().config(config(Backend.server(), serverB)).start()) {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            List<String> warnings = List.of();
            while (System.nanoTime() < deadline) {
                warnings = appender.list.stream().map(e -> e.getFormattedMessage())
                        .filter(m -> m.contains("broadcast table 't_country'")).toList();
                if (warnings.size() >= 2) {
                    break;
                }
                Thread.sleep(100);
            }
            assertEquals(2, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("config-bc.yaml") && warnings.stream().anyMatch(w ->
                    w.contains("data source 'ds_0'")) && warnings.stream().anyMatch(w -> w.contains(
                    "data source 'ds_1'")), warnings.toString());
        } finally {
            logger.detachAppender(appender);
        }
    }

    private static void createDict() throws SQLException {
        for (Object[] server : new Object[][] {{Backend.server(), SCHEMA_A}, {serverB, SCHEMA_B}}) {
            direct((EmbeddedMariaDb) server[0], (String) server[1],
                    "CREATE TABLE t_dict (id INT PRIMARY KEY, v VARCHAR(20))");
        }
    }

    private static void direct(EmbeddedMariaDb server, String schema, String... statements) throws SQLException {
        server.execute(schema, "strata", "strata", statements);
    }

    private static Map<Integer, String> rows(EmbeddedMariaDb server, String schema) throws SQLException {
        Map<Integer, String> rows = new HashMap<>();
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, v FROM t_dict")) {
            while (rs.next()) {
                rows.put(rs.getInt(1), rs.getString(2));
            }
        }
        return rows;
    }

    private static long count(EmbeddedMariaDb server, String schema, String table) throws SQLException {
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement()) {
            return JdbcIT.queryLong(st, "SELECT COUNT(*) FROM " + table);
        }
    }

    private static List<Boolean> exists(String table) throws SQLException {
        return List.of(count(Backend.server(), SCHEMA_A, "information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + SCHEMA_A + "' AND TABLE_NAME = '" + table + "'") == 1, count(serverB, SCHEMA_B,
                "information_schema.TABLES WHERE TABLE_SCHEMA = '" + SCHEMA_B + "' AND TABLE_NAME = '" + table
                        + "'") == 1);
    }

    private static List<Boolean> hasIndex(String index) throws SQLException {
        return List.of(count(Backend.server(), SCHEMA_A, "information_schema.STATISTICS WHERE TABLE_SCHEMA = '"
                + SCHEMA_A + "' AND INDEX_NAME = '" + index + "'") > 0, count(serverB, SCHEMA_B,
                "information_schema.STATISTICS WHERE TABLE_SCHEMA = '" + SCHEMA_B + "' AND INDEX_NAME = '" + index
                        + "'") > 0);
    }

    /** Waits (a few seconds at most) until the health monitor has both data sources in rotation again. */
    private static void awaitBothInRotation() throws Exception {
        awaitInRotation(strata.port(), "bc", 2);
    }

    /** Waits (15 s at most) until SHOW STRATA DATA SOURCES shows {@code count} data sources in rotation. */
    static void awaitInRotation(int port, String database, int count) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        while (true) {
            int inRotation = 0;
            try (Connection c = Driver.MARIADB.connect(port, database, "root", "root", new Properties());
                 Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW STRATA DATA SOURCES")) {
                while (rs.next()) {
                    inRotation += "yes".equals(rs.getString("in_rotation")) ? 1 : 0;
                }
            }
            if (inRotation == count || System.nanoTime() > deadline) {
                return;
            }
            Thread.sleep(200);
        }
    }
}
