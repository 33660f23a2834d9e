import java.io.IOException;
import java.io.PrintWriter;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The clients of bench/faults.sh: they run against Strata while the script kills or stops things, and count what
 * they saw. Run with the java launcher and MariaDB Connector/J on the class path:
 *
 * <pre>
 * java -cp mariadb-java-client.jar bench/FaultClients.java mixed  URL STOP_FILE SESSIONS IDLE_SESSIONS
 * java -cp mariadb-java-client.jar bench/FaultClients.java ledger URL STOP_FILE THREADS SLEEP_MS ACKED_FILE
 * java -cp mariadb-java-client.jar bench/FaultClients.java check  URL ACKED_FILE
 * </pre>
 *
 * <ul>
 *   <li>{@code mixed}: SESSIONS sessions run reads and short write transactions without pause, IDLE_SESSIONS run
 *   one read every 5-15 s; each keeps its connection through errors (a rollback after a failed transaction). At the
 *   end (the stop file appears) it prints the statements answered, the errors by code, how many errors named the
 *   data source, the connections that were closed under a session, and the slowest answer.</li>
 *   <li>{@code ledger}: THREADS sessions each run {@code BEGIN; INSERT ledger_a; [SELECT SLEEP]; INSERT ledger_b;
 *   COMMIT} with unique ids, reconnecting whenever the connection is gone; every id whose COMMIT was acknowledged
 *   goes to ACKED_FILE at the end. Errors are counted by the statement they hit: an error at BEGIN falls between
 *   transactions, any later one cut a transaction.</li>
 *   <li>{@code check} (URL of the database itself): every acknowledged id is in both tables, and no id is in one
 *   table only (a half-applied transaction).</li>
 * </ul>
 */
public class FaultClients {

    private static final Map<String, LongAdder> ERRORS = new ConcurrentHashMap<>();
    private static final LongAdder OK = new LongAdder();
    private static final LongAdder NAMED = new LongAdder();
    private static final LongAdder LOST = new LongAdder();
    private static final LongAdder IDLE_ERRORS = new LongAdder();
    private static final LongAdder IDLE_LOST = new LongAdder();
    private static final AtomicLong SLOWEST_NANOS = new AtomicLong();
    /** Counted down by each session's first connection: "ready" tells bench/faults.sh the load is on. */
    private static CountDownLatch connected = new CountDownLatch(0);

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "mixed" -> mixed(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            case "ledger" -> ledger(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Path.of(args[5]));
            case "check" -> check(args[1], Path.of(args[2]));
            default -> {
                System.err.println("usage: FaultClients.java mixed|ledger|check ... (see the class comment)");
                System.exit(2);
            }
        }
    }

    // ---- mixed: a read/write load that keeps its sessions ---------------------------------------------------

    private static void mixed(String url, Path stop, int sessions, int idleSessions) throws Exception {
        connected = new CountDownLatch(sessions + idleSessions);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            int session = i;
            threads.add(Thread.ofPlatform().start(() -> activeSession(url, stop, session)));
        }
        for (int i = 0; i < idleSessions; i++) {
            threads.add(Thread.ofPlatform().start(() -> idleSession(url, stop)));
        }
        ready();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("statements answered " + OK.sum());
        System.out.println("errors " + total(ERRORS) + " by code " + byCode(ERRORS));
        System.out.println("errors naming the data source " + NAMED.sum() + " of " + total(ERRORS));
        System.out.println("active sessions whose connection closed " + LOST.sum() + " of " + sessions);
        System.out.println("idle sessions: errors " + IDLE_ERRORS.sum() + ", connections closed " + IDLE_LOST.sum()
                + " of " + idleSessions);
        System.out.printf("slowest answer %.1f s%n", SLOWEST_NANOS.get() / 1e9);
    }

    private static void activeSession(String url, Path stop, int session) {
        Connection c = connect(url, stop);
        long seq = 0;
        while (c != null && !Files.exists(stop)) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int id = random.nextInt(1, 9_900);
            boolean transaction = random.nextBoolean();
            try (Statement st = c.createStatement()) {
                if (!transaction) {
                    timed(() -> query(st, "SELECT c FROM sbtest1 WHERE id = " + id));
                } else {
                    long ledgerId = session * 1_000_000_000L + seq++;
                    timed(() -> st.execute("BEGIN"));
                    timed(() -> st.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + id));
                    timed(() -> query(st, "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN " + id + " AND " + (id + 99)));
                    timed(() -> st.executeUpdate("INSERT INTO fault_mixed (id) VALUES (" + ledgerId + ")"));
                    timed(() -> st.execute("COMMIT"));
                }
            } catch (SQLException e) {
                count(e);
                if (closed(c)) {
                    LOST.increment();
                    c = connect(url, stop);
                } else if (transaction) {
                    try (Statement st = c.createStatement()) {
                        st.execute("ROLLBACK");
                    } catch (SQLException ignored) {
                        // the next statement tells whether the session survived
                    }
                }
            }
        }
        close(c);
    }

    private static void idleSession(String url, Path stop) {
        Connection c = connect(url, stop);
        while (c != null && !Files.exists(stop)) {
            sleepUntil(stop, ThreadLocalRandom.current().nextLong(5_000, 15_000));
            if (Files.exists(stop)) {
                break;
            }
            try (Statement st = c.createStatement()) {
                timed(() -> query(st, "SELECT c FROM sbtest1 WHERE id = " + ThreadLocalRandom.current().nextInt(1, 9_900)));
            } catch (SQLException e) {
                IDLE_ERRORS.increment();
                count(e);
                if (closed(c)) {
                    IDLE_LOST.increment();
                    c = connect(url, stop);
                }
            }
        }
        close(c);
    }

    // ---- ledger: acknowledged commits, checked on the database afterwards ---------------------------------------

    private static final String[] STEPS = {"BEGIN", "INSERT ledger_a", "SELECT SLEEP", "INSERT ledger_b", "COMMIT"};

    private static void ledger(String url, Path stop, int threads, int sleepMs, Path ackedFile) throws Exception {
        ConcurrentLinkedQueue<Long> acked = new ConcurrentLinkedQueue<>();
        LongAdder unknown = new LongAdder();
        LongAdder connections = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        connected = new CountDownLatch(threads);
        long base = System.currentTimeMillis() * 1_000;
        for (int i = 0; i < threads; i++) {
            long first = base + i * 100_000_000L;
            workers.add(Thread.ofPlatform().start(
                    () -> ledgerSession(url, stop, first, sleepMs, acked, unknown, connections)));
        }
        ready();
        for (Thread t : workers) {
            t.join();
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(ackedFile))) {
            acked.forEach(out::println);
        }
        long cut = ERRORS.entrySet().stream().filter(e -> !e.getKey().startsWith("BEGIN "))
                .mapToLong(e -> e.getValue().sum()).sum();
        System.out.println("commits acknowledged " + acked.size() + ", commits with an unknown outcome "
                + unknown.sum() + ", connections opened " + connections.sum());
        System.out.println("errors " + total(ERRORS) + " by statement and code " + byCode(ERRORS));
        System.out.println("errors inside a transaction (after its BEGIN was answered) " + cut);
    }

    private static void ledgerSession(String url, Path stop, long first, int sleepMs, ConcurrentLinkedQueue<Long> acked,
                                      LongAdder unknown, LongAdder connections) {
        long id = first;
        Connection c = null;
        while (!Files.exists(stop)) {
            if (c == null) {
                c = connect(url, stop);
                if (c == null) {
                    return;
                }
                connections.increment();
            }
            int step = 0;
            long txn = id++;
            try (Statement st = c.createStatement()) {
                st.execute("BEGIN");
                step++;
                st.executeUpdate("INSERT INTO ledger_a (id) VALUES (" + txn + ")");
                step++;
                if (sleepMs > 0) {
                    query(st, "SELECT SLEEP(" + sleepMs / 1000.0 + ")");
                }
                step++;
                st.executeUpdate("INSERT INTO ledger_b (id) VALUES (" + txn + ")");
                step++;
                st.execute("COMMIT");
                acked.add(txn);
            } catch (SQLException e) {
                String key = STEPS[step] + " " + code(e);
                ERRORS.computeIfAbsent(key, k -> new LongAdder()).increment();
                if (step == STEPS.length - 1) {
                    unknown.increment();
                }
                if (closed(c)) {
                    close(c);
                    c = null;
                } else {
                    try (Statement st = c.createStatement()) {
                        st.execute("ROLLBACK");
                    } catch (SQLException ignored) {
                        close(c);
                        c = null;
                    }
                }
            }
        }
        close(c);
    }

    private static void check(String url, Path ackedFile) throws Exception {
        Set<Long> acked = new HashSet<>();
        for (String line : Files.readAllLines(ackedFile)) {
            acked.add(Long.parseLong(line.trim()));
        }
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            Set<Long> a = ids(st, "SELECT id FROM ledger_a");
            Set<Long> b = ids(st, "SELECT id FROM ledger_b");
            long missing = acked.stream().filter(id -> !a.contains(id) || !b.contains(id)).count();
            long half = a.stream().filter(id -> !b.contains(id)).count() + b.stream().filter(id -> !a.contains(id)).count();
            System.out.println("acknowledged " + acked.size() + ", in the database " + a.size() + " / " + b.size()
                    + " (ledger_a / ledger_b); acknowledged but missing " + missing + ", half-applied " + half);
            System.exit(missing == 0 && half == 0 ? 0 : 1);
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

    // ---- helpers --------------------------------------------------------------------------------------------

    private interface Step {
        void run() throws SQLException;
    }

    private static void timed(Step step) throws SQLException {
        long start = System.nanoTime();
        try {
            step.run();
            OK.increment();
        } finally {
            SLOWEST_NANOS.accumulateAndGet(System.nanoTime() - start, Math::max);
        }
    }

    private static void query(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rs.getString(1);
            }
        }
    }

    private static void count(SQLException e) {
        ERRORS.computeIfAbsent(code(e), k -> new LongAdder()).increment();
        if (String.valueOf(e.getMessage()).contains("'ds_0'")) {
            NAMED.increment();
        }
    }

    /** The server's error code, or the SQLSTATE when the driver raised it itself (a closed connection: 08...). */
    private static String code(SQLException e) {
        return e.getErrorCode() != 0 ? String.valueOf(e.getErrorCode()) : "state-" + e.getSQLState();
    }

    private static boolean closed(Connection c) {
        try {
            return c.isClosed() || !c.isValid(5);
        } catch (SQLException e) {
            return true;
        }
    }

    private static void ready() throws InterruptedException {
        connected.await();
        System.out.println("ready");
        System.out.flush();
    }

    private static Connection connect(String url, Path stop) {
        while (!Files.exists(stop)) {
            try {
                Connection c = DriverManager.getConnection(url);
                connected.countDown();
                return c;
            } catch (SQLException e) {
                sleepUntil(stop, 100);
            }
        }
        return null;
    }

    private static void close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // gone already
            }
        }
    }

    private static void sleepUntil(Path stop, long millis) {
        long end = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < end && !Files.exists(stop)) {
            try {
                Thread.sleep(Math.min(100, end - System.currentTimeMillis() + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static long total(Map<String, LongAdder> counts) {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static String byCode(Map<String, LongAdder> counts) {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted.toString();
    }
}
