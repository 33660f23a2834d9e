package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.config.LimitsConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A graceful stop ({@link Strata#stop}, what SIGTERM and bin/stop.sh do): no new connections, a running statement is
 * answered whole, an open transaction may still commit, idle sessions go at once; read from the backend's rows.
 */
class GracefulStopIT {

    @Test
    void aStopLetsRunningStatementsAndOpenTransactionsFinish() throws Exception {
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(),
                "strata");
        Strata strata = Strata.builder().config(new StrataConfig(defaults.server().withLimits(
                new LimitsConfig(0, 0, 10_000, 5_000)), defaults.databases())).start();
        try (Connection setup = Backend.direct(); Statement st = setup.createStatement()) {
            st.execute("DROP TABLE IF EXISTS stop_ledger");
            st.execute("CREATE TABLE stop_ledger (id INT PRIMARY KEY)");
        }
        Connection running = StrataFixture.connect(strata.port(), "it", Driver.MARIADB, false);
        Connection inTransaction = StrataFixture.connect(strata.port(), "it", Driver.MYSQL, false);
        Connection idle = StrataFixture.connect(strata.port(), "it", Driver.MARIADB, false);
        try {
            inTransaction.setAutoCommit(false);
            try (Statement st = inTransaction.createStatement()) {
                st.executeUpdate("INSERT INTO stop_ledger VALUES (1)");
            }
            // threads of their own: the common pool may have a single thread on a 2-core machine
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
            CompletableFuture<Integer> sleep = CompletableFuture.supplyAsync(() -> {
                try (Statement st = running.createStatement(); ResultSet rs = st.executeQuery(
                        "SELECT SLEEP(1.5), 42")) {
                    rs.next();
                    return rs.getInt(2);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
            Thread.sleep(200); // the SLEEP is running
            long started = System.nanoTime();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(strata::stop, threads);
            Thread.sleep(300);
            assertThrows(SQLException.class, () -> StrataFixture.connect(strata.port(), "it", Driver.MARIADB, false),
                    "no new connections once the stop began");
            assertThrows(SQLException.class, () -> idle.createStatement().executeQuery("SELECT 1"),
                    "an idle session is closed at once");
            try (Statement st = inTransaction.createStatement()) {
                st.executeUpdate("INSERT INTO stop_ledger VALUES (2)"); // the open transaction goes on
            }
            inTransaction.commit();
            assertEquals(42, sleep.get(5, TimeUnit.SECONDS), "the running statement was answered whole");
            stopping.get(5, TimeUnit.SECONDS);
            threads.shutdown();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(millis < 4000, "stopped once the work was done, not at the 5 s timeout: " + millis);
            assertThrows(SQLException.class, () -> inTransaction.createStatement().executeQuery("SELECT 1"),
                    "the session closed at the boundary after COMMIT");
            try (Connection check = Backend.direct(); Statement st = check.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM stop_ledger")) {
                rs.next();
                assertEquals(2, rs.getInt(1), "the transaction committed whole");
            }
        } finally {
            running.close();
            inTransaction.close();
            idle.close();
            strata.close();
        }
    }
}
