package io.strata.it;

import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real applications' view: both JDBC drivers through Strata see what they see on MariaDB directly. */
class JdbcIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() throws SQLException {
        Backend.allTypesTable();
        Backend.execute("DROP TABLE IF EXISTS latin1_text",
                "CREATE TABLE latin1_text (id INT PRIMARY KEY, v VARCHAR(20)) DEFAULT CHARSET=utf8mb4");
        Backend.execute("DROP TABLE IF EXISTS accounts",
                "CREATE TABLE accounts (id INT AUTO_INCREMENT PRIMARY KEY, owner VARCHAR(20) UNIQUE, balance INT)");
        strata = StrataFixture.start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void everyColumnTypeReadsAsOnMariaDbDirectly(Driver driver) throws SQLException {
        List<String> direct = describe(driver.connect(Backend.server().port(), Backend.SCHEMA, "checker", "checker",
                new Properties()));
        List<String> proxied = describe(strata.connect(driver));
        assertEquals(direct, proxied);
    }

    private static List<String> describe(Connection connection) throws SQLException {
        List<String> out = new ArrayList<>();
        try (connection; Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM all_types ORDER BY id")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnLabel(i) + " " + md.getColumnTypeName(i) + " " + md.getColumnType(i) + " "
                        + md.getPrecision(i) + " " + md.getScale(i) + " " + md.isSigned(i) + " " + md.isNullable(i));
            }
            while (rs.next()) {
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    out.add(read(rs, i));
                }
            }
        }
        return out;
    }

    /** The driver's view of one cell; a value the driver refuses (MySQL's TIME beyond a day) reads as its error. */
    private static String read(ResultSet rs, int column) throws SQLException {
        String text = rs.getString(column);
        try {
            Object value = rs.getObject(column);
            return value instanceof byte[] bytes ? java.util.HexFormat.of().formatHex(bytes) : value + "|" + text;
        } catch (SQLException e) {
            return "refused|" + text;
        }
    }

    /**
     * Sessions with their own time_zone and sql_mode, interleaved over a shared pool, each keep seeing their own: the
     * executor makes whichever backend connection runs a statement equal to its session.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void sessionsKeepTheirOwnTrackedVariablesOnSharedConnections(Driver driver) throws SQLException {
        try (Connection a = strata.connect(driver); Connection b = strata.connect(driver);
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.execute("SET time_zone = '+05:00'");
            sb.execute("SET SESSION time_zone = '-03:00'");
            sa.execute("SET sql_mode = CONCAT(@@sql_mode, ',NO_ZERO_DATE')");
            for (int i = 0; i < 20; i++) {
                assertEquals("+05:00", single(sa, "SELECT @@time_zone"));
                assertEquals("-03:00", single(sb, "SELECT @@time_zone"));
                assertTrue(single(sa, "SELECT @@sql_mode").contains("NO_ZERO_DATE"));
                assertTrue(!single(sb, "SELECT @@sql_mode").contains("NO_ZERO_DATE"));
            }
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** A statement the server refuses to prepare gets the server's error, and the session goes on. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aRefusedPrepareKeepsTheServersError(Driver driver) throws SQLException {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        props.setProperty("socketTimeout", "10000"); // an unanswered prepare fails the test instead of hanging it
        try (Connection c = strata.connect(driver, "it", "root", "root", props); Statement st = c.createStatement()) {
            SQLException missing = assertThrows(SQLException.class, () -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT * FROM nope WHERE id = ?")) {
                    ps.setInt(1, 1);
                    ps.executeQuery().close();
                }
            });
            assertEquals(1146, missing.getErrorCode(), missing.getMessage());
            assertEquals(1, queryInt(st, "SELECT 1"), "the session goes on");
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void backendErrorsKeepTheirCodeStateAndMessage(Driver driver) throws SQLException {
        try (Connection c = strata.connect(driver); Statement st = c.createStatement()) {
            SQLException syntax = assertThrows(SQLException.class, () -> st.execute("SELEKT 1"));
            assertEquals(1064, syntax.getErrorCode());
            assertEquals("42000", syntax.getSQLState());
            SQLException missing = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM nope"));
            assertEquals(1146, missing.getErrorCode());
            assertTrue(missing.getMessage().contains("Table '" + Backend.SCHEMA + ".nope' doesn't exist"),
                    missing.getMessage());
            st.executeUpdate("DELETE FROM accounts WHERE owner = 'dup'");
            st.executeUpdate("INSERT INTO accounts (owner, balance) VALUES ('dup', 1)");
            SQLException duplicate = assertThrows(SQLException.class,
                    () -> st.executeUpdate("INSERT INTO accounts (owner, balance) VALUES ('dup', 1)"));
            assertEquals(1062, duplicate.getErrorCode());
            assertEquals("23000", duplicate.getSQLState());
            assertEquals(1, queryInt(st, "SELECT 1"), "the session goes on after errors");
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void affectedRowsGeneratedKeysAndLastInsertId(Driver driver) throws SQLException {
        try (Connection c = strata.connect(driver); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO accounts (owner, balance) VALUES ('k-" + driver + "', 5)",
                    Statement.RETURN_GENERATED_KEYS);
            long key;
            try (ResultSet keys = st.getGeneratedKeys()) {
                assertTrue(keys.next());
                key = keys.getLong(1);
            }
            assertEquals(key, queryLong(st, "SELECT LAST_INSERT_ID()"));
            assertEquals(1, st.executeUpdate("UPDATE accounts SET balance = 6 WHERE id = " + key));
            assertEquals(1, st.executeUpdate("DELETE FROM accounts WHERE id = " + key));
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void multiStatementsReturnEveryResult(Driver driver) throws SQLException {
        Properties props = new Properties();
        props.setProperty("allowMultiQueries", "true");
        try (Connection c = strata.connect(driver, "it", "root", "root", props); Statement st = c.createStatement()) {
            assertTrue(st.execute("SELECT 1; UPDATE accounts SET balance = balance WHERE 1 = 0; SELECT 'b', 2"));
            try (ResultSet rs = st.getResultSet()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
            assertFalse(st.getMoreResults());
            assertEquals(0, st.getUpdateCount());
            assertTrue(st.getMoreResults());
            try (ResultSet rs = st.getResultSet()) {
                assertTrue(rs.next());
                assertEquals("b", rs.getString(1));
            }
            assertFalse(st.getMoreResults());
            assertEquals(-1, st.getUpdateCount());
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void transactionsRollBackToSavepointsAndCommit(Driver driver) throws SQLException {
        String owner = "tx-" + driver;
        try (Connection c = strata.connect(driver); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM accounts WHERE owner LIKE '" + owner + "%'");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO accounts (owner, balance) VALUES ('" + owner + "-1', 1)");
            Savepoint savepoint = c.setSavepoint("sp1");
            st.executeUpdate("INSERT INTO accounts (owner, balance) VALUES ('" + owner + "-2', 2)");
            assertEquals(0, countDirect(owner), "uncommitted rows are invisible to others");
            c.rollback(savepoint);
            c.commit();
            assertEquals(1, countDirect(owner));
            st.executeUpdate("INSERT INTO accounts (owner, balance) VALUES ('" + owner + "-3', 3)");
            c.rollback();
            c.setAutoCommit(true);
            assertEquals(1, countDirect(owner));
            assertEquals(1, queryInt(st, "SELECT COUNT(*) FROM accounts WHERE owner LIKE '" + owner + "%'"));
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void logicalDatabasesAndUse(Driver driver) throws SQLException {
        try (Connection c = strata.connect(driver, "it", "app", "app", new Properties());
             Statement st = c.createStatement()) {
            assertEquals("it", queryString(st, "SELECT DATABASE()"));
            try (ResultSet rs = st.executeQuery("SHOW DATABASES")) {
                assertTrue(rs.next());
                assertEquals("it", rs.getString(1));
                assertFalse(rs.next());
            }
            st.execute("USE it");
            SQLException unknown = assertThrows(SQLException.class, () -> st.execute("USE nope"));
            assertEquals(1044, unknown.getErrorCode(), "app may only use 'it'");
            assertEquals(1, queryInt(st, "SELECT COUNT(*) FROM all_types WHERE id = 1"));
        }
        try (Connection c = strata.connect(driver, "it", "root", "root", new Properties());
             Statement st = c.createStatement()) {
            SQLException unknown = assertThrows(SQLException.class, () -> st.execute("USE nope"));
            assertEquals(1049, unknown.getErrorCode());
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void sessionStateStaysOnItsConnection(Driver driver) throws SQLException {
        try (Connection c = strata.connect(driver); Statement st = c.createStatement()) {
            st.execute("SET @answer = 42");
            st.execute("CREATE TEMPORARY TABLE scratch (v INT)");
            st.execute("INSERT INTO scratch VALUES (7)");
            for (int i = 0; i < 5; i++) {
                assertEquals(1, queryInt(st, "SELECT 1"));
            }
            assertEquals(42, queryInt(st, "SELECT @answer"));
            assertEquals(7, queryInt(st, "SELECT v FROM scratch"));
        }
    }

    /** In the text protocol and as a server-side execute's parameter (a COM_STMT_EXECUTE of two packets). */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aTwentyMebibyteBlobRoundTrips(Driver driver) throws Exception {
        aTwentyMebibyteBlobRoundTrips(driver, false);
        aTwentyMebibyteBlobRoundTrips(driver, true);
    }

    private void aTwentyMebibyteBlobRoundTrips(Driver driver, boolean serverSide) throws Exception {
        byte[] blob = new byte[20 * 1024 * 1024];
        new Random(7).nextBytes(blob);
        Backend.execute("CREATE TABLE IF NOT EXISTS blobs (id VARCHAR(10) PRIMARY KEY, b LONGBLOB)");
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", Boolean.toString(serverSide));
        try (Connection c = strata.connect(driver, "it", "root", "root", props)) {
            try (PreparedStatement ps = c.prepareStatement("REPLACE INTO blobs VALUES (?, ?)")) {
                ps.setString(1, driver.name());
                ps.setBytes(2, blob);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT b FROM blobs WHERE id = ?")) {
                ps.setString(1, driver.name());
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertArrayEquals(sha256(blob), sha256(rs.getBytes(1)));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void killQueryStopsAnotherSessionsStatement(Driver driver) throws Exception {
        try (Connection victim = strata.connect(driver); Connection killer = strata.connect(driver);
             Statement vs = victim.createStatement(); Statement ks = killer.createStatement()) {
            long id = queryLong(vs, "SELECT CONNECTION_ID()");
            long started = System.nanoTime();
            CompletableFuture<SQLException> sleeping = CompletableFuture.supplyAsync(() -> {
                try {
                    vs.executeQuery("SELECT SLEEP(30)").close();
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            Thread.sleep(500);
            ks.execute("KILL QUERY " + id);
            SQLException interrupted = sleeping.get(20, TimeUnit.SECONDS);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            if (interrupted != null) {
                assertEquals(1317, interrupted.getErrorCode());
            } else {
                // MariaDB answers a killed SLEEP() with the value 1 rather than an error.
                assertTrue(seconds < 25, "SLEEP(30) was cut short");
            }
            assertTrue(seconds < 25, "took " + seconds + " s");
            assertEquals(1, queryInt(vs, "SELECT 1"), "the victim's session goes on");
            SQLException noSuch = assertThrows(SQLException.class, () -> ks.execute("KILL QUERY 999999"));
            assertEquals(1094, noSuch.getErrorCode());
        }
    }

    /** KILL of a session stops its backend statement at once, as KILL QUERY does: read in MariaDB's process list. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void killConnectionStopsTheSessionsBackendStatement(Driver driver) throws Exception {
        try (Connection victim = strata.connect(driver); Connection killer = strata.connect(driver);
             Statement vs = victim.createStatement(); Statement ks = killer.createStatement()) {
            long id = queryLong(vs, "SELECT CONNECTION_ID()");
            CompletableFuture<Void> sleeping = CompletableFuture.runAsync(() -> {
                try {
                    vs.executeQuery("SELECT SLEEP(29.5)").close();
                } catch (SQLException e) {
                    // the session is gone: expected
                }
            });
            assertTrue(waitForBackendSleeps(1, 10_000), "the SLEEP runs on the backend");
            ks.execute("KILL " + id);
            assertTrue(waitForBackendSleeps(0, 1_000), "the backend statement stopped within a second of KILL");
            sleeping.get(20, TimeUnit.SECONDS);
        }
    }

    /** Whether MariaDB's process list shows {@code count} statements sleeping 29.5 s within {@code millis}. */
    private static boolean waitForBackendSleeps(int count, long millis) throws Exception {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        do {
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
                if (queryInt(st, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE "
                        + "'SELECT SLEEP(29.5)%'") == count) {
                    return true;
                }
            }
            Thread.sleep(50);
        } while (System.nanoTime() < end);
        return false;
    }

    /**
     * Server-side prepared statements: relayed natively by the relay executor, prepared through MariaDB Connector/J
     * by the JDBC executor (PreparedStatementIT has the rest).
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void serverSidePreparedStatementsWork(Driver driver) throws SQLException {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        try (Connection c = strata.connect(driver, "it", "root", "root", props);
             PreparedStatement ps = c.prepareStatement("SELECT vc FROM all_types WHERE id = ?")) {
            for (int id = 1; id <= 2; id++) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(id == 1 ? "héllo wörld" : "", rs.getString(1));
                }
            }
        }
    }

    /**
     * A client in latin1 (MySQL Connector/J with characterEncoding ISO-8859-1: a latin1 handshake, then SET NAMES):
     * text from a utf8mb4 table reads right, and text it writes lands right, in both protocols.
     */
    @ParameterizedTest(name = "useServerPrepStmts={0}")
    @ValueSource(booleans = {false, true})
    void aLatin1ClientReadsAndWritesText(boolean serverSide) throws SQLException {
        Properties props = new Properties();
        props.setProperty("characterEncoding", "ISO-8859-1");
        props.setProperty("useServerPrepStmts", Boolean.toString(serverSide));
        int id = serverSide ? 2 : 1;
        try (Connection c = strata.connect(Driver.MYSQL, "it", "root", "root", props);
             PreparedStatement read = c.prepareStatement("SELECT vc FROM all_types WHERE id = ?");
             PreparedStatement write = c.prepareStatement("REPLACE INTO latin1_text VALUES (?, ?)")) {
            read.setInt(1, 1);
            try (ResultSet rs = read.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("héllo wörld", rs.getString(1));
            }
            write.setInt(1, id);
            write.setString(2, "déjà vu");
            write.executeUpdate();
        }
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement()) {
            assertEquals("déjà vu", queryString(st, "SELECT v FROM latin1_text WHERE id = " + id));
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void wrongPasswordIsAccessDenied(Driver driver) {
        SQLException denied = assertThrows(SQLException.class,
                () -> strata.connect(driver, "it", "root", "wrong", new Properties()).close());
        assertEquals(1045, denied.getErrorCode());
        assertEquals("28000", denied.getSQLState());
        SQLException unknownDb = assertThrows(SQLException.class,
                () -> strata.connect(driver, "nope", "root", "root", new Properties()).close());
        assertEquals(1049, unknownDb.getErrorCode());
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void noDatabaseSelected(Driver driver) throws SQLException {
        try (Connection c = strata.connect(driver, null, "root", "root", new Properties());
             Statement st = c.createStatement()) {
            assertNull(queryString(st, "SELECT DATABASE()"));
            assertEquals(3, queryInt(st, "SELECT 1 + 2"));
            st.execute("USE it");
            assertEquals("it", queryString(st, "SELECT DATABASE()"));
        }
    }

    @org.junit.jupiter.api.Test
    void resetConnectionAndChangeUserDropSessionState() throws SQLException {
        java.util.Properties useReset = new java.util.Properties();
        useReset.setProperty("useResetConnection", "true");
        try (Connection c = strata.connect(StrataFixture.Driver.MARIADB, "it", "root", "root", useReset);
             Statement st = c.createStatement()) {
            st.execute("SET @x = 1");
            c.unwrap(org.mariadb.jdbc.Connection.class).reset();
            try (ResultSet rs = st.executeQuery("SELECT @x")) {
                rs.next();
                assertEquals(null, rs.getString(1));
            }
        }
        try (Connection c = strata.connect(StrataFixture.Driver.MYSQL); Statement st = c.createStatement()) {
            st.execute("SET @x = 1");
            c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).changeUser("app", "app");
            try (ResultSet rs = st.executeQuery("SELECT @x")) {
                rs.next();
                assertEquals(null, rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SHOW DATABASES")) {
                assertTrue(rs.next());
                assertEquals("it", rs.getString(1));
            }
        }
    }

    static int countDirect(String ownerPrefix) throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement()) {
            return queryInt(st, "SELECT COUNT(*) FROM accounts WHERE owner LIKE '" + ownerPrefix + "%'");
        }
    }

    static int queryInt(Statement st, String sql) throws SQLException {
        return (int) queryLong(st, sql);
    }

    static long queryLong(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    static String queryString(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    private static byte[] sha256(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }
}
