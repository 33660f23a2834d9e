package io.strata.it;

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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of bench/faults.sh --strata-kills: Strata, in its own JVM as bin/start.sh runs it, is killed
 * (SIGKILL) three times under a ledger load and started again. Read on MariaDB itself afterwards, every commit Strata
 * acknowledged is there, and no transaction is there in part. Client errors are expected; lost or half writes are not.
 */
class StrataCrashIT {

    private static final int SESSIONS = 8;

    @Test
    void everyAcknowledgedCommitSurvivesStrataBeingKilledAndNoneIsHalfApplied(@TempDir Path conf) throws Exception {
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
            st.execute("DROP TABLE IF EXISTS ledger_a, ledger_b");
            st.execute("CREATE TABLE ledger_a (id BIGINT PRIMARY KEY)");
            st.execute("CREATE TABLE ledger_b (id BIGINT PRIMARY KEY)");
        }
        int port = Ports.free();
        writeConfig(conf, port);
        String url = "jdbc:mariadb://127.0.0.1:" + port + "/it?user=root&password=root&connectTimeout=2000";
        Process strata = start(conf, url);
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            long first = i * 1_000_000_000L;
            clients.add(Thread.ofPlatform().start(() -> ledger(url, first, running, acknowledged)));
        }
        try {
            for (int kill = 0; kill < 3; kill++) {
                int before = acknowledged.size();
                waitFor(() -> acknowledged.size() > before + 50, "commits through the new Strata");
                strata.destroyForcibly();
                assertTrue(strata.waitFor(30, TimeUnit.SECONDS));
                strata = start(conf, url);
            }
            int before = acknowledged.size();
            waitFor(() -> acknowledged.size() > before + 50, "commits after the last restart");
        } finally {
            running.set(false);
            for (Thread client : clients) {
                client.join(TimeUnit.SECONDS.toMillis(30));
            }
            strata.destroyForcibly();
        }
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
            Set<Long> a = ids(st, "SELECT id FROM ledger_a");
            Set<Long> b = ids(st, "SELECT id FROM ledger_b");
            assertEquals(a, b, "no transaction is half-applied");
            List<Long> missing = acknowledged.stream().filter(id -> !a.contains(id)).toList();
            assertEquals(List.of(), missing, "every acknowledged commit is on the backend");
        }
    }

    /** BEGIN; INSERT ledger_a; INSERT ledger_b; COMMIT with fresh ids, reconnecting after any failure. */
    private static void ledger(String url, long first, AtomicBoolean running, ConcurrentLinkedQueue<Long> acknowledged) {
        long id = first;
        while (running.get()) {
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                while (running.get()) {
                    long txn = id++;
                    st.execute("BEGIN");
                    st.executeUpdate("INSERT INTO ledger_a (id) VALUES (" + txn + ")");
                    st.executeUpdate("INSERT INTO ledger_b (id) VALUES (" + txn + ")");
                    st.execute("COMMIT");
                    acknowledged.add(txn);
                }
            } catch (SQLException e) {
                pause(50); // Strata is down or restarting: try again
            }
        }
    }

    private static void writeConfig(Path conf, int port) throws IOException {
        Files.writeString(conf.resolve("server.yaml"), """
                server: { host: 127.0.0.1, port: %d, executor: %s }
                users:
                  - { name: root, password: root, databases: ["*"], admin: true }
                """.formatted(port, StrataFixture.executor()));
        Files.writeString(conf.resolve("config-it.yaml"), """
                databaseName: it
                dataSources:
                  ds_0: { url: "%s", username: strata, password: strata, maximumPoolSize: 16 }
                rules: []
                """.formatted(Backend.server().jdbcUrl(Backend.SCHEMA)));
    }

    /** Strata's main class in a JVM of its own, as bin/start.sh starts it; returns once it takes logins. */
    private static Process start(Path conf, String url) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.strata.bootstrap.Main", "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(conf.resolve("strata.log").toFile()).start();
        waitFor(() -> {
            assertTrue(process.isAlive(), () -> "Strata exited: " + read(conf.resolve("strata.log")));
            try (Connection c = DriverManager.getConnection(url)) {
                return true;
            } catch (SQLException e) {
                return false;
            }
        }, "Strata taking logins");
        return process;
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void waitFor(Condition condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            pause(50);
        }
    }

    private static Set<Long> ids(Statement st, String sql) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }


    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
