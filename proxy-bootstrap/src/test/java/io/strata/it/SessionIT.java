package io.strata.it;

import io.strata.backend.relay.ResponseKind;
import io.strata.config.ServerConfig;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Backend connections are borrowed per statement and kept only while server-side state needs them. What ran where
 * is read from MariaDB itself: its processlist and the backend's CONNECTION_ID().
 */
class SessionIT {

    private static final String BACKEND_USER = "mux";
    private StrataFixture strata;

    @BeforeAll
    static void users() {
        Backend.server().createDatabase(Backend.SCHEMA, BACKEND_USER, BACKEND_USER);
    }

    @AfterEach
    void stop() {
        if (strata != null) {
            strata.close();
        }
    }

    private void start(int poolSize, int connectionTimeoutMillis) {
        strata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of("maximumPoolSize", poolSize, "connectionTimeout", connectionTimeoutMillis), BACKEND_USER);
    }

    @Test
    void autocommitStatementsOfManyClientsShareABackendConnectionPerEventLoop() throws Exception {
        start(16, 5000);
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                RawClient client = client();
                clients.add(client);
                assertTrue(client.query("SELECT " + i).size() > 1);
            }
            // The fixture runs two event loops; the relay keeps a connection on each client's own loop.
            long connections = backendConnections(n -> n >= 1 && n <= 2);
            assertTrue(connections >= 1 && connections <= 2,
                    "20 idle clients, one backend connection per event loop at most: " + connections);
        } finally {
            for (RawClient client : clients) {
                client.close();
            }
        }
    }

    @Test
    void aTransactionKeepsItsConnectionUntilCommit() throws Exception {
        start(2, 5000);
        try (RawClient a = client(); RawClient b = client(); RawClient c = client()) {
            a.query("BEGIN");
            long inTransaction = backendId(a);
            b.query("BEGIN");
            long other = backendId(b);
            assertNotEquals(inTransaction, other, "b cannot borrow a's connection while a's transaction is open");
            assertEquals(inTransaction, backendId(a));
            a.query("COMMIT");
            // The pool has two connections and b's transaction holds one: c can only get the one a gave back.
            assertEquals(inTransaction, backendId(c), "after COMMIT, a's connection is back in the pool");
            b.query("COMMIT");
        }
    }

    @Test
    void userVariablesPinTheSessionAndAreResetBeforeReuse() throws Exception {
        start(1, 5000);
        long pinned;
        try (RawClient a = client()) {
            a.query("SET @secret = 'a-only'");
            pinned = backendId(a);
            assertEquals("a-only", text(a.query("SELECT @secret")));
        }
        Thread.sleep(300); // a's goodbye resets its connection and returns it
        try (RawClient b = client()) {
            assertEquals(pinned, backendId(b), "b gets the pool's only connection, a's");
            assertEquals(null, text(b.query("SELECT @secret")), "but without a's variables");
        }
    }

    /**
     * What a procedure leaves on its server session cannot be seen from the CALL: it pins the session, which then
     * finds its temporary table and variables, and nobody else does.
     */
    @Test
    void aProcedureCallPinsTheSessionAndItsStateIsResetBeforeReuse() throws Exception {
        Backend.execute("DROP PROCEDURE IF EXISTS make_state", """
                CREATE PROCEDURE make_state()
                BEGIN
                  CREATE TEMPORARY TABLE proc_state (v INT);
                  INSERT INTO proc_state VALUES (7);
                  SET @from_proc = 'a-only';
                END""");
        start(1, 1000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("CALL make_state()");
            assertEquals(1040, RawClient.error(b.query("SELECT @from_proc")).errorCode(),
                    "the pool's only connection stays with a, whose procedure left state on it");
            assertEquals("7", text(a.query("SELECT v FROM proc_state")));
            assertEquals("a-only", text(a.query("SELECT @from_proc")));
        }
        Thread.sleep(300); // a's goodbye resets its connection and returns it
        try (RawClient c = client()) {
            assertNull(text(c.query("SELECT @from_proc")), "c gets a's connection without a's variables");
            assertEquals(1146, RawClient.error(c.query("SELECT v FROM proc_state")).errorCode(),
                    "and without its temporary table");
        }
    }

    /** MariaDB's CREATE OR REPLACE TEMPORARY TABLE pins like CREATE TEMPORARY TABLE. */
    @Test
    void aTemporaryTableCreatedOrReplacedStaysWithItsSession() throws Exception {
        start(1, 1000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("CREATE OR REPLACE TEMPORARY TABLE scratch_a (v INT)");
            a.query("INSERT INTO scratch_a VALUES (3)");
            assertEquals(1040, RawClient.error(b.query("SELECT COUNT(*) FROM scratch_a")).errorCode(),
                    "the pool's only connection stays with a, which holds the temporary table");
            assertEquals("3", text(a.query("SELECT v FROM scratch_a")));
        }
    }

    /**
     * Two sessions insert on one shared connection: a statement reading LAST_INSERT_ID() gets its own session's id,
     * not the other's (the server's value on that connection).
     */
    @Test
    void lastInsertIdInAStatementIsTheSessionsOwn() throws Exception {
        parentsAndChildren();
        start(1, 5000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("INSERT INTO parents (who) VALUES ('a')");
            String aId = text(a.query("SELECT LAST_INSERT_ID()"));
            b.query("INSERT INTO parents (who) VALUES ('b')");
            a.query("INSERT INTO children VALUES (LAST_INSERT_ID(), 'a')");
            assertEquals(aId, text(a.query("SELECT MAX(parent) FROM children WHERE who = 'a'")));
            assertEquals(aId, text(a.query("SELECT LAST_INSERT_ID() + 0")), "read by the server, not by Strata");
            b.query("INSERT INTO parents (who) VALUES ('b')");
            assertEquals(aId, text(a.query("SELECT @@identity")), "the variable form too");
        }
    }

    /** The same with server-side prepared statements, through both drivers. */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void lastInsertIdInAPreparedStatementIsTheSessionsOwn(StrataFixture.Driver driver) throws Exception {
        parentsAndChildren();
        start(1, 5000);
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        String who = driver.name().substring(0, 1).toLowerCase();
        try (Connection a = strata.connect(driver, "it", "root", "root", props);
             Connection b = strata.connect(driver, "it", "root", "root", props);
             java.sql.PreparedStatement parent = a.prepareStatement("INSERT INTO parents (who) VALUES (?)",
                     Statement.RETURN_GENERATED_KEYS);
             java.sql.PreparedStatement child = a.prepareStatement("INSERT INTO children VALUES (LAST_INSERT_ID(), ?)");
             Statement other = b.createStatement(); Statement check = a.createStatement()) {
            parent.setString(1, who);
            parent.executeUpdate();
            long aId;
            try (ResultSet keys = parent.getGeneratedKeys()) {
                keys.next();
                aId = keys.getLong(1);
            }
            other.executeUpdate("INSERT INTO parents (who) VALUES ('x')");
            child.setString(1, who);
            child.executeUpdate();
            assertEquals(aId, JdbcIT.queryLong(check, "SELECT MAX(parent) FROM children WHERE who = '" + who + "'"));
        }
    }

    /**
     * A connection the session holds (here, for its transaction) is given the session's last insert id once: the
     * server's own SET counter shows one SET for three statements reading it.
     */
    @Test
    void aHeldConnectionIsGivenTheLastInsertIdOnce() throws Exception {
        parentsAndChildren();
        start(2, 5000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("BEGIN");
            a.query("INSERT INTO parents (who) VALUES ('h')");
            String id = text(a.query("SELECT LAST_INSERT_ID()"));
            long before = setsOnConnection(a);
            a.query("INSERT INTO children VALUES (LAST_INSERT_ID(), 'h')");
            assertEquals(before + 1, setsOnConnection(a), "the first reader gives the connection the id");
            b.query("INSERT INTO parents (who) VALUES ('b')");
            a.query("INSERT INTO children VALUES (LAST_INSERT_ID(), 'h')");
            a.query("UPDATE children SET parent = LAST_INSERT_ID() WHERE who = 'h'");
            assertEquals(before + 1, setsOnConnection(a), "the others find it there");
            a.query("COMMIT");
            assertEquals(id + " 2", text(a.query(
                    "SELECT CONCAT(MIN(parent), ' ', COUNT(*)) FROM children WHERE who = 'h' AND parent = " + id)));
        }
    }

    /** How many SETs the server connection running the query has run (the query is not one). */
    private static long setsOnConnection(RawClient client) throws IOException {
        return Long.parseLong(text(client.query("SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS "
                + "WHERE VARIABLE_NAME = 'COM_SET_OPTION'")));
    }

    /** LAST_INSERT_ID(expr) sets the session's value on its server connection, which then answers for it. */
    @Test
    void lastInsertIdSetByAnExpressionStaysTheSessions() throws Exception {
        parentsAndChildren();
        start(2, 5000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("INSERT INTO parents (who) VALUES ('a')");
            assertEquals("42", text(a.query("SELECT LAST_INSERT_ID(42)")));
            b.query("INSERT INTO parents (who) VALUES ('b')");
            assertEquals("42", text(a.query("SELECT LAST_INSERT_ID()")));
            a.query("INSERT INTO children VALUES (LAST_INSERT_ID(), 'e')");
            assertEquals("42", text(a.query("SELECT MAX(parent) FROM children WHERE who = 'e'")));
        }
    }

    /**
     * A sequence's last value (LASTVAL, PREVIOUS VALUE FOR) lives on the server connection that ran its NEXTVAL: each
     * session reads its own, and a session that took none reads NULL, also on a connection another one left.
     */
    @Test
    void aSequencesLastValueIsTheSessionsOwn() throws Exception {
        Backend.execute("CREATE OR REPLACE SEQUENCE counter");
        start(2, 5000);
        try (RawClient a = client(); RawClient b = client()) {
            String first = text(a.query("SELECT NEXTVAL(counter)"));
            String second = text(b.query("SELECT NEXT VALUE FOR counter"));
            assertNotEquals(first, second);
            assertEquals(first, text(a.query("SELECT LASTVAL(counter)")));
            assertEquals(second, text(b.query("SELECT PREVIOUS VALUE FOR counter")));
            b.query("DO SETVAL(counter, 100)");
            assertEquals(second, text(b.query("SELECT LASTVAL(counter)")), "SETVAL leaves it, as on the server");
        }
        try (RawClient c = client(); RawClient d = client()) {
            assertNull(text(c.query("SELECT LASTVAL(counter)")));
            assertNull(text(d.query("SELECT PREVIOUS VALUE FOR counter")));
        }
    }

    /** The same with server-side prepared statements, through both drivers. */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void aSequencesLastValueIsTheSessionsOwnInPreparedStatements(StrataFixture.Driver driver) throws Exception {
        Backend.execute("CREATE OR REPLACE SEQUENCE counter");
        start(2, 5000);
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        try (Connection a = strata.connect(driver, "it", "root", "root", props);
             Connection b = strata.connect(driver, "it", "root", "root", props);
             java.sql.PreparedStatement next = a.prepareStatement("SELECT NEXTVAL(counter) + ?");
             java.sql.PreparedStatement last = a.prepareStatement("SELECT LASTVAL(counter) + ?");
             Statement other = b.createStatement()) {
            next.setInt(1, 0);
            long first;
            try (ResultSet rows = next.executeQuery()) {
                rows.next();
                first = rows.getLong(1);
            }
            assertNotEquals(first, JdbcIT.queryLong(other, "SELECT NEXTVAL(counter)"));
            last.setInt(1, 0);
            try (ResultSet rows = last.executeQuery()) {
                rows.next();
                assertEquals(first, rows.getLong(1));
            }
        }
    }

    /** MariaDB's SET STATEMENT ... FOR sets variables for one statement only: the session stays free. */
    @Test
    void setStatementForOneStatementDoesNotPin() throws Exception {
        start(1, 500);
        try (RawClient a = client(); RawClient b = client()) {
            assertEquals("1", text(a.query("SET STATEMENT max_statement_time = 10 FOR SELECT 1")));
            assertEquals("2", text(b.query("SELECT 2")), "a left the pool's only connection free");
            assertEquals("0.000000", text(a.query("SELECT @@max_statement_time")), "the server restored it");
        }
    }

    /**
     * SHOW WARNINGS reads the session's own last statement, its warnings or its error: the session keeps its
     * connection until its next statement, so no other session's statement replaces them there.
     */
    @Test
    void showWarningsSeesTheSessionsOwnWarningsAndErrors() throws Exception {
        start(1, 500);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("SELECT CAST('x' AS SIGNED)");
            assertEquals(1040, RawClient.error(b.query("SELECT 1")).errorCode(), "the only connection stays with a");
            assertEquals("Warning", text(a.query("SHOW WARNINGS")));
            a.query("SELECT * FROM no_such_table");
            assertEquals(1040, RawClient.error(b.query("SELECT 1")).errorCode(), "and after an error too");
            assertEquals("Error", text(a.query("SHOW WARNINGS")));
            a.query("SELECT 1"); // reads no table: the server keeps the error for SHOW WARNINGS
            assertEquals(1040, RawClient.error(b.query("SELECT 1")).errorCode(), "a statement without a table");
            assertEquals("Error", text(a.query("SHOW WARNINGS")));
            a.query("SELECT COUNT(*) FROM information_schema.ENGINES"); // a table: the server clears them
            assertEquals("1", text(b.query("SELECT 1")), "a's statement reading a table gave the connection back");
        }
    }

    /**
     * A session that leaves right after warnings or an error leaves them to nobody: its connection is reset before
     * another session gets it (a warning can quote the statement's values).
     */
    @Test
    void warningsLeftAtGoodbyeAreNotTheNextSessions() throws Exception {
        start(1, 2000);
        try (RawClient a = client()) {
            a.query("SELECT CAST('secret' AS SIGNED)");
        }
        try (RawClient b = client()) {
            assertEquals("0", text(b.query("SELECT @@warning_count")));
        }
        try (RawClient a = client()) {
            a.query("SELECT * FROM no_such_table");
        }
        try (RawClient b = client()) {
            assertEquals("0", text(b.query("SELECT @@error_count")));
        }
    }

    /**
     * ROW_COUNT() and FOUND_ROWS() read the session's own last statement, not whichever ran last on the shared server
     * connection (there, another session's).
     */
    @Test
    void rowCountAndFoundRowsAreTheSessionsOwn() throws Exception {
        countedTable();
        start(1, 5000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("INSERT INTO counted (v) VALUES (1), (2), (3)");
            b.query("INSERT INTO counted (v) VALUES (4)");
            assertEquals("3", text(a.query("SELECT ROW_COUNT()")));
            a.query("SELECT v FROM counted LIMIT 2");
            b.query("SELECT v FROM counted");
            assertEquals("2", text(a.query("SELECT FOUND_ROWS()")));
            a.query("SELECT * FROM no_such_table");
            assertEquals("-1", text(a.query("SELECT ROW_COUNT()")), "after an error");
        }
    }

    /**
     * What Strata answers for ROW_COUNT() and FOUND_ROWS() after each kind of statement is what MariaDB answers: each
     * statement runs once straight on MariaDB and once through Strata, each followed by the same function, in the
     * text protocol and as server-side prepared statements.
     */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void rowCountAndFoundRowsFollowTheServersRules(StrataFixture.Driver driver) throws Exception {
        start(4, 5000);
        // Each side works on a table of its own, so both see the same history.
        String[] statements = {
            "INSERT INTO {t} (v) VALUES (10), (11), (12)", "UPDATE {t} SET v = v WHERE v = 10",
            "UPDATE {t} SET v = v + 100 WHERE v IN (11, 12)", "SELECT v FROM {t} WHERE v > 100", "SET @x = 1",
            "DO 1", "INSERT INTO {t} (v) VALUES (13), (14)", "BEGIN", "SELECT 1 FROM dual WHERE 0", "COMMIT",
            "SHOW TABLES LIKE 'counted%'", "INSERT INTO {t} (v) VALUES (15)", "SELECT * FROM no_such_table",
            "SELECT DATABASE()", "INSERT INTO {t} (v) VALUES (16), (17)", "CREATE TABLE IF NOT EXISTS {t}_2 (a INT)",
            "DELETE FROM {t} WHERE v >= 13", "SELECT v FROM {t} LIMIT 2", "SELEKT 1",
            "SELECT SQL_CALC_FOUND_ROWS v FROM {t} LIMIT 1"};
        Backend.execute("DROP TABLE IF EXISTS counted_direct, counted_proxied, counted_direct_2, counted_proxied_2",
                "CREATE TABLE counted_direct (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",
                "CREATE TABLE counted_proxied (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        props.setProperty("socketTimeout", "10000");
        try (Connection direct = driver.connect(Backend.server().port(), Backend.SCHEMA, "checker", "checker", props);
             Connection proxied = strata.connect(driver, "it", "root", "root", props)) {
            for (String sql : statements) {
                for (String count : List.of("ROW_COUNT", "FOUND_ROWS")) {
                    for (boolean prepared : List.of(false, true)) {
                        String step = sql + (prepared ? " (prepared)" : "") + ", then " + count + "()";
                        assertEquals(countAfter(direct, sql.replace("{t}", "counted_direct"), count, prepared),
                                countAfter(proxied, sql.replace("{t}", "counted_proxied"), count, prepared), step);
                    }
                }
            }
        }
    }

    /**
     * What LAST_INSERT_ID() reads after each kind of statement is what MariaDB reads: each statement runs once
     * straight on MariaDB and once through Strata, where another session then inserts on the pool's only connection
     * whenever the first has let it go. The function is read by Strata ({@code SELECT LAST_INSERT_ID()}) and by the
     * server ({@code + 0}), in the text protocol and prepared. No insert gives an explicit id or updates a row on a
     * duplicate key: there Strata follows the id the server reports, not the one it keeps (see the README).
     */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void lastInsertIdFollowsTheServersRules(StrataFixture.Driver driver) throws Exception {
        start(1, 300);
        String[] statements = {
            "SELECT v FROM {t}", "INSERT INTO {t} (u, v) VALUES (1, 1)", "SELECT v FROM {t}",
            "INSERT INTO {t} (u, v) VALUES (2, 2), (3, 3)", "UPDATE {t} SET v = v + 1",
            "INSERT INTO {t} (u, v) VALUES (1, 9)", "INSERT IGNORE INTO {t} (u, v) VALUES (1, 9)",
            "INSERT INTO {t} (u, v) VALUES (4, 4) ON DUPLICATE KEY UPDATE v = 10",
            "REPLACE INTO {t} (u, v) VALUES (5, 5)", "INSERT INTO {t} (u, v) SELECT u + 10, v FROM {t} WHERE u < 3",
            "INSERT INTO {t} (id, u, v) VALUES (NULL, 20, 20)", "BEGIN", "INSERT INTO {t} (u, v) VALUES (21, 21)",
            "ROLLBACK", "DELETE FROM {t} WHERE u = 20", "SELEKT 1", "INSERT INTO {t} (u, v) VALUES (22, 22)",
            "CALL {t}_fill()", "INSERT INTO {t} (u, v) VALUES (30, 30)", "SELECT LAST_INSERT_ID(77)",
            "INSERT INTO {t} (u, v) VALUES (31, 31)"};
        Backend.execute("CREATE TABLE IF NOT EXISTS ids_other (id INT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT = 1000");
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", "true");
        props.setProperty("socketTimeout", "10000");
        for (boolean prepared : List.of(false, true)) {
            for (String t : List.of("ids_direct", "ids_proxied")) {
                Backend.execute("DROP TABLE IF EXISTS " + t, "DROP PROCEDURE IF EXISTS " + t + "_fill",
                        "CREATE TABLE " + t + " (id INT AUTO_INCREMENT PRIMARY KEY, u INT UNIQUE, v INT)",
                        "CREATE PROCEDURE " + t + "_fill() BEGIN INSERT INTO " + t + " (u, v) VALUES (40, 40); "
                                + "INSERT INTO " + t + " (u, v) VALUES (41, 41); END");
            }
            try (Connection direct = driver.connect(Backend.server().port(), Backend.SCHEMA, "checker", "checker",
                    props);
                 Connection proxied = strata.connect(driver, "it", "root", "root", props);
                 Connection other = strata.connect(driver, "it", "root", "root", props)) {
                for (String sql : statements) {
                    String step = sql + (prepared ? " (prepared)" : "");
                    List<Long> expected = lastInsertIdAfter(direct, sql.replace("{t}", "ids_direct"), prepared, null);
                    assertEquals(expected, lastInsertIdAfter(proxied, sql.replace("{t}", "ids_proxied"), prepared,
                            other), step);
                }
            }
        }
    }

    /**
     * The session state the server sees is the session's own, step by step: each statement runs straight on MariaDB
     * and through Strata, where another session then changes its own state on the pool's only connection whenever the
     * first has let it go; after each, the server reports the session's variables and transaction state. (The JDBC
     * executor's connections speak utf8mb4 whatever the client set, so the character set variables are the relay's.
     * A raw client: MariaDB Connector/J closes its connection on SET NAMES latin1.)
     */
    @Test
    void sessionStateFollowsTheServersRules() throws Exception {
        start(1, 300);
        // Statements that pin come last: until then the other session gets the connection between any two steps.
        String[] statements = {
            "SET sql_mode = 'ANSI_QUOTES'", "SET time_zone = '+05:00'", "SET NAMES latin1", "SET sql_select_limit = 2",
            "SET time_zone = 'nonsense'", "SELECT COUNT(*) FROM state_t",
            "SET sql_mode = CONCAT(@@sql_mode, ',NO_ZERO_DATE')",
            "SET NAMES utf8mb4 COLLATE utf8mb4_bin", "SET @@session.time_zone = 'SYSTEM'", "SELECT 1",
            "SET character_set_results = NULL", "SELECT 2", "SET NAMES latin1", "SET sql_select_limit = DEFAULT",
            "SET max_statement_time = 5", "SET NAMES utf8mb4", "SET collation_connection = utf8mb4_unicode_ci",
            "SELECT 3", "SET NAMES utf8mb4, time_zone = '+02:00'", "SELECT 4", "SET CHARACTER SET koi8r",
            "SELECT 7", "SET CHARSET utf8mb4", "SELECT 8",
            "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE", "SELECT 5",
            "SET SESSION transaction_isolation = 'READ-COMMITTED'", "SELECT 9",
            "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ", "SELECT 10", "SET SESSION TRANSACTION READ ONLY",
            "START TRANSACTION", "SELECT 6", "COMMIT", "SET SESSION TRANSACTION READ WRITE", "SET autocommit = 0",
            "INSERT INTO state_t VALUES (1)", "COMMIT", "SET autocommit = 1", "START TRANSACTION READ ONLY",
            "SELECT 1", "ROLLBACK", "SET SESSION tx_isolation = 'READ-COMMITTED'",
            "SET sql_mode = DEFAULT, time_zone = '-01:00'", "SET NAMES latin1 COLLATE latin1_bin", "SELECT 5",
            "SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", "SET lc_time_names = 'de_DE'", "SET NAMES latin1"};
        String[] others = {"SET sql_mode = 'NO_ENGINE_SUBSTITUTION'", "SET character_set_results = NULL",
            "SET time_zone = '-03:00'", "SET NAMES koi8r", "SELECT 1", "SET sql_select_limit = 7",
            "SET NAMES latin1 COLLATE latin1_bin", "SELECT 2", "SET max_statement_time = 9", "SET NAMES utf8mb4",
            "SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", "SET SESSION TRANSACTION READ ONLY"};
        boolean relay = StrataFixture.executor().equals(ServerConfig.RELAY);
        // the transaction_ names: the tx_ ones warn on MariaDB 11, and a warning keeps the connection with the session
        String probe = "SELECT CONCAT_WS('|', @@autocommit, @@in_transaction, @@sql_mode, @@time_zone,"
                + " @@transaction_isolation, @@transaction_read_only, @@sql_select_limit, @@max_statement_time,"
                + " @@lc_time_names, 'ł'"
                + (relay ? ", @@character_set_client, @@character_set_connection, "
                + "IFNULL(@@character_set_results, 'NULL'), @@collation_connection" : "") + ")";
        Backend.execute("CREATE TABLE IF NOT EXISTS state_t (v INT)");
        int otherRan = 0;
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA);
             RawClient proxied = client(); RawClient other = client()) {
            for (int i = 0; i < statements.length; i++) {
                direct.query(statements[i]);
                proxied.query(statements[i]);
                // fails once the first session keeps the pool's only connection
                otherRan += RawClient.payload(other.query(others[i % others.length]).get(0))[0] != (byte) 0xFF ? 1 : 0;
                assertEquals(text(direct.query(probe)), text(proxied.query(probe)), statements[i]);
            }
            for (RawClient client : List.of(direct, proxied)) {
                client.command(CommandType.COM_RESET_CONNECTION.code(), new byte[0], ResponseKind.STATUS);
            }
            assertEquals(text(direct.query(probe)), text(proxied.query(probe)), "COM_RESET_CONNECTION");
        }
        assertTrue(otherRan >= 34, "the other session ran " + otherRan + " statements");
    }

    /**
     * Runs the statement (its failure is part of the test), lets {@code other} insert if the pool lets it, then reads
     * LAST_INSERT_ID() four ways.
     */
    private static List<Long> lastInsertIdAfter(Connection connection, String sql, boolean prepared, Connection other)
            throws SQLException {
        try (Statement text = connection.createStatement()) {
            runFailureIncluded(connection, text, sql, prepared);
            if (other != null) {
                try (Statement insert = other.createStatement()) {
                    insert.execute("INSERT INTO ids_other VALUES ()");
                } catch (SQLException poolBusy) {
                    // the session kept the only connection (a transaction, a CALL): nobody else runs there
                }
            }
            List<Long> ids = new ArrayList<>();
            for (String read : List.of("SELECT LAST_INSERT_ID()", "SELECT LAST_INSERT_ID() + 0")) {
                ids.add(JdbcIT.queryLong(text, read));
                try (java.sql.PreparedStatement statement = connection.prepareStatement(read);
                     ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    ids.add(rows.getLong(1));
                }
            }
            return ids;
        }
    }

    /** Runs the statement in the text protocol or prepared; its failure is part of the test. */
    private static void runFailureIncluded(Connection connection, Statement text, String sql, boolean prepared) {
        try {
            if (prepared) {
                try (java.sql.PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.execute();
                }
            } else {
                text.execute(sql);
            }
        } catch (SQLException expected) {
            // what follows a failed statement is compared too
        }
    }

    /** Runs the statement (its failure is part of the test), then reads the count in the text protocol. */
    private static long countAfter(Connection connection, String sql, String count, boolean prepared)
            throws SQLException {
        try (Statement text = connection.createStatement()) {
            runFailureIncluded(connection, text, sql, prepared);
            return JdbcIT.queryLong(text, "SELECT " + count + "()");
        }
    }

    private static void countedTable() throws SQLException {
        Backend.execute("CREATE TABLE IF NOT EXISTS counted (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
    }

    private static void parentsAndChildren() throws SQLException {
        Backend.execute("CREATE TABLE IF NOT EXISTS parents (id INT AUTO_INCREMENT PRIMARY KEY, who CHAR(1))",
                "CREATE TABLE IF NOT EXISTS children (parent INT, who CHAR(1))");
    }

    /**
     * A session starts with the server's own sql_mode, also on a connection another session left with state (which is
     * reset first). The JDBC executor's driver asks for IGNORE_SPACE when it connects, which would make built-in
     * function names reserved words.
     */
    @Test
    void aSessionStartsWithTheServersSqlMode() throws Exception {
        start(1, 5000);
        String sqlMode = "SELECT @@sql_mode";
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA)) {
            String expected = text(direct.query(sqlMode));
            try (RawClient first = client()) {
                assertEquals(expected, text(first.query(sqlMode)));
                first.query("SET @pinned = 1"); // reset before the next session gets the connection
            }
            try (RawClient next = client()) {
                assertEquals(expected, text(next.query(sqlMode)));
                assertEquals("1", text(next.query("SELECT 1 FROM (SELECT 1 AS log) AS log")));
            }
        }
    }

    @Test
    void trackedVariablesFollowEachSessionOnOneSharedConnection() throws Exception {
        start(1, 5000);
        try (RawClient a = client(); RawClient b = client(); RawClient c = client()) {
            a.query("SET time_zone = '+05:00'");
            b.query("SET SESSION time_zone = '-03:00'");
            a.query("SET sql_mode = CONCAT(@@sql_mode, ',NO_ZERO_DATE')");
            for (int i = 0; i < 3; i++) {
                assertEquals("+05:00", text(a.query("SELECT @@time_zone")));
                assertEquals("-03:00", text(b.query("SELECT @@time_zone")));
                assertEquals("SYSTEM", text(c.query("SELECT @@time_zone")), "the server default for c");
                assertTrue(text(a.query("SELECT @@sql_mode")).contains("NO_ZERO_DATE"));
                assertTrue(!text(b.query("SELECT @@sql_mode")).contains("NO_ZERO_DATE"));
            }
            assertEquals(1, backendConnections(n -> n == 1),
                    "three sessions with their own variables, one connection");
        }
    }

    @Test
    void jdbcSessionsThatSetVariablesOnConnectAreMultiplexed() throws Exception {
        start(16, 5000);
        List<Connection> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                Connection c = strata.connect(StrataFixture.Driver.MARIADB);
                sessions.add(c);
                try (Statement st = c.createStatement()) {
                    assertEquals(i, JdbcIT.queryInt(st, "SELECT " + i));
                }
            }
            int connections = backendConnections(n -> n <= 2);
            assertTrue(connections <= 2, "10 idle JDBC sessions, " + connections + " backend connections");
        } finally {
            for (Connection c : sessions) {
                c.close();
            }
        }
    }

    /**
     * A collation set with SET NAMES ... COLLATE is the session's own: its comparisons are case-sensitive, those of a
     * session sharing the pool's only connection are not, whichever ran there last.
     */
    @Test
    void aCollationSetWithSetNamesIsTheSessionsOwn() throws Exception {
        start(1, 2000);
        String caseBlind = "SELECT 'a' = 'A'";
        try (RawClient a = client(); RawClient b = client()) {
            a.query("SET NAMES utf8mb4 COLLATE utf8mb4_bin");
            for (int i = 0; i < 2; i++) {
                assertEquals("1", text(b.query(caseBlind)));
                assertEquals("0", text(a.query(caseBlind)));
            }
            a.query("SET NAMES utf8mb4");
            assertEquals("1", text(a.query(caseBlind)), "a plain SET NAMES brings the default collation back");
        }
    }

    /**
     * What JDBC drivers send for setTransactionIsolation and setReadOnly (SET SESSION TRANSACTION ...) is followed
     * like a tracked variable: two sessions with different levels share the pool's only connection.
     */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void sessionTransactionCharacteristicsAreFollowedNotPinned(StrataFixture.Driver driver) throws Exception {
        start(1, 500);
        try (Connection a = strata.connect(driver); Connection b = strata.connect(driver);
             Statement onA = a.createStatement(); Statement onB = b.createStatement()) {
            a.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            a.setReadOnly(true);
            b.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            String levelAndMode = "SELECT CONCAT(@@tx_isolation, ' ', @@tx_read_only)";
            assertEquals("SERIALIZABLE ON", JdbcIT.queryString(onA, levelAndMode));
            assertEquals("READ-UNCOMMITTED OFF", JdbcIT.queryString(onB, levelAndMode));
        }
    }

    @Test
    void manyClientsOnASmallPool() throws Exception {
        start(4, 10_000);
        ExecutorService threads = Executors.newFixedThreadPool(40);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int id = i;
                results.add(threads.submit(() -> {
                    try (RawClient client = client()) {
                        int sum = 0;
                        for (int q = 0; q < 25; q++) {
                            sum += Integer.parseInt(text(client.query("SELECT " + id + " + " + q)));
                        }
                        return sum;
                    }
                }));
            }
            for (int i = 0; i < 40; i++) {
                assertEquals(25 * i + 300, results.get(i).get());
            }
            assertTrue(backendConnections(n -> n <= 4) <= 4, "never more than maximumPoolSize backend connections");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void anExhaustedPoolGivesAClearErrorAndRecovers() throws Exception {
        start(1, 1000);
        try (RawClient a = client(); RawClient b = client()) {
            a.query("BEGIN");
            backendId(a);
            ErrPacket err = RawClient.error(b.query("SELECT 1"));
            assertEquals(1040, err.errorCode());
            assertTrue(err.message().contains("pool ds_0 exhausted after 1000 ms (total 1, active 1, idle 0"),
                    err.message());
            a.query("ROLLBACK");
            assertEquals("1", text(b.query("SELECT 1")));
        }
    }

    private RawClient client() throws IOException {
        return RawClient.connect(strata.port(), "root", "root", "it");
    }

    /** The id of the backend connection the statement ran on (CONNECTION_ID()+0 is not answered by Strata). */
    private static long backendId(RawClient client) throws IOException {
        return Long.parseLong(text(client.query("SELECT CONNECTION_ID() + 0")));
    }

    /** The single cell of a one-row, one-column text result (deprecate-EOF form). */
    static String text(List<byte[]> response) {
        byte[] row = RawClient.payload(response.get(response.size() - 2));
        if ((row[0] & 0xFF) == 0xFB) {
            return null;
        }
        return new String(row, 1, row[0] & 0xFF, StandardCharsets.UTF_8);
    }

    /**
     * The backend connections of Strata's user, once {@code expected} holds or after 3 s: a connection closed just
     * before (the previous test's Strata, the start-up version probe) leaves the server's process list a moment
     * later, while one Strata still holds stays.
     */
    private static int backendConnections(java.util.function.IntPredicate expected) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(3);
        int count = backendConnections();
        while (!expected.test(count) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            count = backendConnections();
        }
        return count;
    }

    private static int backendConnections() throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = '"
                     + BACKEND_USER + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
