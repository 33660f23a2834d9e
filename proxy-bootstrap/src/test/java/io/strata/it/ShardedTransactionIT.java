package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.StrataConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Transactions over both servers of a sharded table. One that ends with a prepared COMMIT ends on both. Two
 * sessions whose transactions each wait for a row lock the other holds on the other server form a cycle neither
 * InnoDB sees, so without Strata both would wait for innodb_lock_wait_timeout: Strata's deadlock check breaks it as
 * InnoDB breaks its own, the younger transaction gets 1213 and is rolled back on both servers, the other goes on and
 * commits. What happened is read on the servers themselves.
 */
class ShardedTransactionIT {

    private static final String SCHEMA_A = "dl_a";
    private static final String SCHEMA_B = "dl_b";
    private static final String RULES = """
            - type: SHARDING
              tables:
                t_acct:
                  actualDataNodes: ds_${0..1}.t_acct
                  databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: mod2 } }
              shardingAlgorithms:
                mod2: { type: MOD, props: { sharding-count: 2 } }
            """;

    private static EmbeddedMariaDb serverA;
    private static EmbeddedMariaDb serverB;
    private static Strata strata;

    @BeforeAll
    static void start() throws SQLException {
        serverA = Backend.server();
        serverA.createDatabase(SCHEMA_A, "strata", "strata");
        serverB = EmbeddedMariaDb.start(0);
        serverB.createDatabase(SCHEMA_B, "strata", "strata");
        strata = Strata.builder().config(config()).start();
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (serverB != null) {
            serverB.close();
        }
    }

    @BeforeEach
    void rows() throws SQLException {
        // ids 0 and 2 live on server A, 1 and 3 on server B
        serverA.execute(SCHEMA_A, "strata", "strata", "SET SESSION lock_wait_timeout = 5",
                "CREATE OR REPLACE TABLE t_acct (id INT PRIMARY KEY, v INT)",
                "INSERT INTO t_acct VALUES (0, 0), (2, 0)");
        serverB.execute(SCHEMA_B, "strata", "strata", "SET SESSION lock_wait_timeout = 5",
                "CREATE OR REPLACE TABLE t_acct (id INT PRIMARY KEY, v INT)",
                "INSERT INTO t_acct VALUES (1, 0), (3, 0)");
    }

    /** Nothing of either session's transactions is left open on a server (a pooled connection would hold its locks). */
    @AfterEach
    void noTransactionLeftOpen() throws Exception {
        for (EmbeddedMariaDb server : List.of(serverA, serverB)) {
            String schema = server == serverA ? SCHEMA_A : SCHEMA_B;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            int open;
            do {
                try (Connection c = server.connect(schema, "strata", "strata");
                     Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX")) {
                    rs.next();
                    open = rs.getInt(1);
                }
            } while (open > 0 && System.nanoTime() < deadline && pause());
            assertEquals(0, open, "transactions left open on " + server.port() + ": " + openTransactions(server, schema));
        }
    }

    @org.junit.jupiter.api.Test
    void aPreparedCommitEndsTheTransactionOnEveryServerItReached() throws SQLException {
        try (Connection c = connect(Driver.MARIADB, true)) { // the MariaDB driver prepares BEGIN and COMMIT too
            execute(c, "BEGIN");
            update(c, 0); // server A
            update(c, 1); // server B
            execute(c, "COMMIT");
            assertEquals(List.of(1, 1), values(), "both rows committed, as other sessions see them");
            execute(c, "BEGIN");
            update(c, 2);
            update(c, 3);
            execute(c, "ROLLBACK");
            assertEquals(0, value(serverA, SCHEMA_A, 2));
            assertEquals(0, value(serverB, SCHEMA_B, 3));
        }
    }

    /** Thousands of rows from each server: the merge starts while the servers' answers are still being read. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void anAnswerOfManyRowsFromBothServersIsMergedWhole(Driver driver) throws SQLException {
        String rows = "SET SESSION max_recursive_iterations = 100000; INSERT INTO t_acct WITH RECURSIVE s(n) AS "
                + "(SELECT 4 UNION ALL SELECT n + 1 FROM s WHERE n < 20003) SELECT n, n FROM s WHERE MOD(n, 2) = %d";
        serverA.execute(SCHEMA_A, "strata", "strata", rows.formatted(0).split("; "));
        serverB.execute(SCHEMA_B, "strata", "strata", rows.formatted(1).split("; "));
        try (Connection c = connect(driver, true); PreparedStatement st = c.prepareStatement(
                "SELECT id, v FROM t_acct WHERE id >= ? ORDER BY id DESC")) {
            st.setInt(1, 0);
            try (ResultSet rs = st.executeQuery()) {
                int expected = 20003;
                while (rs.next()) {
                    assertEquals(expected, rs.getInt(1));
                    expected--;
                }
                assertEquals(-1, expected, "every row of both servers, in order");
            }
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.execute();
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void theYoungerOfTwoTransactionsWaitingForEachOtherAcrossServersGets1213AndIsRolledBackOnBoth(Driver driver)
            throws Exception {
        relayOnly();
        try (Connection older = connect(driver, false); Connection younger = connect(driver, true)) {
            older.setAutoCommit(false);
            younger.setAutoCommit(false);
            update(older, 0); // locks row 0 on server A
            Thread.sleep(1100); // trx_started has a resolution of one second: the other is younger
            update(younger, 1); // locks row 1 on server B
            long brokenBefore = strata.backends().deadlocksBroken();
            long started = System.nanoTime();
            CompletableFuture<SQLException> olderWaits = CompletableFuture.supplyAsync(() -> tryUpdate(older, 1));
            Thread.sleep(200);
            SQLException youngerFailed = tryUpdate(younger, 0); // the cycle closes here
            SQLException olderFailed = olderWaits.get(20, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertTrue(youngerFailed != null, "the younger transaction is the victim");
            assertEquals(1213, youngerFailed.getErrorCode(), youngerFailed.getMessage());
            assertEquals("40001", youngerFailed.getSQLState());
            assertEquals(null, olderFailed, "the older transaction goes on");
            assertTrue(millis < 5000, "broken in " + millis + " ms, not at innodb_lock_wait_timeout");
            assertTrue(strata.backends().deadlocksBroken() > brokenBefore, "counted in strata_deadlocks_broken");
            older.commit();

            // the younger's first update (row 1 on B) was rolled back; the older's two stay
            assertEquals(List.of(1, 1), values());
            // the victim's session works on: a new transaction commits
            update(younger, 3);
            younger.commit();
            assertEquals(List.of(1, 1, 1), values());
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aVictimWhoseStatementRanOnBothServersIsRolledBackOnBoth(Driver driver) throws Exception {
        relayOnly();
        try (Connection older = connect(driver, false); Connection younger = connect(driver, false)) {
            older.setAutoCommit(false);
            younger.setAutoCommit(false);
            update(older, 0);
            Thread.sleep(1100);
            update(younger, 1);
            CompletableFuture<SQLException> olderWaits = CompletableFuture.supplyAsync(() -> tryUpdate(older, 1));
            Thread.sleep(200);
            SQLException youngerFailed = null;
            try (Statement st = younger.createStatement()) {
                st.executeUpdate("UPDATE t_acct SET v = v + 1 WHERE id IN (0, 3)"); // row 3 on B, waits on A
            } catch (SQLException e) {
                youngerFailed = e;
            }

            assertTrue(youngerFailed != null, "the younger transaction is the victim");
            assertEquals(1213, youngerFailed.getErrorCode(), youngerFailed.getMessage());
            assertEquals(null, olderWaits.get(20, TimeUnit.SECONDS));
            older.commit();
            assertEquals(List.of(1, 1), values(), "row 3, which the victim's statement did change on B, is not");
        }
    }

    /**
     * The check of lock waits across data sources watches the relay's native connections; under executor: jdbc a
     * cycle across data sources ends at the servers' innodb_lock_wait_timeout (README: Executors, what differs).
     */
    private static void relayOnly() {
        assumeTrue(io.strata.config.ServerConfig.RELAY.equals(StrataFixture.executor()),
                "deadlocks across data sources are broken by the relay executor's check only");
    }

    /** MariaDB refreshes INNODB_TRX at most every 100 ms after the last read: reading faster sees the same rows. */
    private static boolean pause() throws InterruptedException {
        Thread.sleep(250);
        return true;
    }

    private static List<String> openTransactions(EmbeddedMariaDb server, String schema) throws SQLException {
        List<String> open = new ArrayList<>();
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT t.trx_mysql_thread_id, t.trx_state, t.trx_started, "
                     + "t.trx_rows_locked, p.db, p.command, p.info FROM information_schema.INNODB_TRX t "
                     + "LEFT JOIN information_schema.PROCESSLIST p ON p.id = t.trx_mysql_thread_id")) {
            while (rs.next()) {
                open.add("thread " + rs.getLong(1) + " " + rs.getString(2) + " since " + rs.getString(3) + " locks "
                        + rs.getLong(4) + " db " + rs.getString(5) + " " + rs.getString(6) + " " + rs.getString(7));
            }
        }
        return open;
    }

    private static SQLException tryUpdate(Connection c, int id) {
        try {
            update(c, id);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private static void update(Connection c, int id) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("UPDATE t_acct SET v = v + 1 WHERE id = ?")) {
            st.setInt(1, id);
            assertEquals(1, st.executeUpdate());
        }
    }

    /** The values of rows 0, 1 and (when changed) 3, read on the servers. */
    private static List<Integer> values() throws SQLException {
        List<Integer> values = new ArrayList<>();
        values.add(value(serverA, SCHEMA_A, 0));
        values.add(value(serverB, SCHEMA_B, 1));
        int three = value(serverB, SCHEMA_B, 3);
        if (three != 0) {
            values.add(three);
        }
        return values;
    }

    private static int value(EmbeddedMariaDb server, String schema, int id) throws SQLException {
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT v FROM t_acct WHERE id = " + id)) {
            assertTrue(rs.next());
            return rs.getInt(1);
        }
    }

    private static Connection connect(Driver driver, boolean binary) throws SQLException {
        return StrataFixture.connect(strata.port(), "shop", driver, binary);
    }

    private static StrataConfig config() {
        return StrataFixture.shop(serverA, SCHEMA_A, serverB, SCHEMA_B, RULES);
    }
}
