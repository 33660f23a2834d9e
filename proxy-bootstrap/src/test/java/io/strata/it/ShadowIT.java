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
import org.yaml.snakeyaml.Yaml;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SHADOW on two MariaDB servers, production and shadow, with the README's rule. Where each statement ran is read
 * from the servers themselves: the rows each one holds, and {@code @@port} for reads.
 */
class ShadowIT {

    private static final String PROD = "sh_prod";
    private static final String SHADOW = "sh_shadow";

    /** The README's example, plus a delete algorithm so that every operation is shown. */
    static final String RULE = """
            dataSources:
              shadow_group: { productionDataSourceName: ds, shadowDataSourceName: ds_shadow }
            tables:
              t_order: { dataSourceNames: [shadow_group], shadowAlgorithmNames: [user_id_insert_match, user_id_select_match, user_id_delete_match] }
              t_user:  { dataSourceNames: [shadow_group], shadowAlgorithmNames: [tester_regex] }
            defaultShadowAlgorithmName: sql_hint
            shadowAlgorithms:
              user_id_insert_match: { type: VALUE_MATCH, props: { operation: insert, column: user_id, value: 0 } }
              user_id_select_match: { type: VALUE_MATCH, props: { operation: select, column: user_id, value: 0 } }
              user_id_delete_match: { type: VALUE_MATCH, props: { operation: delete, column: user_id, value: 0 } }
              tester_regex: { type: REGEX_MATCH, props: { operation: update, column: name, regex: "^tester_.*" } }
              sql_hint: { type: SQL_HINT }
            """;

    private static EmbeddedMariaDb shadowServer;
    private static Strata strata;
    private static StrataDataSource embedded;

    @BeforeAll
    static void start() {
        Backend.server().createDatabase(PROD, "strata", "strata");
        shadowServer = EmbeddedMariaDb.start(0);
        shadowServer.createDatabase(SHADOW, "strata", "strata");
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        dataSources.put("ds", dataSource("ds", Backend.server().jdbcUrl(PROD)));
        dataSources.put("ds_shadow", dataSource("ds_shadow", shadowServer.jdbcUrl(SHADOW)));
        DatabaseConfig shop = new DatabaseConfig("shop", dataSources, List.of(rule(RULE)));
        strata = start(shop);
        embedded = new StrataDataSource(config(shop), "shop");
    }

    private static Strata start(DatabaseConfig database) {
        return Strata.builder().config(config(database)).start();
    }

    private static StrataConfig config(DatabaseConfig database) {
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(),
                "strata");
        return new StrataConfig(defaults.server(), Map.of(database.databaseName(), database));
    }

    private static DataSourceConfig dataSource(String name, String url) {
        return DataSourceConfig.of(name, url, "strata", "strata", Map.of("maximumPoolSize", 8,
                "connectionTimeout", 3000));
    }

    static RuleConfig rule(String yaml) {
        return new RuleConfig("SHADOW", new Yaml().load(yaml));
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (embedded != null) {
            embedded.close();
        }
        if (shadowServer != null) {
            shadowServer.close();
        }
    }

    /** Through the proxy, or (driver null) through the embedded driver on the same configuration. */
    private static Connection connect(Driver driver, boolean binary) throws SQLException {
        return driver == null ? embedded.getConnection()
                : StrataFixture.connect(strata.port(), "shop", driver, binary);
    }

    @BeforeEach
    void tables() throws SQLException {
        for (EmbeddedMariaDb server : List.of(Backend.server(), shadowServer)) {
            direct(server, "DROP TABLE IF EXISTS t_order", "DROP TABLE IF EXISTS t_user",
                    "DROP TABLE IF EXISTS t_item", "DROP TABLE IF EXISTS t_hinted",
                    "CREATE TABLE t_order (order_id INT PRIMARY KEY, user_id INT, status VARCHAR(20))",
                    "CREATE TABLE t_user (id INT PRIMARY KEY, name VARCHAR(40), age INT)",
                    "CREATE TABLE t_item (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO t_user VALUES (1, 'tester_ann', 30), (2, 'bob', 40)");
        }
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void eachAlgorithmAndOperationRoutesAsSpecified(Driver driver, boolean binary) throws SQLException {
        try (Connection c = connect(driver, binary); Statement st = c.createStatement()) {
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO t_order (order_id, user_id, status) VALUES (?, ?, ?)")) {
                for (int[] row : new int[][] {{1, 0}, {2, 7}, {3, 0}, {4, 8}}) {
                    insert.setInt(1, row[0]);
                    insert.setInt(2, row[1]);
                    insert.setString(3, row[1] == 0 ? "test" : "real");
                    assertEquals(1, insert.executeUpdate());
                }
            }
            assertEquals(2, st.executeUpdate("INSERT INTO t_order (order_id, user_id, status) VALUES "
                    + "(5, 0, 'test'), (6, '0', 'test')"));
            assertEquals(List.of(1, 3, 5, 6), orderIds(shadowServer), "insert: user_id 0 is test traffic");
            assertEquals(List.of(2, 4), orderIds(Backend.server()), "the others are production's");

            assertEquals(shadowServer.port(), port(c, "SELECT @@port, order_id FROM t_order WHERE user_id = ?", 0));
            assertEquals(Backend.server().port(), port(c, "SELECT @@port, order_id FROM t_order WHERE user_id = ?",
                    7));
            assertEquals(shadowServer.port(), port(c, "SELECT @@port FROM t_order WHERE user_id IN (0, 0) "
                    + "AND status LIKE 't%'"));
            assertEquals(shadowServer.port(), port(c, "SELECT @@port FROM t_order WHERE user_id LIKE '0'"));

            try (PreparedStatement update = c.prepareStatement("UPDATE t_user SET age = ? WHERE name = ?")) {
                update.setInt(1, 99);
                update.setString(2, "tester_ann");
                assertEquals(1, update.executeUpdate());
                update.setInt(1, 41);
                update.setString(2, "bob");
                assertEquals(1, update.executeUpdate());
            }
            assertEquals(List.of(99, 40), ages(shadowServer), "update: a tester's name is test traffic");
            assertEquals(List.of(30, 41), ages(Backend.server()));

            assertEquals(2, st.executeUpdate("DELETE FROM t_order WHERE user_id = 0 AND order_id IN (1, 3)"));
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM t_order WHERE user_id = ?")) {
                delete.setInt(1, 8);
                assertEquals(1, delete.executeUpdate());
            }
            assertEquals(List.of(5, 6), orderIds(shadowServer), "delete: user_id 0 is test traffic");
            assertEquals(List.of(2), orderIds(Backend.server()));
        }
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void aStatementHalfTestHalfProductionIsRefusedAndLandsNowhere(Driver driver, boolean binary)
            throws SQLException {
        try (Connection c = connect(driver, binary); Statement st = c.createStatement()) {
            SQLException mixed = assertThrows(SQLException.class, () -> st.executeUpdate(
                    "INSERT INTO t_order (order_id, user_id) VALUES (1, 0), (2, 7)"));
            assertEquals(1235, mixed.getErrorCode());
            assertTrue(mixed.getMessage().contains("Some values of user_id match user_id_insert_match and some "
                    + "do not"), mixed.getMessage());
            try (PreparedStatement select = c.prepareStatement("SELECT * FROM t_order WHERE user_id IN (?, ?)")) {
                select.setInt(1, 0);
                select.setInt(2, 7);
                assertEquals(1235, assertThrows(SQLException.class, select::executeQuery).getErrorCode());
            }
            SQLException expression = assertThrows(SQLException.class, () -> st.executeUpdate(
                    "INSERT INTO t_order (order_id, user_id) VALUES (3, 1 - 1)"));
            assertTrue(expression.getMessage().contains("an expression Strata does not evaluate"),
                    expression.getMessage());
            assertEquals(1, JdbcIT.queryInt(st, "SELECT 1"), "the session goes on");
        }
        assertEquals(List.of(), orderIds(shadowServer));
        assertEquals(List.of(), orderIds(Backend.server()));
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void theHintInBothSpellingsSendsAnyStatementToTheShadowSide(Driver driver, boolean binary)
            throws SQLException {
        try (Connection c = connect(driver, binary); Statement st = c.createStatement()) {
            st.execute("/* strata:shadow */ CREATE TABLE t_hinted (id INT)");
            assertEquals(List.of(false, true), exists("t_hinted"), "DDL is shadowed when hinted");
            try (PreparedStatement insert = c.prepareStatement(
                    "/* SHARDINGSPHERE_HINT: SHADOW=true */ INSERT INTO t_item VALUES (?, ?)")) {
                insert.setInt(1, 1);
                insert.setString(2, "hinted");
                insert.executeUpdate();
            }
            st.executeUpdate("INSERT INTO t_item VALUES (2, 'plain')");
            assertEquals(shadowServer.port(), port(c, "/* strata:shadow */ SELECT @@port FROM t_user WHERE id = 2"));
            st.executeUpdate("/* strata:shadow */ INSERT INTO t_order (order_id, user_id) VALUES (9, 7)");
            assertEquals(List.of(9), orderIds(shadowServer), "the hint wins over the values");
            st.execute("CREATE TABLE t_hinted (id INT)");
            assertEquals(List.of(true, true), exists("t_hinted"), "DDL without the hint is production's");
        }
        assertEquals(List.of("hinted"), items(shadowServer));
        assertEquals(List.of("plain"), items(Backend.server()));
    }

    @Test
    void showStrataRouteSaysWhereAStatementWouldGoAndWhichAlgorithmDecided() throws SQLException {
        try (Connection c = connect(Driver.MARIADB, false); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery(
                    "SHOW STRATA ROUTE INSERT INTO t_order (order_id, user_id) VALUES (1, 0)")) {
                assertTrue(rs.next());
                assertEquals("ds_shadow", rs.getString("data_source"));
                assertEquals("shadow: user_id_insert_match", rs.getString("notes"));
            }
            try (ResultSet rs = st.executeQuery("SHOW STRATA ROUTE SELECT * FROM t_order WHERE user_id IN (0, 1)")) {
                assertTrue(rs.next());
                assertEquals(null, rs.getString("data_source"));
                assertTrue(rs.getString("notes").startsWith("refused: Some values of user_id"),
                        rs.getString("notes"));
            }
        }
        assertEquals(List.of(), orderIds(shadowServer), "nothing ran");
    }

    /**
     * 12,000 statements from 6 clients, one in ten test traffic: four through the proxy in both protocols, two
     * through the embedded driver; inserts, reads, updates and deletes. Afterwards each side holds exactly its own
     * rows, and every read was answered by its own side.
     */
    @Test
    void aMixedLoadLeavesExactlyTheExpectedRowsOnEachSide() throws Exception {
        int clients = 6;
        int perClient = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<int[]>> results = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            int client = i;
            results.add(pool.submit(() -> load(client, perClient)));
        }
        int testRows = 0;
        int productionRows = 0;
        for (Future<int[]> result : results) {
            int[] kept = result.get();
            testRows += kept[0];
            productionRows += kept[1];
        }
        pool.shutdown();
        try (Connection c = shadowServer.connect(SHADOW, "strata", "strata"); Statement st = c.createStatement()) {
            assertEquals(testRows, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM t_order"));
            assertEquals(0, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM t_order WHERE user_id <> 0"),
                    "no production row on the shadow side");
        }
        try (Connection c = Backend.server().connect(PROD, "strata", "strata"); Statement st = c.createStatement()) {
            assertEquals(productionRows, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM t_order"));
            assertEquals(0, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM t_order WHERE user_id = 0"),
                    "no test row in production");
        }
    }

    /** One client's share: returns the test and production rows it leaves. */
    private static int[] load(int client, int statements) throws SQLException {
        Random random = new Random(client);
        int[] kept = new int[2];
        List<int[]> mine = new ArrayList<>(); // order id, 1 for a test row
        Driver driver = client >= 4 ? null : client % 2 == 0 ? Driver.MARIADB : Driver.MYSQL; // null: embedded
        try (Connection c = connect(driver, client < 2);
             PreparedStatement insert = c.prepareStatement(
                     "INSERT INTO t_order (order_id, user_id, status) VALUES (?, ?, 'x')");
             PreparedStatement read = c.prepareStatement(
                     "SELECT @@port, COUNT(*) FROM t_order WHERE user_id = ? AND order_id BETWEEN ? AND ?");
             PreparedStatement deleteTest = c.prepareStatement(
                     "DELETE FROM t_order WHERE user_id = 0 AND order_id = ?");
             PreparedStatement deleteProduction = c.prepareStatement("DELETE FROM t_order WHERE order_id = ?");
             Statement st = c.createStatement()) {
            int lowest = client * 1_000_000;
            for (int i = 0; i < statements; i++) {
                boolean test = random.nextInt(10) == 0;
                int userId = test ? 0 : 1 + random.nextInt(1000);
                int choice = random.nextInt(10);
                if (choice < 5 || mine.isEmpty()) {
                    insert.setInt(1, lowest + i);
                    insert.setInt(2, userId);
                    assertEquals(1, insert.executeUpdate());
                    mine.add(new int[] {lowest + i, test ? 1 : 0});
                    kept[test ? 0 : 1]++;
                } else if (choice < 8) {
                    read.setInt(1, userId);
                    read.setInt(2, lowest);
                    read.setInt(3, lowest + statements);
                    try (ResultSet rs = read.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(test ? shadowServer.port() : Backend.server().port(), rs.getInt(1));
                    }
                } else if (choice < 9) {
                    int[] row = mine.remove(random.nextInt(mine.size()));
                    PreparedStatement delete = row[1] == 1 ? deleteTest : deleteProduction;
                    delete.setInt(1, row[0]);
                    assertEquals(1, delete.executeUpdate(), "order " + row[0]);
                    kept[row[1] == 1 ? 0 : 1]--;
                } else {
                    String name = test ? "tester_" + i : "user_" + i;
                    st.executeUpdate("UPDATE t_user SET age = age + 1 WHERE name = '" + name + "'");
                }
            }
        }
        return kept;
    }

    /**
     * Statements of one transaction each keep their own side; the transaction commits (or rolls back) on both, on
     * either executor.
     */
    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clientsAndEmbedded")
    void aTransactionThatTouchedBothSidesCommitsOnBoth(Driver driver, boolean binary) throws SQLException {
        try (Connection c = connect(driver, binary); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (1, 7)");
            st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (2, 0)");
            assertEquals(List.of(), orderIds(shadowServer), "not yet committed");
            c.commit();
            assertEquals(List.of(2), orderIds(shadowServer));
            assertEquals(List.of(1), orderIds(Backend.server()));

            st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (3, 0)");
            st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (4, 9)");
            c.rollback();
            assertEquals(List.of(2), orderIds(shadowServer));
            assertEquals(List.of(1), orderIds(Backend.server()));
        }
    }

    /** The shadow side is a read/write group: test writes go to its primary, test reads to its replica. */
    @Test
    void aReadWriteGroupOnTheShadowSideSplitsTheTestTraffic() throws Exception {
        try (ReplicatedMariaDb group = ReplicatedMariaDb.start(0, 0, 1, "sh_rw", "strata", "strata")) {
            group.primary().createDatabase("sh_rw", "checker", "checker");
            group.primary().execute("sh_rw", "strata", "strata",
                    "CREATE TABLE t_order (order_id INT PRIMARY KEY, user_id INT, status VARCHAR(20))");
            Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
            dataSources.put("ds", dataSource("ds", Backend.server().jdbcUrl(PROD)));
            dataSources.put("shadow_primary", dataSource("shadow_primary", group.primary().jdbcUrl("sh_rw")));
            dataSources.put("shadow_replica", dataSource("shadow_replica",
                    group.replicas().get(0).jdbcUrl("sh_rw")));
            DatabaseConfig database = new DatabaseConfig("shoprw", dataSources, List.of(
                    new RuleConfig("READWRITE_SPLITTING", Map.of("groups", List.of(Map.of("name", "shadow_rw",
                            "writeDataSource", "shadow_primary", "readDataSources", List.of("shadow_replica"),
                            "readYourWrites", false)))),
                    rule(RULE.replace("shadowDataSourceName: ds_shadow", "shadowDataSourceName: shadow_rw"))));
            try (Strata withGroup = start(database);
                 Connection c = Driver.MARIADB.connect(withGroup.port(), "shoprw", "root", "root", new Properties());
                 Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (1, 0)");
                st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (2, 5)");
                group.awaitReplicas("checker", "checker", 30_000);
                BroadcastIT.awaitInRotation(withGroup.port(), "shoprw", 3);
                assertEquals(List.of(1), orderIds(group.primary(), "sh_rw"));
                assertEquals(List.of(2), orderIds(Backend.server()));
                assertEquals(group.replicas().get(0).port(), port(c, "SELECT @@port FROM t_order WHERE user_id = 0"));
                assertEquals(Backend.server().port(), port(c, "SELECT @@port FROM t_order WHERE user_id = 5"));
            }
        }
    }

    private static int port(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                st.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                assertTrue(rs.next(), sql);
                return rs.getInt(1);
            }
        }
    }

    private static void direct(EmbeddedMariaDb server, String... statements) throws SQLException {
        server.execute(server == shadowServer ? SHADOW : PROD, "strata", "strata", statements);
    }

    private static List<Integer> orderIds(EmbeddedMariaDb server) throws SQLException {
        return orderIds(server, server == shadowServer ? SHADOW : PROD);
    }

    private static List<Integer> orderIds(EmbeddedMariaDb server, String schema) throws SQLException {
        return ints(server, schema, "SELECT order_id FROM t_order ORDER BY order_id");
    }

    private static List<Integer> ages(EmbeddedMariaDb server) throws SQLException {
        return ints(server, server == shadowServer ? SHADOW : PROD, "SELECT age FROM t_user ORDER BY id");
    }

    private static List<Integer> ints(EmbeddedMariaDb server, String schema, String sql) throws SQLException {
        List<Integer> values = new ArrayList<>();
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getInt(1));
            }
        }
        return values;
    }

    private static List<String> items(EmbeddedMariaDb server) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = server.connect(server == shadowServer ? SHADOW : PROD, "strata", "strata");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT v FROM t_item ORDER BY id")) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private static List<Boolean> exists(String table) throws SQLException {
        List<Boolean> found = new ArrayList<>();
        for (EmbeddedMariaDb server : List.of(Backend.server(), shadowServer)) {
            found.add(!ints(server, "information_schema", "SELECT 1 FROM information_schema.tables WHERE "
                    + "table_schema = '" + (server == shadowServer ? SHADOW : PROD) + "' AND table_name = '"
                    + table + "'").isEmpty());
        }
        return found;
    }
}
