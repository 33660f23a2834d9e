package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A ShardingSphere 5.5 database file as its users write it, ten data sources (schemas ss_0..ss_9 of one server), a
 * sharded pair bound in a named group, a broadcast table, single tables found with {@code *.*}, auditors, a key
 * generator and the route cache, its data sources in ShardingSphere-Proxy's and ShardingSphere-JDBC's forms, changed
 * only in its rules' tags ({@code - !SHARDING} to {@code - type: SHARDING}): Strata starts on it from a conf folder,
 * and its statements answer as one plain database holding the same rows.
 */
class ShardingSphereFileIT {

    private static final String FILE = """
            databaseName: shop
            dataSources:
            DATA_SOURCES
            rules:
              - type: SHARDING
                tables:
                  t_order:
                    actualDataNodes: ds_${0..9}.t_order
                    keyGenerateStrategy:
                      column: order_id
                      keyGeneratorName: snowflake
                    auditStrategy:
                      auditorNames: [ sharding_key_required_auditor ]
                      allowHintDisable: true
                  t_order_item:
                    actualDataNodes: ds_${0..9}.t_order_item
                bindingTables:
                  - ref_0:t_order,t_order_item
                defaultDatabaseStrategy:
                  standard:
                    shardingColumn: user_id
                    shardingAlgorithmName: database_mod
                defaultTableStrategy:
                  none:
                shardingAlgorithms:
                  database_mod:
                    type: MOD
                    props:
                      sharding-count: 10
                keyGenerators:
                  snowflake:
                    type: SNOWFLAKE
                auditors:
                  sharding_key_required_auditor:
                    type: DML_SHARDING_CONDITIONS
                shardingCache:
                  capacity: 10000
                  routeCache:
                    initialCapacity: 10000
                    maximumSize: 10000
              - type: BROADCAST
                tables:
                  - t_dict
              - type: SINGLE
                tables:
                  - "*.*"
                defaultDataSource: ds_0
            """;
    private static final String[] CREATE = {
            "CREATE TABLE t_order (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, status VARCHAR(10))",
            "CREATE TABLE t_order_item (item_id BIGINT PRIMARY KEY, order_id BIGINT NOT NULL, user_id INT NOT NULL, "
                    + "qty INT)",
            "CREATE TABLE t_dict (code VARCHAR(10) PRIMARY KEY, name VARCHAR(20))"};
    private static Strata strata;

    @BeforeAll
    static void start() throws Exception {
        StringBuilder dataSources = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            Backend.server().createDatabase("ss_" + i, "strata", "strata");
            Backend.server().execute("ss_" + i, "strata", "strata", "DROP TABLE IF EXISTS t_order",
                    "DROP TABLE IF EXISTS t_order_item", "DROP TABLE IF EXISTS t_dict",
                    "DROP TABLE IF EXISTS t_merchant");
            // as ShardingSphere-Proxy's files write them, and ShardingSphere-JDBC's for the odd ones
            dataSources.append("  ds_").append(i).append(":\n").append(i % 2 == 0
                    ? "    url: \"" + Backend.server().jdbcUrl("ss_" + i) + "\"\n"
                    + "    connectionTimeoutMilliseconds: 30000\n    idleTimeoutMilliseconds: 60000\n"
                    + "    maxLifetimeMilliseconds: 1800000\n    minPoolSize: 1\n"
                    : "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n"
                    + "    driverClassName: com.mysql.cj.jdbc.Driver\n"
                    + "    jdbcUrl: \"" + Backend.server().jdbcUrl("ss_" + i) + "\"\n")
                    .append("    username: strata\n    password: strata\n    maxPoolSize: 4\n");
        }
        Backend.server().createDatabase("ss_plain", "strata", "strata");
        Backend.server().execute("ss_plain", "strata", "strata", "DROP TABLE IF EXISTS t_order",
                "DROP TABLE IF EXISTS t_order_item", "DROP TABLE IF EXISTS t_dict", "DROP TABLE IF EXISTS t_merchant",
                CREATE[0], CREATE[1], CREATE[2], "CREATE TABLE t_merchant (id INT PRIMARY KEY, name VARCHAR(20))");
        // a single table, made on its data source before Strata starts, as a schema moved over holds them
        Backend.server().execute("ss_3", "strata", "strata",
                "CREATE TABLE t_merchant (id INT PRIMARY KEY, name VARCHAR(20))");
        Path conf = Files.createTempDirectory("strata-ss-file");
        Files.writeString(conf.resolve("server.yaml"), """
                server: { host: 127.0.0.1, port: 3307 }
                users:
                  - { name: root, password: root, databases: ["*"], admin: true }
                """);
        Files.writeString(conf.resolve("config-shop.yaml"), FILE.replace("DATA_SOURCES\n", dataSources.toString()));
        strata = Strata.builder().confDir(conf).port(0).start();
        List<String> load = new ArrayList<>(List.of(CREATE));
        StringBuilder orders = new StringBuilder("INSERT INTO t_order (order_id, user_id, status) VALUES ");
        StringBuilder items = new StringBuilder("INSERT INTO t_order_item (item_id, order_id, user_id, qty) VALUES ");
        for (int i = 1; i <= 60; i++) {
            orders.append(i == 1 ? "" : ", ").append("(").append(i).append(", ").append(i % 17).append(", '")
                    .append(i % 3 == 0 ? "paid" : "new").append("')");
            items.append(i == 1 ? "" : ", ").append("(").append(i).append(", ").append(i).append(", ")
                    .append(i % 17).append(", ").append(i % 4).append(")");
        }
        load.addAll(List.of(orders.toString(), items.toString(), "INSERT INTO t_dict VALUES ('new', 'New'), "
                + "('paid', 'Paid')", "INSERT INTO t_merchant VALUES (1, 'one'), (2, 'two')"));
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String sql : load) {
                st.execute(sql);
            }
        }
        load.removeAll(List.of(CREATE));
        Backend.server().execute("ss_plain", "strata", "strata", load.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
    }

    private static Connection connect() throws SQLException {
        return StrataFixture.connect(strata.port(), "shop", Driver.MARIADB, false);
    }

    @Test
    void itsStatementsAnswerAsOnePlainDatabase() throws SQLException {
        List<String> statements = List.of(
                "SELECT * FROM t_order WHERE user_id = 5 ORDER BY order_id",
                "SELECT user_id, COUNT(*), MIN(order_id) FROM t_order WHERE user_id IN (1, 2, 3) GROUP BY user_id "
                        + "ORDER BY user_id",
                "SELECT o.order_id, i.qty, d.name FROM t_order o JOIN t_order_item i ON i.user_id = o.user_id "
                        + "AND i.order_id = o.order_id JOIN t_dict d ON d.code = o.status WHERE o.user_id = 4 "
                        + "ORDER BY o.order_id",
                "SELECT status, COUNT(*) FROM t_order WHERE user_id BETWEEN 0 AND 16 GROUP BY status ORDER BY status",
                "SELECT * FROM t_dict ORDER BY code",
                "SELECT m.name FROM t_merchant m WHERE m.id = 2",
                "SELECT d.name, COUNT(*) FROM t_merchant m JOIN t_dict d ON d.code <> m.name GROUP BY d.name "
                        + "ORDER BY d.name");
        try (Connection sharded = connect();
             Connection plain = Backend.server().connect("ss_plain", "strata", "strata")) {
            for (String sql : statements) {
                assertEquals(answer(plain, sql), answer(sharded, sql), sql);
            }
        }
        assertEquals(2, count("ss_3", "t_merchant"), "the single table's rows are where it was found");
        assertEquals(60, rows("t_order"), "every order on the data source its user_id names");
    }

    private static List<String> answer(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.append(meta.getColumnLabel(i)).append('=').append(rs.getString(i)).append(' ');
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** The orders on the servers, each checked to be on the data source user_id % 10 names. */
    private static int rows(String table) throws SQLException {
        int total = 0;
        for (int i = 0; i < 10; i++) {
            try (Connection c = Backend.server().connect("ss_" + i, "strata", "strata");
                 Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(user_id % 10 <> " + i + ") FROM " + table)) {
                rs.next();
                assertEquals(0, rs.getInt(2), "rows of another data source on ss_" + i);
                total += rs.getInt(1);
            }
        }
        return total;
    }

    private static int count(String schema, String table) throws SQLException {
        try (Connection c = Backend.server().connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
