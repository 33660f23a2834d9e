package io.strata.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 1,000,000-row SELECT (about 110 MB) streams through a Strata whose whole heap is 48 MB: rows are relayed with
 * back-pressure, never gathered. Strata runs as its own process (bin/start.sh's main class) so the heap limit is
 * its alone.
 */
class LargeResultIT {

    private static final int ROWS = 1_000_000;
    private static final String BIG_QUERY = "SELECT id, pad FROM big ORDER BY id";
    private static Process strata;
    private static int port;

    @BeforeAll
    static void start(@TempDir Path conf) throws Exception {
        Backend.execute("DROP TABLE IF EXISTS big",
                "CREATE TABLE big (id INT PRIMARY KEY, pad CHAR(100)) SELECT seq AS id, REPEAT('x', 100) AS pad "
                        + "FROM seq_1_to_" + ROWS);
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Files.writeString(conf.resolve("server.yaml"), """
                server: { host: 127.0.0.1, port: %d, executor: %s }
                users:
                  - { name: root, password: root, databases: ["*"] }
                """.formatted(port, StrataFixture.executor()));
        Files.writeString(conf.resolve("config-it.yaml"), """
                databaseName: it
                dataSources:
                  ds_0: { url: "%s", username: strata, password: strata, maximumPoolSize: 4 }
                rules: []
                """.formatted(Backend.server().jdbcUrl(Backend.SCHEMA)));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        strata = new ProcessBuilder(List.of(java, "-Xmx48m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), "io.strata.bootstrap.Main", "-c", conf.toString()))
                .redirectErrorStream(true).redirectOutput(conf.resolve("strata.log").toFile()).start();
        waitForPort(port);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        strata.destroy();
        strata.waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void aMillionRowsStreamThroughASmallHeap() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/it", "root", "root");
             Statement st = streaming(c)) {
            long rows = 0;
            long sum = 0;
            try (ResultSet rs = st.executeQuery(BIG_QUERY)) {
                while (rs.next()) {
                    rows++;
                    sum += rs.getInt(1);
                }
            }
            assertEquals(ROWS, rows);
            assertEquals((long) ROWS * (ROWS + 1) / 2, sum);
            assertEquals(ROWS, JdbcIT.queryInt(st, "SELECT COUNT(*) FROM big"), "and the session goes on");
        }
        assertTrue(strata.isAlive(), "Strata did not run out of memory");
    }

    @Test
    void aBackendKilledMidResultIsAnErrorAndTheSessionGoesOn() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/it", "root", "root");
             Statement st = streaming(c)) {
            long rows = 0;
            SQLException error = null;
            try (ResultSet rs = st.executeQuery(BIG_QUERY)) {
                while (rs.next()) {
                    if (++rows == 5_000) {
                        killBackendThreadRunning(BIG_QUERY);
                    }
                }
            } catch (SQLException e) {
                error = e;
            }
            assertNotNull(error, "the result was cut, so the client must hear so (read " + rows + " rows)");
            assertTrue(rows >= 5_000 && rows < ROWS, "rows before the error: " + rows);
            // The rows relayed so far ended on a packet boundary and the error followed them: the stream is intact.
            assertEquals(7, JdbcIT.queryInt(st, "SELECT 7"), "and the session goes on");
        }
        assertTrue(strata.isAlive());
    }

    /** A statement whose results stream (the driver reads 1000 rows at a time rather than all at once). */
    private static Statement streaming(Connection c) throws SQLException {
        Statement st = c.createStatement();
        st.setFetchSize(1000);
        return st;
    }

    private static void killBackendThreadRunning(String sql) throws SQLException {
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
             ResultSet rs = st.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'strata' "
                     + "AND INFO LIKE '" + sql + "%'")) {
            assertTrue(rs.next(), "the backend runs the statement");
            long id = rs.getLong(1);
            try (Statement kill = direct.createStatement()) {
                kill.execute("KILL " + id);
            }
        }
    }

    private static void waitForPort(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                if (!strata.isAlive()) {
                    throw new IllegalStateException("Strata exited with " + strata.exitValue());
                }
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("Strata did not listen on " + port);
    }
}
