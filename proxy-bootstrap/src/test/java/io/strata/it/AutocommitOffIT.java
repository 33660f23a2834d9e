package io.strata.it;

import io.strata.config.ServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that open every connection with autocommit off, as PyMySQL, mysqlclient, and pools with
 * {@code autoCommit: false} do, hold a backend connection only while a transaction is open on the server, and share
 * the pool between their transactions. What ran where is read from MariaDB itself: its processlist, and the backend
 * connection id each transaction saw.
 */
class AutocommitOffIT {

    private static final String BACKEND_USER = "acoff";
    private static final int SESSIONS = 500;
    private static final int POOL = 16;
    private static final int TRANSACTIONS = 3;
    private StrataFixture strata;

    @BeforeAll
    static void users() throws SQLException {
        Backend.server().createDatabase(Backend.SCHEMA, BACKEND_USER, BACKEND_USER);
        Backend.execute("DROP TABLE IF EXISTS ac_ledger", """
                CREATE TABLE ac_ledger (session INT, tx INT, n INT, driver VARCHAR(8), state VARCHAR(8),
                                        PRIMARY KEY (driver, session, tx, n)) ENGINE=InnoDB""");
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

    /**
     * 500 sessions with autocommit off, all open at once on a pool of 16, each running three transactions with
     * pauses between them (the other sessions' transactions): none fails, each sees its own writes and none of
     * another's uncommitted ones, the server never sees more than 16 of Strata's connections, and sessions move
     * between backend connections from one transaction to the next.
     */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void fiveHundredSessionsWithAutocommitOffShareSixteenConnections(StrataFixture.Driver driver) throws Exception {
        start(POOL, 20_000);
        List<Connection> sessions = new ArrayList<>();
        ExecutorService workers = Executors.newFixedThreadPool(32);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger mostBackendConnections = new AtomicInteger();
        Thread watcher = Thread.ofPlatform().start(() -> watchProcesslist(running, mostBackendConnections));
        try {
            for (int i = 0; i < SESSIONS; i++) {
                Connection c = strata.connect(driver);
                c.setAutoCommit(false);
                sessions.add(c);
            }
            // every session is open, autocommit off, idle: none holds a backend connection
            assertTrue(backendConnections() <= POOL, "idle sessions with autocommit off share the pool");
            Map<Integer, List<Long>> backendIds = new ConcurrentHashMap<>();
            Deque<int[]> turns = new ArrayDeque<>(); // {session, transactions done}; a session's turns never overlap
            for (int i = 0; i < SESSIONS; i++) {
                turns.add(new int[] {i, 0});
            }
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 32; w++) {
                done.add(workers.submit(() -> {
                    while (true) {
                        int[] turn;
                        synchronized (turns) {
                            turn = turns.poll();
                        }
                        if (turn == null) {
                            return null;
                        }
                        long backend = transaction(sessions.get(turn[0]), driver.name(), turn[0], turn[1]);
                        backendIds.computeIfAbsent(turn[0], s -> new ArrayList<>()).add(backend);
                        if (++turn[1] < TRANSACTIONS) {
                            synchronized (turns) {
                                turns.addLast(turn); // its next transaction waits behind every other session's
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            running.set(false);
            watcher.join();
            assertTrue(mostBackendConnections.get() <= POOL && mostBackendConnections.get() > 0,
                    "backend connections seen by the server: " + mostBackendConnections.get());
            Set<Long> distinct = new HashSet<>();
            backendIds.values().forEach(distinct::addAll);
            assertTrue(distinct.size() <= POOL, "500 sessions ran on " + distinct.size() + " backend connections");
            long moved = backendIds.values().stream().filter(ids -> new HashSet<>(ids).size() > 1).count();
            assertTrue(moved > SESSIONS / 2, "sessions that changed backend connection between transactions: "
                    + moved);
            assertEquals(SESSIONS * TRANSACTIONS * 2, committedRows(driver.name()));
            assertEquals(0, openTransactions(), "no session idle after COMMIT holds a transaction");
        } finally {
            running.set(false);
            workers.shutdownNow();
            for (Connection c : sessions) {
                c.close();
            }
        }
    }

    /**
     * One transaction of a session: two writes it must read back, none of another session's uncommitted writes
     * (every committed row is 'done'), and the backend connection it ran on.
     */
    private static long transaction(Connection c, String driver, int session, int tx) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO ac_ledger VALUES (?, ?, ?, ?, 'pending')"); Statement st = c.createStatement()) {
            for (int n = 1; n <= 2; n++) {
                insert.setInt(1, session);
                insert.setInt(2, tx);
                insert.setInt(3, n);
                insert.setString(4, driver);
                insert.executeUpdate();
            }
            long backend = JdbcIT.queryLong(st, "SELECT CONNECTION_ID() + 0");
            assertEquals(2, JdbcIT.queryLong(st, "SELECT COUNT(*) FROM ac_ledger WHERE driver = '" + driver
                    + "' AND session = " + session + " AND tx = " + tx), "a transaction sees its own writes");
            assertEquals(0, JdbcIT.queryLong(st, "SELECT COUNT(*) FROM ac_ledger WHERE state = 'pending' AND NOT ("
                    + "driver = '" + driver + "' AND session = " + session + ")"),
                    "and none of another session's uncommitted ones");
            assertEquals(backend, JdbcIT.queryLong(st, "SELECT CONNECTION_ID() + 0"),
                    "a transaction stays on its backend connection");
            st.executeUpdate("UPDATE ac_ledger SET state = 'done' WHERE driver = '" + driver + "' AND session = "
                    + session + " AND tx = " + tx);
            c.commit();
            return backend;
        }
    }

    /**
     * A session idle after COMMIT holds nothing: with a pool of one connection, sessions with autocommit off take
     * turns, each transaction on the one connection the last one committed on.
     */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void aSessionIdleAfterCommitDoesNotHoldAConnection(StrataFixture.Driver driver) throws Exception {
        start(1, 2000);
        try (Connection a = strata.connect(driver); Connection b = strata.connect(driver)) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            long first = transaction(a, driver.name() + "1", 1, 0);
            assertEquals(first, transaction(b, driver.name() + "1", 2, 0), "b gets the connection a committed on");
            assertEquals(first, transaction(a, driver.name() + "1", 1, 1));
            try (Statement st = a.createStatement()) {
                // a read opens a transaction too (InnoDB's snapshot): a keeps the connection until it ends it
                JdbcIT.queryLong(st, "SELECT COUNT(*) FROM ac_ledger");
                try (Statement other = b.createStatement()) {
                    SQLException full = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                            () -> other.executeQuery("SELECT COUNT(*) FROM ac_ledger"));
                    assertEquals(1040, full.getErrorCode(), "the only connection is in a's open transaction");
                }
                a.rollback();
            }
            assertEquals(first, transaction(b, driver.name() + "1", 2, 1));
        }
    }

    /**
     * PyMySQL's way, byte for byte: {@code SET AUTOCOMMIT = 0} right after connecting, then nothing for a while.
     * Forty such sessions on a pool of two each get an answer.
     */
    @Test
    void idleSessionsThatTurnedAutocommitOffDoNotExhaustThePool() throws Exception {
        start(2, 2000);
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                RawClient client = RawClient.connect(strata.port(), "root", "root", "it");
                clients.add(client);
                assertFalse(client.query("SET AUTOCOMMIT = 0").isEmpty());
            }
            for (RawClient client : clients) {
                assertEquals("0", SessionIT.text(client.query("SELECT @@autocommit")),
                        "each session runs with its own autocommit, whichever connection it gets");
            }
            assertTrue(backendConnections() <= 2);
        } finally {
            for (RawClient client : clients) {
                client.close();
            }
        }
    }

    private static void watchProcesslist(AtomicBoolean running, AtomicInteger most) {
        while (running.get()) {
            try {
                most.accumulateAndGet(backendConnections(), Math::max);
                Thread.sleep(20);
            } catch (SQLException | InterruptedException e) {
                return;
            }
        }
    }

    private static int backendConnections() throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = '"
                     + BACKEND_USER + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static long committedRows(String driver) throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement()) {
            return JdbcIT.queryLong(st, "SELECT COUNT(*) FROM ac_ledger WHERE state = 'done' AND driver = '"
                    + driver + "'");
        }
    }

    private static long openTransactions() throws SQLException {
        try (Connection c = Backend.direct(); Statement st = c.createStatement()) {
            return JdbcIT.queryLong(st, "SELECT COUNT(*) FROM information_schema.INNODB_TRX t JOIN "
                    + "information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id WHERE p.USER = '"
                    + BACKEND_USER + "'");
        }
    }
}
