package io.strata.it;

import io.strata.bootstrap.sandbox.ReplicatedMariaDb;

import io.strata.bootstrap.Strata;
import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SINGLE over three data sources (schemas single_0, single_1, single_2 of one server), as a ShardingSphere 5.4+ file
 * writes it: every table found where it lives at start, statements sent there, new tables made on the default data
 * source. Where rows went is read on the server.
 */
class SingleIT {

    private static final String RULES = """
            - type: SINGLE
              tables: [ "*.*" ]
              defaultDataSource: ds_2
            - type: BROADCAST
              tables: [ t_dict ]
            """;
    private static Strata strata;

    @BeforeAll
    static void start() throws SQLException {
        for (int i = 0; i < 3; i++) {
            Backend.server().createDatabase("single_" + i, "strata", "strata");
            Backend.server().execute("single_" + i, "strata", "strata", "DROP TABLE IF EXISTS t_merchant",
                    "DROP TABLE IF EXISTS t_user", "DROP TABLE IF EXISTS t_log", "DROP TABLE IF EXISTS t_new",
                    "DROP TABLE IF EXISTS t_twice", "DROP TABLE IF EXISTS t_dict",
                    "CREATE TABLE t_dict (code VARCHAR(10) PRIMARY KEY, name VARCHAR(20))",
                    "INSERT INTO t_dict VALUES ('a', 'Alpha'), ('b', 'Beta')");
        }
        Backend.server().execute("single_0", "strata", "strata", "CREATE TABLE t_merchant (id INT PRIMARY KEY)");
        Backend.server().execute("single_1", "strata", "strata", "CREATE TABLE t_user (id INT PRIMARY KEY, code "
                + "VARCHAR(10))");
        Backend.server().execute("single_2", "strata", "strata", "CREATE TABLE t_log (id INT PRIMARY KEY, code "
                + "VARCHAR(10))", "INSERT INTO t_log VALUES (1, 'a'), (2, 'b'), (3, 'a')");
        strata = Strata.builder().config(config()).start();
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
    }

    private static StrataConfig config() {
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(),
                "strata");
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            dataSources.put("ds_" + i, DataSourceConfig.of("ds_" + i, Backend.server().jdbcUrl("single_" + i),
                    "strata", "strata", Map.of("maximumPoolSize", 4)));
        }
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(defaults.databases());
        databases.put("shop", new DatabaseConfig("shop", dataSources, StrataFixture.rules(RULES)));
        return new StrataConfig(defaults.server(), databases);
    }

    private static Connection connect() throws SQLException {
        return StrataFixture.connect(strata.port(), "shop", Driver.MARIADB, false);
    }

    @Test
    void statementsRunWhereTheirSingleTablesLive() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            assertEquals(1, st.executeUpdate("INSERT INTO t_user VALUES (7, 'a')"));
            assertEquals(1, count("single_1", "t_user"), "t_user lives on ds_1 alone");
            assertEquals(1, st.executeUpdate("INSERT INTO t_merchant VALUES (9)"));
            assertEquals(1, count("single_0", "t_merchant"));
            try (ResultSet rs = st.executeQuery("SELECT l.id, d.name FROM t_log l JOIN t_dict d ON d.code = l.code "
                    + "ORDER BY l.id")) {
                List<String> rows = new java.util.ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getInt(1) + " " + rs.getString(2));
                }
                assertEquals(List.of("1 Alpha", "2 Beta", "3 Alpha"), rows, "with a broadcast table, where t_log is");
            }
            st.execute("CREATE TABLE t_new (id INT PRIMARY KEY)");
            assertEquals(1, st.executeUpdate("INSERT INTO t_new VALUES (1)"));
            assertEquals(1, count("single_2", "t_new"), "a new table on the default data source, ds_2");
            SQLException refused = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM t_user u "
                    + "JOIN t_log l ON l.code = u.code"));
            assertEquals(1235, refused.getErrorCode());
            assertTrue(refused.getMessage().contains("live on different data sources"), refused.getMessage());
        }
    }

    @Test
    void aTableOnTwoDataSourcesThatNoRuleNamesStopsTheStart() throws SQLException {
        Backend.server().execute("single_0", "strata", "strata", "CREATE TABLE t_twice (id INT)");
        Backend.server().execute("single_1", "strata", "strata", "CREATE TABLE t_twice (id INT)");
        try {
            ConfigException e = assertThrows(ConfigException.class, () -> Strata.builder().config(config()).start());
            assertTrue(e.getMessage().contains("config-shop.yaml: rules[0].tables: expected each single table on one "
                    + "data source") && e.getMessage().contains("t_twice is on [ds_0, ds_1]"), e.getMessage());
        } finally {
            Backend.server().execute("single_0", "strata", "strata", "DROP TABLE t_twice");
            Backend.server().execute("single_1", "strata", "strata", "DROP TABLE t_twice");
        }
    }

    /** A table renamed through Strata is found under its new name at once, where it lives. */
    @Test
    void aTableRenamedThroughStrataIsFoundUnderItsNewName() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("RENAME TABLE t_log TO t_journal");
            try {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t_journal")) {
                    assertTrue(rs.next());
                    assertEquals(3, rs.getInt(1));
                }
                assertEquals(3, count("single_2", "t_journal"), "renamed on ds_2, where it lives");
            } finally {
                st.execute("ALTER TABLE t_journal RENAME TO t_log");
            }
            assertEquals(3, count("single_2", "t_log"));
        }
    }

    /**
     * A SINGLE pattern may name a read/write group, as ShardingSphere's logical data sources: the group is scanned
     * once, through its write data source (its replica holds the same tables, which are no conflict), and its tables
     * are placed on the group, so writes go to the primary and reads to the replica.
     */
    @Test
    void aPatternNamingAReadWriteGroupPlacesItsTablesOnTheGroup() throws Exception {
        try (ReplicatedMariaDb group = ReplicatedMariaDb.start(0, 0, 1, "single_rw", "strata", "strata")) {
            group.primary().createDatabase("single_rw", "checker", "checker");
            group.primary().execute("single_rw", "strata", "strata", "CREATE TABLE t_account (id INT PRIMARY KEY)");
            group.awaitReplicas("checker", "checker", 30_000);
            Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
            dataSources.put("ds_0", DataSourceConfig.of("ds_0", Backend.server().jdbcUrl("single_0"), "strata",
                    "strata", Map.of("maximumPoolSize", 4)));
            dataSources.put("rw_primary", DataSourceConfig.of("rw_primary", group.primary().jdbcUrl("single_rw"),
                    "strata", "strata", Map.of("maximumPoolSize", 4)));
            dataSources.put("rw_replica", DataSourceConfig.of("rw_replica",
                    group.replicas().get(0).jdbcUrl("single_rw"), "strata", "strata", Map.of("maximumPoolSize", 4)));
            List<RuleConfig> rules = new java.util.ArrayList<>(List.of(new RuleConfig("READWRITE_SPLITTING",
                    Map.of("groups", List.of(Map.of("name", "rw", "writeDataSource", "rw_primary",
                            "readDataSources", List.of("rw_replica"), "readYourWrites", false))))));
            rules.addAll(StrataFixture.rules("""
                    - type: SINGLE
                      tables: [ "rw.*", "ds_0.*" ]
                    """));
            StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(),
                    "strata");
            try (Strata withGroup = Strata.builder().config(new StrataConfig(defaults.server(),
                    Map.of("grouped", new DatabaseConfig("grouped", dataSources, rules)))).start();
                 Connection c = StrataFixture.connect(withGroup.port(), "grouped", Driver.MARIADB, false);
                 Statement st = c.createStatement()) {
                assertEquals(1, st.executeUpdate("INSERT INTO t_account VALUES (1)"));
                group.awaitReplicas("checker", "checker", 30_000);
                BroadcastIT.awaitInRotation(withGroup.port(), "grouped", 2);
                try (ResultSet rs = st.executeQuery("SELECT @@port, COUNT(*) FROM t_account")) {
                    assertTrue(rs.next());
                    assertEquals(group.replicas().get(0).port(), rs.getInt(1), "a read of the group: its replica");
                    assertEquals(1, rs.getInt(2));
                }
                assertEquals(1, st.executeUpdate("INSERT INTO t_merchant VALUES (11)"), "ds_0's table, still");
            } finally {
                Backend.server().execute("single_0", "strata", "strata", "DELETE FROM t_merchant WHERE id = 11");
            }
            try (Connection primary = group.primary().connect("single_rw", "strata", "strata");
                 Statement st = primary.createStatement(); ResultSet rs = st.executeQuery(
                         "SELECT COUNT(*) FROM t_account")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1), "the write went to the group's primary");
            }
        }
    }

    @Test
    void aPatternNamingAGroupsMemberIsRefusedNamingTheGroup() {
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : List.of("rw_primary", "rw_replica")) {
            dataSources.put(name, DataSourceConfig.of(name, Backend.server().jdbcUrl("single_0"), "strata", "strata",
                    Map.of()));
        }
        List<RuleConfig> rules = new java.util.ArrayList<>(List.of(new RuleConfig("READWRITE_SPLITTING",
                Map.of("groups", List.of(Map.of("name", "rw", "writeDataSource", "rw_primary",
                        "readDataSources", List.of("rw_replica")))))));
        rules.addAll(StrataFixture.rules("""
                - type: SINGLE
                  tables: [ "rw_primary.*" ]
                """));
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(),
                "strata");
        Exception e = assertThrows(Exception.class, () -> Strata.builder().config(new StrataConfig(defaults.server(),
                Map.of("grouped", new DatabaseConfig("grouped", dataSources, rules)))).start().close());
        assertTrue(e.getMessage().contains("the read/write group's name rw"), e.getMessage());
    }

    private static int count(String schema, String table) throws SQLException {
        try (Connection c = Backend.server().connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
