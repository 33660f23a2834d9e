package io.strata.it;

import io.strata.bootstrap.Strata;
import org.junit.jupiter.api.AfterEach;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live reload: every kind of change to the conf folder, applied by RELOAD STRATA CONFIG while clients run
 * transactions, with no client error and no connection closed; a transaction in flight finishes on the data source it
 * began on; retired pools close once drained. What ran where is read on the backend: three schemas of one MariaDB
 * stand for three servers, each with a marker row naming it.
 */
class ReloadIT {

    private static final List<String> SCHEMAS = List.of("reload_a", "reload_b", "reload_c");

    @TempDir
    Path conf;
    private Strata strata;

    @BeforeAll
    static void schemas() throws SQLException {
        for (String schema : SCHEMAS) {
            Backend.execute("CREATE DATABASE IF NOT EXISTS " + schema,
                    "CREATE TABLE IF NOT EXISTS " + schema + ".marker (id INT PRIMARY KEY, v VARCHAR(20))",
                    "REPLACE INTO " + schema + ".marker VALUES (1, '" + schema + "')",
                    "CREATE TABLE IF NOT EXISTS " + schema + ".writes (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
                            + "txn BIGINT, tag VARCHAR(20))",
                    "TRUNCATE TABLE " + schema + ".writes");
        }
    }

    @AfterEach
    void stop() {
        if (strata != null) {
            strata.close();
        }
    }

    @Test
    void everyKindOfChangeAppliesUnderLoadWithNoClientErrorAndNoConnectionClosed() throws Exception {
        writeServer("");
        writeApp(dataSources("ds_0", "reload_a"), "[]");
        strata = Strata.builder().confDir(conf).port(0).start();
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> committed = new ConcurrentLinkedQueue<>();
        AtomicLong txns = new AtomicLong();
        List<Connection> clients = new ArrayList<>();
        List<Thread> load = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Connection c = connect("app", "app");
            clients.add(c);
            load.add(Thread.ofPlatform().name("reload-load-" + i).start(() -> transactions(c, running, txns,
                    committed, errors)));
        }
        try (Connection admin = connect("root", "root"); Statement st = admin.createStatement();
             Connection open = connect("app", "app"); Statement tx = open.createStatement()) {
            awaitCommits(committed, 20);
            assertEquals("reload_a", marker(tx));

            // a data source re-pointed, while a transaction is open on it
            tx.execute("BEGIN");
            tx.executeUpdate("INSERT INTO writes (txn, tag) VALUES (-1, 'before')");
            writeApp(dataSources("ds_0", "reload_b"), "[]");
            assertEquals(List.of("config-app.yaml: dataSources changed [ds_0]"), reload(st));
            tx.executeUpdate("INSERT INTO writes (txn, tag) VALUES (-1, 'after')");
            tx.execute("COMMIT");
            assertEquals(Map.of("reload_a", 2), rowsOf(-1), "the open transaction finished where it began");
            assertEquals("reload_b", marker(tx), "the next statement runs under the new configuration");
            awaitCommits(committed, committed.size() + 20);

            // a data source and a query rule added
            String toC = "[ { type: QUERY_ROUTING, rules: [ { name: markers, pattern: \"(?i)^select v from marker\","
                    + " dataSource: ds_1 } ] } ]";
            writeApp(dataSources("ds_0", "reload_b", "ds_1", "reload_c"), toC);
            assertEquals(List.of("config-app.yaml: dataSources added [ds_1]",
                    "config-app.yaml: rules[0] (QUERY_ROUTING) added"), reload(st));
            assertEquals("reload_c", marker(tx));

            // the query rule's action changed
            writeApp(dataSources("ds_0", "reload_b", "ds_1", "reload_c"), toC.replace("ds_1 }", "ds_0 }"));
            assertEquals(List.of("config-app.yaml: rules[0] (QUERY_ROUTING) changed"), reload(st));
            assertEquals("reload_b", marker(tx));

            // a user added
            assertEquals(1045, assertThrows(SQLException.class, () -> connect("late", "late")).getErrorCode());
            writeServer("  - { name: late, password: late, databases: [app] }\n");
            assertEquals(List.of("server.yaml: users added [late]"), reload(st));
            try (Connection late = connect("late", "late"); Statement s = late.createStatement()) {
                assertEquals("reload_b", marker(s));
            }

            // a mistake: refused whole, the running configuration stays
            Files.writeString(conf.resolve("config-app.yaml"), Files.readString(conf.resolve("config-app.yaml"))
                    .replace("rules:", "rulez:"));
            SQLException refused = assertThrows(SQLException.class, () -> reload(st));
            assertEquals(1105, refused.getErrorCode());
            assertTrue(refused.getMessage().contains("Configuration refused, the running one stays")
                    && refused.getMessage().contains("config-app.yaml") && refused.getMessage().contains("rulez"),
                    refused.getMessage());
            assertEquals("reload_b", marker(tx));
            Map<String, String> status = configStatus(st);
            assertEquals("5", status.get("version"));
            assertTrue(status.get("last_refused").contains("rulez"), status.toString());

            // the rule, the added data source and the user removed
            writeServer("");
            writeApp(dataSources("ds_0", "reload_b"), "[]");
            assertEquals(List.of("server.yaml: users removed [late]", "config-app.yaml: dataSources removed [ds_1]",
                    "config-app.yaml: rules[0] (QUERY_ROUTING) removed"), reload(st));
            assertEquals(1045, assertThrows(SQLException.class, () -> connect("late", "late")).getErrorCode());
            assertEquals("reload_b", marker(tx));
            awaitCommits(committed, committed.size() + 20);
            assertEquals("6", configStatus(st).get("version"));

            // the pools of the old settings drained and closed: nothing of Strata's is left on them
            await(() -> backendConnections("reload_a") == 0 && backendConnections("reload_c") == 0,
                    "the retired pools closed");
        } finally {
            running.set(false);
            for (Thread thread : load) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
        assertEquals(List.of(), List.copyOf(errors), "no client saw an error");
        for (Connection c : clients) {
            assertTrue(c.isValid(2), "no client connection was closed");
            c.close();
        }
        Map<Long, Map<String, Integer>> where = new HashMap<>();
        for (String schema : SCHEMAS) {
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
                 ResultSet rs = st.executeQuery("SELECT txn, COUNT(*) FROM " + schema + ".writes WHERE txn > 0 "
                         + "GROUP BY txn")) {
                while (rs.next()) {
                    where.computeIfAbsent(rs.getLong(1), t -> new HashMap<>()).put(schema, rs.getInt(2));
                }
            }
        }
        for (long txn : committed) {
            Map<String, Integer> rows = where.get(txn);
            assertTrue(rows != null && rows.size() == 1 && rows.values().iterator().next() == 2,
                    "transaction " + txn + " wrote both its rows on one data source: " + rows);
        }
        assertTrue(where.values().stream().anyMatch(rows -> rows.containsKey("reload_a"))
                && where.values().stream().anyMatch(rows -> rows.containsKey("reload_b")),
                "the load ran under both data sources' settings");
    }

    @Test
    void onlyAdministratorsReloadAndAServerBuiltFromRecordsSaysItCannot() throws Exception {
        writeServer("");
        writeApp(dataSources("ds_0", "reload_a"), "[]");
        strata = Strata.builder().confDir(conf).port(0).start();
        try (Connection c = connect("app", "app"); Statement st = c.createStatement()) {
            assertEquals(1227, assertThrows(SQLException.class, () -> st.execute("RELOAD STRATA CONFIG"))
                    .getErrorCode());
        }
        try (Connection c = connect("root", "root"); Statement st = c.createStatement()) {
            assertEquals(List.of("nothing changed"), reload(st));
            writeServer("", "port: 3399");
            try (ResultSet rs = st.executeQuery("RELOAD STRATA CONFIG")) {
                assertTrue(rs.next());
                assertEquals("server.port changed in the file", rs.getString("change"));
                assertEquals("at the next start", rs.getString("applied"));
            }
            assertEquals("server.port", configStatus(st).get("pending_restart"));
        }
        try (StrataFixture records = StrataFixture.start(); Connection c = records.connect(StrataFixture.Driver.MARIADB);
             Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.execute("RELOAD STRATA CONFIG"));
            assertEquals(1235, e.getErrorCode());
            assertTrue(e.getMessage().contains("configuration records"), e.getMessage());
        }
    }

    @Test
    void sighupAndAWatchedFolderReloadAServerProcess() throws Exception {
        int port = Ports.free();
        writeServer("", "port: " + port);
        writeApp(dataSources("ds_0", "reload_a"), "[]");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.strata.bootstrap.Main", "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(conf.resolve("strata.log").toFile()).start();
        try {
            String url = "jdbc:mariadb://127.0.0.1:" + port + "/app?user=root&password=root";
            await(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError("Strata exited: " + Files.readString(conf.resolve("strata.log")));
                }
                try (Connection c = DriverManager.getConnection(url)) {
                    return true;
                } catch (SQLException e) {
                    return false;
                }
            }, "Strata taking logins");
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                writeApp(dataSources("ds_0", "reload_b"), "[]");
                new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).inheritIO().start().waitFor();
                await(() -> "2".equals(configStatus(st).get("version")), "the SIGHUP reload");
                assertEquals("SIGHUP", configStatus(st).get("loaded_by"));
                assertEquals("reload_b", marker(st));

                writeServer("", "port: " + port + ", watchConfig: true");
                new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).inheritIO().start().waitFor();
                await(() -> "3".equals(configStatus(st).get("version")), "watchConfig switched on");
                writeApp(dataSources("ds_0", "reload_c"), "[]");
                long changed = System.nanoTime();
                await(() -> "4".equals(configStatus(st).get("version")), "the watched change");
                assertTrue(System.nanoTime() - changed < TimeUnit.SECONDS.toNanos(3),
                        "picked up within two seconds (and the time to ask)");
                assertTrue(configStatus(st).get("loaded_by").startsWith("a change to"));
                assertEquals("reload_c", marker(st));
                assertTrue(c.isValid(2), "the session lived through every reload");
            }
        } finally {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** BEGIN; two INSERTs around a read; COMMIT; then a read outside; until stopped. */
    private static void transactions(Connection c, AtomicBoolean running, AtomicLong txns,
                                     ConcurrentLinkedQueue<Long> committed, ConcurrentLinkedQueue<Throwable> errors) {
        try (Statement st = c.createStatement()) {
            while (running.get()) {
                long txn = txns.incrementAndGet();
                st.execute("BEGIN");
                st.executeUpdate("INSERT INTO writes (txn, tag) VALUES (" + txn + ", 'first')");
                marker(st);
                st.executeUpdate("INSERT INTO writes (txn, tag) VALUES (" + txn + ", 'second')");
                st.execute("COMMIT");
                committed.add(txn);
                marker(st);
            }
        } catch (Throwable e) {
            errors.add(e);
        }
    }

    private static String marker(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT v FROM marker WHERE id = 1")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** RELOAD STRATA CONFIG: the changes it reports. */
    private static List<String> reload(Statement st) throws SQLException {
        List<String> changes = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("RELOAD STRATA CONFIG")) {
            while (rs.next()) {
                changes.add(rs.getString("change"));
            }
        }
        return changes;
    }

    private static Map<String, String> configStatus(Statement st) throws SQLException {
        Map<String, String> items = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery("SHOW STRATA CONFIG")) {
            while (rs.next()) {
                items.put(rs.getString("item"), rs.getString("value"));
            }
        }
        return items;
    }

    /** Rows of a transaction id, by schema, read on the backend. */
    private static Map<String, Integer> rowsOf(long txn) throws SQLException {
        Map<String, Integer> rows = new HashMap<>();
        for (String schema : SCHEMAS) {
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + schema + ".writes WHERE txn = " + txn)) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    rows.put(schema, rs.getInt(1));
                }
            }
        }
        return rows;
    }

    /** Strata's connections in a schema, as the server lists them. */
    private static int backendConnections(String schema) throws SQLException {
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = "
                     + "'strata' AND DB = '" + schema + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port() + "/app?user=" + user
                + "&password=" + password);
    }

    private void writeServer(String moreUsers) throws IOException {
        writeServer(moreUsers, "port: 3307");
    }

    private void writeServer(String moreUsers, String serverKeys) throws IOException {
        Files.writeString(conf.resolve("server.yaml"), """
                server: { host: 127.0.0.1, %s, executor: %s }
                users:
                  - { name: root, password: root, databases: ["*"], admin: true }
                  - { name: app, password: app, databases: [app] }
                %s""".formatted(serverKeys, StrataFixture.executor(), moreUsers));
    }

    private void writeApp(String dataSources, String rules) throws IOException {
        Files.writeString(conf.resolve("config-app.yaml"), """
                databaseName: app
                dataSources:
                %s
                rules: %s
                """.formatted(dataSources, rules));
    }

    /** name, schema, name, schema...: data sources on the test's MariaDB, each in its own schema. */
    private static String dataSources(String... namesAndSchemas) {
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < namesAndSchemas.length; i += 2) {
            yaml.append("  ").append(namesAndSchemas[i]).append(": { url: \"")
                    .append(Backend.server().jdbcUrl(namesAndSchemas[i + 1]))
                    .append("\", username: strata, password: strata, maximumPoolSize: 8 }\n");
        }
        return yaml.toString().stripTrailing();
    }

    private static void awaitCommits(ConcurrentLinkedQueue<Long> committed, int atLeast) throws Exception {
        await(() -> committed.size() >= atLeast, atLeast + " commits");
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(Condition condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(50);
        }
    }

}
