package io.strata.it;

import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.it.StrataFixture.Driver;
import io.strata.jdbc.StrataDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded driver over the sharding suite's rules and rows (two MariaDB servers), proven against MariaDB
 * Connector/J on one plain database holding the same rows: every query of the suite, as a text statement and as a
 * prepared one, gives the same column labels, types and classes and the same values, read with getObject. Where rows
 * went, and what a transaction left, is read on the servers.
 */
class EmbeddedDriverIT {

    private static final String SCHEMA_A = "em_a";
    private static final String SCHEMA_B = "em_b";
    private static final String PLAIN = "em_plain";

    private static EmbeddedMariaDb serverA;
    private static EmbeddedMariaDb serverB;
    private static StrataDataSource strata;

    @BeforeAll
    static void start() throws SQLException {
        serverA = Backend.server();
        serverA.createDatabase(SCHEMA_A, "strata", "strata");
        serverA.createDatabase(PLAIN, "strata", "strata");
        serverB = EmbeddedMariaDb.start(0);
        serverB.createDatabase(SCHEMA_B, "strata", "strata");
        strata = new StrataDataSource(StrataFixture.shop(serverA, SCHEMA_A, serverB, SCHEMA_B, ShardingIT.RULES),
                "shop");
        for (int t = 0; t < ShardingIT.LOGICAL.length; t++) {
            serverA.execute(PLAIN, "strata", "strata", "DROP TABLE IF EXISTS " + ShardingIT.LOGICAL[t],
                    ShardingIT.CREATE[t].formatted(ShardingIT.LOGICAL[t]));
        }
        try (Connection c = strata.getConnection(); Statement st = c.createStatement()) {
            for (int t = 0; t < ShardingIT.LOGICAL.length; t++) {
                st.execute("DROP TABLE IF EXISTS " + ShardingIT.LOGICAL[t]);
                st.execute(ShardingIT.CREATE[t].formatted(ShardingIT.LOGICAL[t])); // on every actual table
            }
            for (String sql : ShardingIT.load()) {
                st.executeUpdate(sql);
            }
            ShardingIT.awaitColumnsRead(st);
        }
        serverA.execute(PLAIN, "strata", "strata", ShardingIT.load().toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (serverB != null) {
            serverB.close();
        }
    }

    @ParameterizedTest(name = "prepared {0}")
    @ValueSource(booleans = {false, true})
    void everyQueryAnswersAsConnectorJOnOnePlainDatabase(boolean prepared) throws SQLException {
        List<String> queries = new ArrayList<>(ShardingIT.handWritten());
        queries.addAll(ShardingIT.generated());
        try (Connection plain = plain(prepared); Connection embedded = strata.getConnection()) {
            for (String sql : queries) {
                assertEquals(answer(plain, sql, prepared), answer(embedded, sql, prepared), sql);
            }
        }
    }

    @Test
    void parametersOfEveryCommonTypeRouteAndAnswerAsOnOnePlainDatabase() throws SQLException {
        String[] sqls = {"SELECT * FROM t_order WHERE user_id = ? AND order_id = ?",
                "SELECT order_id, amount FROM t_order WHERE user_id IN (?, ?) ORDER BY amount DESC, order_id",
                "SELECT status, COUNT(*), AVG(amount) FROM t_order WHERE order_id BETWEEN ? AND ? GROUP BY status",
                "SELECT DISTINCT note FROM t_order WHERE order_id > ? AND amount < ?",
                "SELECT SUM(amount), MIN(created), MAX(note) FROM t_order WHERE created >= ? OR user_id = ?",
                "SELECT order_id FROM t_order WHERE user_id <> ? ORDER BY order_id LIMIT ?",
                "SELECT order_id, status FROM t_order WHERE status = ? OR status IS NULL ORDER BY 1",
                // a LIMIT written in numbers: the shape is planned once, its units run prepared
                "SELECT order_id, amount FROM t_order WHERE amount > ? ORDER BY amount, order_id LIMIT 7",
                "SELECT order_id, note FROM t_order WHERE user_id <> ? ORDER BY note, order_id LIMIT 3, 5"};
        Object[][] values = {{10, 7L}, {(short) 1, 2}, {20L, 120}, {17, new BigDecimal("50.5")},
                {java.sql.Date.valueOf("2026-01-05"), (byte) 3}, {4, 9}, {"paid"}, {50}, {2}};
        try (Connection plain = plain(true); Connection embedded = strata.getConnection()) {
            for (int q = 0; q < sqls.length; q++) {
                try (PreparedStatement p = plain.prepareStatement(sqls[q]);
                     PreparedStatement e = embedded.prepareStatement(sqls[q])) {
                    for (int i = 0; i < values[q].length; i++) {
                        p.setObject(i + 1, values[q][i]);
                        e.setObject(i + 1, values[q][i]);
                    }
                    for (int run = 0; run < 2; run++) { // the second from the plan the first left
                        try (ResultSet expected = p.executeQuery(); ResultSet actual = e.executeQuery()) {
                            assertEquals(answer(sqls[q], expected), answer(sqls[q], actual),
                                    sqls[q] + " " + Arrays.asList(values[q]) + ", run " + run);
                        }
                    }
                }
            }
        }
    }

    /** A transaction over both data sources, rolled back: neither server keeps its rows; committed: both do. */
    @Test
    void aTransactionAcrossShardsEndsOnEveryDataSource() throws SQLException {
        String insert = "INSERT INTO t_order (order_id, user_id, status) VALUES (?, ?, 'tx')";
        try (Connection c = strata.getConnection(); PreparedStatement p = c.prepareStatement(insert)) {
            c.setAutoCommit(false);
            for (int user = 0; user < 2; user++) {
                p.setLong(1, 9000 + user);
                p.setInt(2, user);
                assertEquals(1, p.executeUpdate());
            }
            c.rollback();
            assertEquals(0, rowsWithStatus(serverA, SCHEMA_A, "tx") + rowsWithStatus(serverB, SCHEMA_B, "tx"));
            for (int user = 0; user < 2; user++) {
                p.setLong(1, 9000 + user);
                p.setInt(2, user);
                p.executeUpdate();
            }
            c.commit();
            c.setAutoCommit(true);
            assertEquals(1, rowsWithStatus(serverA, SCHEMA_A, "tx"), "user 0 on ds_0");
            assertEquals(1, rowsWithStatus(serverB, SCHEMA_B, "tx"), "user 1 on ds_1");
            try (Statement st = c.createStatement()) {
                st.execute("BEGIN");
                st.executeUpdate("DELETE FROM t_order WHERE status = 'tx'");
                st.execute("ROLLBACK");
                assertEquals(2, rowsWithStatus(serverA, SCHEMA_A, "tx") + rowsWithStatus(serverB, SCHEMA_B, "tx"));
                st.executeUpdate("DELETE FROM t_order WHERE status = 'tx'");
            }
            assertEquals(0, rowsWithStatus(serverA, SCHEMA_A, "tx") + rowsWithStatus(serverB, SCHEMA_B, "tx"));
        }
    }

    @Test
    void generatedKeysAndBatchesReachTheirNodes() throws SQLException {
        try (Connection c = strata.getConnection();
             PreparedStatement p = c.prepareStatement("INSERT INTO t_order_item (order_id, user_id, qty) "
                     + "VALUES (?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            p.setLong(1, 7001);
            p.setInt(2, 3);
            p.setInt(3, 1);
            assertEquals(1, p.executeUpdate());
            try (ResultSet keys = p.getGeneratedKeys()) {
                assertTrue(keys.next(), "a SNOWFLAKE key");
                assertTrue(keys.getLong(1) > 1_000_000, "a SNOWFLAKE key is large");
            }
            for (int user = 4; user < 8; user++) {
                p.setLong(1, 7002);
                p.setInt(2, user);
                p.setInt(3, 2);
                p.addBatch();
            }
            assertEquals(List.of(1, 1, 1, 1), Arrays.stream(p.executeBatch()).boxed().toList());
            try (Statement st = c.createStatement()) {
                assertEquals(5, st.executeUpdate("DELETE FROM t_order_item WHERE order_id IN (7001, 7002)"));
            }
        }
        // user 4 and 6 went to ds_0, 5 and 7 to ds_1; they are gone from both now
        assertEquals(List.of(List.of("0")), read(serverA, SCHEMA_A,
                "SELECT COUNT(*) FROM t_order_item_1 WHERE order_id IN (7001, 7002)"));
    }

    /**
     * A statement that leaves state on its connection (a user variable) pins the session to it; the state never
     * reaches another session, whose connection may be the same pooled one after the first session ends.
     */
    @Test
    void stateASessionLeavesOnItsConnectionStaysWithIt() throws SQLException {
        try (Connection first = strata.getConnection(); Statement st = first.createStatement()) {
            st.execute("SET @strata_pin = 42");
            try (ResultSet rs = st.executeQuery("SELECT @strata_pin")) {
                assertTrue(rs.next());
                assertEquals(42L, rs.getLong(1));
            }
            try (Connection other = strata.getConnection(); Statement o = other.createStatement();
                 ResultSet rs = o.executeQuery("SELECT @strata_pin")) {
                assertTrue(rs.next());
                assertEquals(null, rs.getObject(1), "another session does not see it");
            }
        }
        for (int i = 0; i < 10; i++) { // every pooled connection, the first session's among them, is clean
            try (Connection later = strata.getConnection(); Statement st = later.createStatement();
                 ResultSet rs = st.executeQuery("SELECT @strata_pin")) {
                assertTrue(rs.next());
                assertEquals(null, rs.getObject(1));
            }
        }
    }

    /** A broadcast table's change reaches every data source; a SHADOW rule sends test traffic to its shadow. */
    @Test
    void broadcastAndShadowRulesPlaceRowsAsOnTheProxy() throws SQLException {
        try (Connection c = strata.getConnection(); Statement st = c.createStatement()) {
            assertEquals(1, st.executeUpdate("INSERT INTO t_dict VALUES ('lost', 'Lost')"));
            String lost = "SELECT COUNT(*) FROM t_dict WHERE code = 'lost'";
            assertEquals(List.of(List.of("1")), read(serverA, SCHEMA_A, lost), "on ds_0");
            assertEquals(List.of(List.of("1")), read(serverB, SCHEMA_B, lost), "on ds_1");
            assertEquals(1, st.executeUpdate("DELETE FROM t_dict WHERE code = 'lost'"));
        }
        serverA.createDatabase("em_prod", "strata", "strata");
        serverB.createDatabase("em_shadow", "strata", "strata");
        serverA.execute("em_prod", "strata", "strata", "DROP TABLE IF EXISTS t_order",
                "CREATE TABLE t_order (order_id INT PRIMARY KEY, user_id INT, status VARCHAR(20))");
        serverB.execute("em_shadow", "strata", "strata", "DROP TABLE IF EXISTS t_order",
                "CREATE TABLE t_order (order_id INT PRIMARY KEY, user_id INT, status VARCHAR(20))");
        java.util.Map<String, io.strata.config.DataSourceConfig> dataSources = new java.util.LinkedHashMap<>();
        dataSources.put("ds", io.strata.config.DataSourceConfig.of("ds", serverA.jdbcUrl("em_prod"), "strata",
                "strata", java.util.Map.of()));
        dataSources.put("ds_shadow", io.strata.config.DataSourceConfig.of("ds_shadow", serverB.jdbcUrl("em_shadow"),
                "strata", "strata", java.util.Map.of()));
        io.strata.config.StrataConfig config = new io.strata.config.StrataConfig(
                io.strata.config.ServerConfig.defaults(List.of()), java.util.Map.of("shadowed",
                new io.strata.config.DatabaseConfig("shadowed", dataSources, List.of(ShadowIT.rule(ShadowIT.RULE)))));
        try (StrataDataSource shadowed = new StrataDataSource(config, null); Connection c = shadowed.getConnection();
             PreparedStatement insert = c.prepareStatement(
                     "INSERT INTO t_order (order_id, user_id, status) VALUES (?, ?, 'x')");
             PreparedStatement port = c.prepareStatement("SELECT @@port FROM t_order WHERE user_id = ?")) {
            for (int[] row : new int[][]{{1, 0}, {2, 7}, {3, 0}}) {
                insert.setInt(1, row[0]);
                insert.setInt(2, row[1]);
                assertEquals(1, insert.executeUpdate());
            }
            port.setInt(1, 0);
            try (ResultSet rs = port.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(serverB.port(), rs.getInt(1), "user 0 is test traffic: read on the shadow");
            }
            // the reads answer, text and prepared, as Connector/J on the side that holds their rows
            try (Connection prod = serverA.connect("em_prod", "strata", "strata");
                 Connection shadow = serverB.connect("em_shadow", "strata", "strata")) {
                for (boolean prepared : new boolean[]{false, true}) {
                    for (String sql : List.of("SELECT * FROM t_order WHERE user_id = 0 ORDER BY order_id",
                            "SELECT order_id, status FROM t_order WHERE user_id = 0 AND order_id > 1",
                            "SELECT COUNT(*), MAX(order_id) FROM t_order WHERE user_id = 0")) {
                        assertEquals(answer(shadow, sql, prepared), answer(c, sql, prepared), sql);
                    }
                    for (String sql : List.of("SELECT * FROM t_order WHERE user_id = 7 ORDER BY order_id",
                            "SELECT user_id, COUNT(*) FROM t_order GROUP BY user_id",
                            "SELECT status, order_id + 1 AS next_id FROM t_order WHERE order_id < 10")) {
                        assertEquals(answer(prod, sql, prepared), answer(c, sql, prepared), sql);
                    }
                }
            }
        }
        assertEquals(List.of(List.of("1"), List.of("3")), read(serverB, "em_shadow",
                "SELECT order_id FROM t_order ORDER BY order_id"));
        assertEquals(List.of(List.of("2")), read(serverA, "em_prod", "SELECT order_id FROM t_order"));
    }

    @Test
    void warningsOfAStatementOnOneShardAreTheServers() throws SQLException {
        try (Connection c = strata.getConnection(); Statement st = c.createStatement()) {
            // the row is there: IGNORE makes the duplicate key a warning (1062), in strict mode too
            assertEquals(0, st.executeUpdate("INSERT IGNORE INTO t_order (order_id, user_id, status) "
                    + "VALUES (7, 10, 'dup')"));
            assertEquals(1062, st.getWarnings().getErrorCode(), st.getWarnings().getMessage());
            assertEquals(1062, c.getWarnings().getErrorCode());
            try (ResultSet rs = st.executeQuery("SELECT 1 / 0 FROM t_order WHERE order_id = 7 AND user_id = 10")) {
                assertTrue(rs.next());
                assertEquals(1365, st.getWarnings().getErrorCode(), "division by 0");
            }
            st.executeUpdate("UPDATE t_order SET note = note WHERE order_id = 7 AND user_id = 10");
            assertEquals(null, st.getWarnings(), "a statement without warnings clears them");
            c.clearWarnings();
            assertEquals(null, c.getWarnings());
        }
    }

    @Test
    void databaseMetaDataListsLogicalTables() throws SQLException {
        try (Connection c = strata.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, null, "%", new String[]{"TABLE"})) {
                while (rs.next()) {
                    assertEquals("shop", rs.getString("TABLE_CAT"));
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            assertTrue(tables.containsAll(List.of("t_dict", "t_order", "t_order_item", "t_range", "t_single")),
                    tables.toString());
            assertFalse(tables.contains("t_order_0"), "actual tables are not listed: " + tables);
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, null, "t_order", "%")) {
                while (rs.next()) {
                    assertEquals("t_order", rs.getString("TABLE_NAME"));
                    columns.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(List.of("order_id", "user_id", "status", "amount", "note", "created"), columns);
            try (ResultSet rs = md.getPrimaryKeys(null, null, "t_order_item")) {
                assertTrue(rs.next());
                assertEquals("item_id", rs.getString("COLUMN_NAME"));
                assertEquals("t_order_item", rs.getString("TABLE_NAME"));
            }
            assertTrue(md.getDatabaseProductVersion().contains("MariaDB"));
            assertEquals("`", md.getIdentifierQuoteString());
        }
    }

    @Test
    void theDriverStartsFromAConfigFileUrl(@org.junit.jupiter.api.io.TempDir Path folder) throws Exception {
        Path file = folder.resolve("config-single.yaml");
        Files.writeString(file, """
                databaseName: single
                dataSources:
                  ds_0: { url: "%s", username: strata, password: strata }
                rules: []
                """.formatted(serverA.jdbcUrl(PLAIN)));
        try (Connection c = DriverManager.getConnection("jdbc:strata:file:" + file);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t_dict")) {
            assertTrue(rs.next());
            assertEquals(3L, rs.getObject(1));
            assertEquals("single", c.getCatalog());
            assertTrue(c.isValid(2));
            assertEquals(null, c.getWarnings());
            assertThrows(SQLFeatureNotSupportedException.class, () -> c.prepareCall("CALL p()"));
        }
        SQLException refused = assertThrows(SQLException.class, () ->
                DriverManager.getConnection("jdbc:strata:file:" + folder.resolve("config-missing.yaml")));
        assertTrue(refused.getMessage().contains("config-missing.yaml"), refused.getMessage());
    }

    /** The rows as getObject reads them, each value with its class, after the columns' labels, types and classes. */
    private static List<List<String>> answer(Connection c, String sql, boolean prepared) throws SQLException {
        try {
            if (prepared) {
                try (PreparedStatement p = c.prepareStatement(sql); ResultSet rs = p.executeQuery()) {
                    return answer(sql, rs);
                }
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                return answer(sql, rs);
            }
        } catch (SQLException e) {
            return List.of(List.of("error " + e.getErrorCode() + ": " + e.getMessage()));
        }
    }

    private static List<List<String>> answer(String sql, ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        UnaryOperator<String> normal = ShardingIT.CASE_AND_PADDING;
        List<String> header = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            header.add(meta.getColumnLabel(i) + ":" + meta.getColumnType(i) + ":" + meta.getColumnTypeName(i) + ":"
                    + meta.getColumnClassName(i) + ":" + meta.getScale(i) + ":" + meta.isNullable(i));
        }
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                Object value = rs.getObject(i);
                row.add(value == null ? null : value.getClass().getSimpleName() + ":"
                        + normal.apply(String.valueOf(value)) + (rs.wasNull() ? "!" : ""));
            }
            rows.add(row);
        }
        boolean ordered = sql.contains("ORDER BY") && (sql.contains("order_id") || sql.contains("ORDER BY id")
                || sql.contains(", 1") || sql.contains(", id") || sql.contains("ORDER BY user_id")
                || sql.contains("ORDER BY v"));
        if (!ordered) {
            rows.sort((a, b) -> String.valueOf(a).compareTo(String.valueOf(b)));
        }
        List<List<String>> answer = new ArrayList<>();
        answer.add(header);
        answer.addAll(rows);
        return answer;
    }

    private static Connection plain(boolean prepared) throws SQLException {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", String.valueOf(prepared));
        return Driver.MARIADB.connect(serverA.port(), PLAIN, "strata", "strata", props);
    }

    private static int rowsWithStatus(EmbeddedMariaDb server, String schema, String status) throws SQLException {
        int count = 0;
        for (String table : List.of("t_order_0", "t_order_1")) {
            count += Integer.parseInt(read(server, schema, "SELECT COUNT(*) FROM " + table + " WHERE status = '"
                    + status + "'").get(0).get(0));
        }
        return count;
    }

    private static List<List<String>> read(EmbeddedMariaDb server, String schema, String sql) throws SQLException {
        return ShardingIT.read(server, schema, sql);
    }
}
