package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every configuration the distribution ships in conf/examples starts with the shipped server.yaml as a user would
 * run it, once its URLs point at a server: here one MariaDB holds every schema the file names (the examples' own
 * addresses are ports of 127.0.0.1). Each then serves a statement of its rule, whose outcome is read on the server.
 */
class ShippedExamplesIT {

    private static final Path CONF = Path.of("..", "conf");
    private static final Pattern URL = Pattern.compile("jdbc:mariadb://127\\.0\\.0\\.1:\\d+/(\\w+)");

    private static EmbeddedMariaDb server;

    @BeforeAll
    static void users() {
        server = Backend.server();
        // the examples log in as app / secret, and read/write splitting's health checks as monitor / monitor
        server.createDatabase("app", "app", "secret");
        server.createDatabase("app", "monitor", "monitor");
    }

    @Test
    void everyRuleTypeHasAnExample() throws IOException {
        List<String> types = new ArrayList<>();
        try (Stream<Path> files = Files.list(CONF.resolve("examples"))) {
            for (Path file : files.sorted().toList()) {
                Matcher type = Pattern.compile("- type: (\\w+)").matcher(Files.readString(file));
                while (type.find()) {
                    types.add(type.group(1));
                }
            }
        }
        assertTrue(types.containsAll(List.of("BROADCAST", "SHADOW", "SHARDING", "SINGLE", "READWRITE_SPLITTING",
                "QUERY_ROUTING")), types.toString());
    }

    @Test
    void theShardingExampleCreatesItsTablesOnEveryNode(@TempDir Path dir) throws Exception {
        for (String schema : List.of("shop_0", "shop_1")) {
            server.createDatabase(schema, "app", "secret");
            server.execute(schema, "app", "secret", "DROP TABLE IF EXISTS t_note");
        }
        try (Strata strata = start(dir, "config-sharding.yaml"); Connection c = connect(strata, "shop");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t_order (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, status VARCHAR(10))");
            st.executeUpdate("INSERT INTO t_order (order_id, user_id, status) VALUES (1, 2, 'new'), (2, 3, 'new')");
            assertEquals(List.of("t_order_0", "t_order_1"), tables("shop_0", "t_order%"));
            assertEquals(List.of("t_order_0", "t_order_1"), tables("shop_1", "t_order%"));
            assertEquals(1, count("shop_0", "t_order_1"), "user 2 on ds_0, order 1 in t_order_1");
            assertEquals(1, count("shop_1", "t_order_0"), "user 3 on ds_1, order 2 in t_order_0");
            st.execute("CREATE TABLE t_note (id INT PRIMARY KEY)"); // a single table, on defaultDataSource ds_0
            st.executeUpdate("INSERT INTO t_note VALUES (1)");
            assertEquals(1, count("shop_0", "t_note"));
        }
    }

    @Test
    void theBroadcastExampleKeepsItsTablesWholeOnBothDataSources(@TempDir Path dir) throws Exception {
        try (Strata strata = start(dir, "config-broadcast.yaml"); Connection c = connect(strata, "shop");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t_dict (code VARCHAR(10) PRIMARY KEY)");
            assertEquals(1, st.executeUpdate("INSERT INTO t_dict VALUES ('a')"));
            assertEquals(1, count("shop_0", "t_dict"));
            assertEquals(1, count("shop_1", "t_dict"));
        }
    }

    @Test
    void theShadowExampleSendsTestRowsToTheShadow(@TempDir Path dir) throws Exception {
        for (String schema : List.of("shop", "shop_shadow")) {
            server.createDatabase(schema, "app", "secret");
            server.execute(schema, "app", "secret", "DROP TABLE IF EXISTS t_order",
                    "CREATE TABLE t_order (order_id BIGINT PRIMARY KEY, user_id INT)");
        }
        try (Strata strata = start(dir, "config-shadow.yaml"); Connection c = connect(strata, "shop");
             Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (1, 0)");
            st.executeUpdate("INSERT INTO t_order (order_id, user_id) VALUES (2, 7)");
            assertEquals(1, count("shop_shadow", "t_order"));
            assertEquals(1, count("shop", "t_order"));
        }
    }

    @Test
    void theReadWriteSplittingExampleServesWithItsReplicasOutOfRotation(@TempDir Path dir) throws Exception {
        try (Strata strata = start(dir, "config-readwrite-splitting.yaml"); Connection c = connect(strata, "app");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT DATABASE(), 1")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(2), "no server here replicates: reads go to the primary (whenNoReplica)");
        }
    }

    @Test
    void theQueryRoutingExampleRefusesWhatItsRulesRefuse(@TempDir Path dir) throws Exception {
        try (Strata strata = start(dir, "config-query-routing.yaml"); Connection c = connect(strata, "shop");
             Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
            try (ResultSet rs = st.executeQuery("SHOW STRATA QUERY RULES")) {
                int rules = 0;
                while (rs.next()) {
                    rules++;
                }
                assertTrue(rules >= 5, rules + " rules");
            }
        }
    }

    /**
     * Strata on the shipped server.yaml and one example, its URLs pointed at the test server (each schema made),
     * on a free port.
     */
    private static Strata start(Path dir, String example) throws IOException {
        Files.copy(CONF.resolve("server.yaml"), dir.resolve("server.yaml"));
        String text = Files.readString(CONF.resolve("examples").resolve(example));
        Matcher url = URL.matcher(text);
        StringBuilder local = new StringBuilder();
        while (url.find()) {
            server.createDatabase(url.group(1), "app", "secret");
            url.appendReplacement(local, Matcher.quoteReplacement(server.jdbcUrl(url.group(1))));
        }
        url.appendTail(local);
        Files.writeString(dir.resolve(example), local.toString());
        return Strata.builder().confDir(dir).port(0).start();
    }

    /** As the shipped server.yaml's administrator. */
    private static Connection connect(Strata strata, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port() + "/" + database, "root",
                "root");
    }

    private static List<String> tables(String schema, String like) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = server.connect(schema, "app", "secret"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW TABLES LIKE '" + like + "'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static int count(String schema, String table) throws SQLException {
        try (Connection c = server.connect(schema, "app", "secret"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
