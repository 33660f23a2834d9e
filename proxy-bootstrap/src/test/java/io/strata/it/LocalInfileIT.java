package io.strata.it;

import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LOAD DATA LOCAL INFILE through Strata: the relay executor passes the client's file to the backend as it comes; the
 * JDBC executor refuses it (its driver would read the file from Strata's disk). Never does a file on Strata's host
 * reach a table.
 */
class LocalInfileIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() throws Exception {
        Backend.execute("DROP TABLE IF EXISTS loaded", "CREATE TABLE loaded (id INT PRIMARY KEY, name VARCHAR(20))");
        strata = StrataFixture.start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    /**
     * TRUNCATE is DDL: InnoDB may refuse it with a deadlock or lock-wait error (1213, 1205) while its background
     * threads still work on the table a test filled, and its advice is to try again. Any other error, or a third
     * refusal, fails the test with what the server was running at the time.
     */
    @BeforeEach
    void empty() throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                Backend.execute("TRUNCATE TABLE loaded");
                return;
            } catch (SQLException e) {
                boolean tryAgain = e.getErrorCode() == 1213 || e.getErrorCode() == 1205;
                if (!tryAgain || attempt == 3) {
                    throw new SQLException("TRUNCATE TABLE loaded failed (" + e.getErrorCode() + ", attempt " + attempt
                            + "); the server was running: " + processlist(), e);
                }
                System.err.println("LocalInfileIT: TRUNCATE refused (" + e.getMessage() + "), trying again");
                Thread.sleep(200);
            }
        }
    }

    private static String processlist() {
        try (Connection direct = Backend.direct(); Statement statement = direct.createStatement();
             ResultSet rows = statement.executeQuery("SELECT ID, USER, COMMAND, TIME, STATE, LEFT(INFO, 80) "
                     + "FROM information_schema.PROCESSLIST")) {
            StringBuilder list = new StringBuilder();
            while (rows.next()) {
                list.append("\n  ").append(rows.getLong(1)).append(' ').append(rows.getString(2)).append(' ')
                        .append(rows.getString(3)).append(' ').append(rows.getLong(4)).append("s ")
                        .append(rows.getString(5)).append(": ").append(rows.getString(6));
            }
            return list.toString();
        } catch (SQLException e) {
            return "(cannot list: " + e.getMessage() + ")";
        }
    }

    private static boolean relay() {
        return StrataFixture.executor().equals(ServerConfig.RELAY);
    }

    private static Properties localFiles(Driver driver) {
        Properties props = new Properties();
        props.setProperty(driver == Driver.MYSQL ? "allowLoadLocalInfile" : "allowLocalInfile", "true");
        return props;
    }

    private static String load(Path file) {
        return "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE loaded FIELDS TERMINATED BY ','";
    }

    private static int count(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM loaded")) {
            assertTrue(rows.next());
            return rows.getInt(1);
        }
    }

    /**
     * The JDBC executor refuses LOCAL loads (4166) and the table stays empty: checked there, and true, as a test has
     * nothing more to see on that executor.
     */
    private static boolean refusedByTheJdbcExecutor(Statement statement, Path file) throws SQLException {
        if (relay()) {
            return false;
        }
        SQLException refused = assertThrows(SQLException.class, () -> statement.execute(load(file)));
        assertEquals(4166, refused.getErrorCode(), refused.getMessage());
        assertEquals(0, count(statement));
        return true;
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void theClientsFileIsLoaded(Driver driver, @TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("rows.csv"), "1,one\n2,two\n3,three\n");
        try (Connection connection = strata.connect(driver, "it", "root", "root", localFiles(driver));
             Statement statement = connection.createStatement()) {
            if (refusedByTheJdbcExecutor(statement, file)) {
                return;
            }
            assertEquals(3, statement.executeUpdate(load(file)));
            try (ResultSet rows = statement.executeQuery("SELECT id, name FROM loaded ORDER BY id")) {
                for (String name : new String[] {"one", "two", "three"}) {
                    assertTrue(rows.next());
                    assertEquals(name, rows.getString(2));
                }
            }
            // the session goes on, on a backend connection that is as good as before
            assertEquals(0, statement.executeUpdate(load(Files.writeString(dir.resolve("none.csv"), ""))));
            assertEquals(3, count(statement));
        }
    }

    /** About 45 MB in packets of the driver's size: the backend's socket fills, and reading the client waits for it. */
    @Test
    void aLargeFileStreamsThrough(@TempDir Path dir) throws Exception {
        Path file = largeFile(dir);
        try (Connection connection = strata.connect(Driver.MARIADB, "it", "root", "root", localFiles(Driver.MARIADB));
             Statement statement = connection.createStatement()) {
            if (refusedByTheJdbcExecutor(statement, file)) {
                return;
            }
            assertEquals(2_000_000, statement.executeUpdate(load(file)));
            assertEquals(2_000_000, count(statement));
        }
    }

    /**
     * The backend connection is killed while the client sends its file: the rest of the file is dropped (it is not
     * taken for commands), the client hears the error after its last packet, and its next statement runs.
     */
    @Test
    void aBackendKilledDuringTheFileGivesAnErrorAndTheSessionGoesOn(@TempDir Path dir) throws Exception {
        Path file = largeFile(dir);
        try (Connection connection = strata.connect(Driver.MARIADB, "it", "root", "root", localFiles(Driver.MARIADB));
             Statement statement = connection.createStatement()) {
            if (refusedByTheJdbcExecutor(statement, file)) {
                return;
            }
            Thread killer = Thread.ofVirtual().start(LocalInfileIT::killTheLoad);
            SQLException killed = assertThrows(SQLException.class, () -> statement.execute(load(file)));
            killer.join();
            assertTrue(killed.getErrorCode() == 1927 || killed.getErrorCode() == 1430, killed.toString());
            try (ResultSet one = statement.executeQuery("SELECT 1")) {
                assertTrue(one.next());
                assertEquals(1, one.getInt(1));
            }
        }
    }

    /**
     * Kills the backend connection running a LOAD DATA LOCAL as soon as the processlist shows it, and returns once
     * the server is done with it (it rolls back what it loaded first), so the next test starts on a quiet table.
     */
    private static void killTheLoad() {
        try (Connection direct = Backend.direct(); Statement statement = direct.createStatement()) {
            long deadline = System.nanoTime() + 20_000_000_000L;
            long killed = -1;
            while (System.nanoTime() < deadline) {
                if (killed < 0) {
                    try (ResultSet rows = statement.executeQuery("SELECT ID FROM information_schema.PROCESSLIST "
                            + "WHERE INFO LIKE 'LOAD DATA LOCAL%'")) {
                        if (rows.next()) {
                            killed = rows.getLong(1);
                            statement.execute("KILL " + killed);
                        }
                    }
                } else {
                    try (ResultSet rows = statement.executeQuery("SELECT 1 FROM information_schema.PROCESSLIST "
                            + "WHERE ID = " + killed)) {
                        if (!rows.next()) {
                            return;
                        }
                    }
                }
                Thread.sleep(5);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path largeFile(Path dir) throws Exception {
        Path file = dir.resolve("large.csv");
        String padding = "x".repeat(15);
        try (var out = Files.newBufferedWriter(file)) {
            for (int i = 1; i <= 2_000_000; i++) {
                out.write(i + "," + padding + "\n");
            }
        }
        return file;
    }

    /** The server's refusal after the file (an unknown table here) reaches the client, and the session goes on. */
    @Test
    void anErrorAfterTheFileReachesTheClient(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("rows.csv"), "1,one\n");
        try (Connection connection = strata.connect(Driver.MARIADB, "it", "root", "root", localFiles(Driver.MARIADB));
             Statement statement = connection.createStatement()) {
            SQLException error = assertThrows(SQLException.class, () -> statement.execute(
                    "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE no_such_table"));
            assertEquals(relay() ? 1146 : 4166, error.getErrorCode(), error.getMessage());
            assertEquals(0, count(statement));
        }
    }

    /**
     * A client that does not offer to send files names a file that exists where Strata runs: the statement fails as
     * it does on the server itself (MariaDB's 4166, MySQL's 1148), and Strata (or a driver inside it) never reads that
     * file into the table.
     */
    @Test
    void aFileOnStratasHostIsNeverRead(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.csv"), "1,secret\n2,secret\n");
        // MySQL Connector/J sends the statement as it is (MariaDB's driver would refuse it before sending)
        try (Connection connection = strata.connect(Driver.MYSQL, "it", "root", "root", new Properties());
             Statement statement = connection.createStatement()) {
            SQLException refused = assertThrows(SQLException.class, () -> statement.execute(
                    "LOAD DATA LOCAL INFILE '" + secret + "' INTO TABLE loaded FIELDS TERMINATED BY ','"));
            assertTrue(refused.getErrorCode() == 4166 || refused.getErrorCode() == 1148, refused.getMessage());
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM loaded")) {
                assertTrue(rows.next());
                assertEquals(0, rows.getInt(1));
            }
        }
    }
}
