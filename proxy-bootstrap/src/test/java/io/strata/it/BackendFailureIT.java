package io.strata.it;

import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A backend that dies gives clients a clear error at once, not a hang; when it is back, so is service. */
class BackendFailureIT {

    private static EmbeddedMariaDb backend;
    private static StrataFixture strata;

    @BeforeAll
    static void start() {
        backend = EmbeddedMariaDb.start(0);
        backend.createDatabase(Backend.SCHEMA, "strata", "strata");
        strata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, backend, Map.of("connectionTimeout", 3000));
    }

    @AfterAll
    static void stop() {
        strata.close();
        backend.close();
    }

    @Test
    void aDeadBackendIsAClearErrorAndServiceReturnsWithIt() throws Exception {
        try (Connection client = strata.connect(Driver.MARIADB); Statement st = client.createStatement()) {
            assertEquals(1, JdbcIT.queryInt(st, "SELECT 1"));
            backend.stop();
            SQLException down = assertTimeoutPreemptively(Duration.ofSeconds(15),
                    () -> assertThrows(SQLException.class, () -> st.executeQuery("SELECT 1").close()));
            assertTrue(down.getErrorCode() == 1429 || down.getErrorCode() == 1430, down.toString());
            assertTrue(down.getMessage().contains("backend data source 'ds_0' of database 'it'"), down.getMessage());
            backend.restart();
            assertEquals(2, JdbcIT.queryInt(st, "SELECT 2"), "the same client session works again");
        }
        try (Connection fresh = strata.connect(Driver.MYSQL); Statement st = fresh.createStatement()) {
            assertEquals(3, JdbcIT.queryInt(st, "SELECT 3"));
        }
    }

    /**
     * The mariadb command-line client prints Strata's error for a dead backend as the server error it is: a code of
     * the client library's own range (2003) read as "Received malformed packet" there. Debian's mariadb-client has
     * the program; CI installs it.
     */
    @Test
    void aDeadBackendReadsInTheMariadbClientAsAServerError() throws Exception {
        Path cli = Path.of("/usr/bin/mariadb");
        Assumptions.assumeTrue(Files.isExecutable(cli), "the mariadb client is not installed (apt-get install "
                + "mariadb-client): skipped");
        backend.stop();
        try {
            Process process = new ProcessBuilder(cli.toString(), "-h127.0.0.1", "-P" + strata.port(), "-uroot",
                    "-proot", "--skip-ssl", "-e", "SELECT 1", "it").redirectErrorStream(true).start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the client ended");
            assertEquals(1, process.exitValue(), out);
            assertTrue(out.contains("ERROR 1429 (HY000) at line 1: Can't connect to backend data source 'ds_0' of "
                    + "database 'it'"), out);
            assertFalse(out.contains("malformed"), out);
        } finally {
            backend.restart();
        }
    }

    @Test
    void aTransactionCutByABackendDeathFailsAndTheSessionGoesOn() throws Exception {
        try (Connection client = strata.connect(Driver.MARIADB); Statement st = client.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS cut (v INT)");
            client.setAutoCommit(false);
            st.executeUpdate("INSERT INTO cut VALUES (1)");
            backend.stop();
            assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO cut VALUES (2)"));
            backend.restart();
            client.setAutoCommit(true);
            assertEquals(0, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM cut"), "nothing half-committed");
        }
    }

    /**
     * The short version of bench/faults.sh --backend-kills: sessions reading and writing while the backend is killed
     * (SIGKILL) and started again. Every error a client sees names the data source and is one of the two a lost
     * server gives (1429 cannot connect, 1430 lost mid-statement); no client waits past the timeouts; no session,
     * busy or idle, loses its connection to Strata; service is back within 5 s of the server.
     */
    @Test
    void aBackendKilledUnderLoadFailsOnlyItsStatementsAndEverySessionGoesOn() throws Exception {
        try (Connection setup = strata.connect(Driver.MARIADB); Statement st = setup.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS killed (id INT PRIMARY KEY AUTO_INCREMENT, v INT)");
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        ConcurrentLinkedQueue<SQLException> errors = new ConcurrentLinkedQueue<>();
        List<Connection> idle = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            idle.add(strata.connect(Driver.MARIADB));
        }
        ExecutorService clients = Executors.newFixedThreadPool(8);
        List<Future<?>> load = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            boolean writer = t % 2 == 0;
            load.add(clients.submit(() -> {
                try (Connection c = strata.connect(Driver.MARIADB); Statement st = c.createStatement()) {
                    while (running.get()) {
                        try {
                            if (writer) {
                                st.execute("BEGIN");
                                st.executeUpdate("INSERT INTO killed (v) VALUES (1)");
                                st.execute("COMMIT");
                            } else {
                                JdbcIT.queryInt(st, "SELECT COUNT(*) FROM killed");
                            }
                            answered.incrementAndGet();
                        } catch (SQLException e) {
                            errors.add(e);
                            Thread.sleep(20);
                        }
                    }
                    assertTrue(c.isValid(5), "the session survived");
                }
                return null;
            }));
        }
        try {
            Thread.sleep(1000);
            ServerProcess.of(backend).kill();
            Thread.sleep(1000);
            backend.restart();
            long back = System.nanoTime();
            // a new client each try: with executor: jdbc the driver's own start-up statements reach the backend too
            while (true) {
                try (Connection probe = strata.connect(Driver.MARIADB); Statement st = probe.createStatement()) {
                    JdbcIT.queryInt(st, "SELECT COUNT(*) FROM killed");
                    break;
                } catch (SQLException e) {
                    assertTrue(System.nanoTime() - back < TimeUnit.SECONDS.toNanos(5),
                            "serving again within 5 s of the backend: " + e);
                    Thread.sleep(50);
                }
            }
            int atReturn = answered.get();
            Thread.sleep(1000);
            running.set(false);
            for (Future<?> client : load) {
                client.get(30, TimeUnit.SECONDS); // no hang, and each session still valid
            }
            assertTrue(answered.get() > atReturn, "statements answered again after the backend came back");
        } finally {
            running.set(false);
            clients.shutdownNow();
        }
        assertFalse(errors.isEmpty(), "the kill was seen");
        for (SQLException e : errors) {
            assertTrue(e.getErrorCode() == 1429 || e.getErrorCode() == 1430, e.toString());
            assertTrue(e.getMessage().contains("backend data source 'ds_0' of database 'it'"), e.getMessage());
        }
        for (Connection c : idle) {
            try (c; Statement st = c.createStatement()) {
                assertTrue(JdbcIT.queryInt(st, "SELECT COUNT(*) FROM killed") > 0, "an idle session is untouched");
            }
        }
    }
}
