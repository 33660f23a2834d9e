package io.strata.it;

import io.strata.backend.relay.ResponseKind;
import io.strata.config.ServerConfig;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random sessions, each run straight on MariaDB and through Strata, answer alike: every response, packet for packet.
 * Through Strata the pool has one connection, and another session changes its own state there whenever the first
 * lets it go. The statements mix session variables, character sets, transactions, savepoints, inserts, warnings,
 * errors, temporary tables, user variables, locks, multi-statements and prepared statements, some kept across the
 * session's changes; each side writes to its own table. The seeds are fixed, so a failure repeats;
 * {@code -Dstrata.it.seeds=1-200} runs more of them.
 */
class RandomSessionIT {

    private static final String BACKEND_USER = "fuzz";
    private static final int STEPS = 120;
    private StrataFixture strata;

    @BeforeAll
    static void users() {
        Backend.server().createDatabase(Backend.SCHEMA, BACKEND_USER, BACKEND_USER);
    }

    @AfterEach
    void stop() {
        KEPT.clear();
        if (strata != null) {
            strata.close();
        }
    }

    static LongStream seeds() {
        String[] range = System.getProperty("strata.it.seeds", "1-6").split("-");
        return LongStream.rangeClosed(Long.parseLong(range[0]), Long.parseLong(range[range.length - 1]));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aRandomSessionAnswersAsMariaDbDoes(long seed) throws Exception {
        int waitMillis = StrataFixture.executor().equals(ServerConfig.RELAY) ? 50 : 250; // HikariCP's least
        strata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of("maximumPoolSize", 1, "connectionTimeout", waitMillis), BACKEND_USER);
        for (String table : List.of("fz_a", "fz_b", "fz_o")) {
            Backend.execute("DROP TABLE IF EXISTS " + table, "CREATE TABLE " + table
                    + " (id INT AUTO_INCREMENT PRIMARY KEY, v INT, s VARCHAR(8), UNIQUE KEY (v))");
        }
        Random random = new Random(seed);
        Random others = new Random(-seed);
        List<String> steps = new ArrayList<>();
        int otherRan = 0;
        // the handshake collations, drawn from the seed without touching the statements' draws
        int collation = HANDSHAKES[(int) (seed % HANDSHAKES.length)];
        int otherCollation = HANDSHAKES[(int) (seed / HANDSHAKES.length % HANDSHAKES.length)];
        try (RawClient direct = RawClient.connect(Backend.server().port(), "checker", "checker", Backend.SCHEMA,
                RawClient.CAPABILITIES, collation);
             RawClient proxied = client(collation); RawClient other = client(otherCollation)) {
            // MariaDB hands a new connection the FOUND_ROWS() its thread's previous one left: start both at 0
            direct.query("SELECT 1 FROM DUAL WHERE 0");
            proxied.query("SELECT 1 FROM DUAL WHERE 0");
            for (int i = 0; i < STEPS; i++) {
                Step step = STATEMENTS.get(random.nextInt(STATEMENTS.size()));
                String sql = step.sql(random);
                if (sql.equals("SET autocommit = 1") && characteristicsLinger(steps)) {
                    steps.add("COMMIT");
                    assertEquals(render(direct.query("COMMIT")), render(proxied.query("COMMIT")));
                }
                steps.add(sql);
                String expected = step.run(direct, sql.replace("{t}", "fz_a"));
                String actual = step.run(proxied, sql.replace("{t}", "fz_b")).replace("fz_b", "fz_a");
                assertEquals(expected, actual, () -> "seed " + seed + ", step " + steps.size() + " of:\n"
                        + String.join("\n", steps));
                otherRan += interfere(other, others);
            }
        }
        // At least once, so the shared connection was shared. Not more: a session that pins its connection early
        // (a temporary table, a lock) holds it for the rest, and seed 236 lets the other session in only 4 times.
        assertTrue(otherRan > 0, "the other session never got the connection");
    }

    /** Steps after which the session is in no transaction or a fresh one. */
    private static final List<String> TRANSACTION_ENDS = List.of("COMMIT", "ROLLBACK", "BEGIN",
            "START TRANSACTION READ ONLY", "COM_RESET_CONNECTION");

    /**
     * Whether the session may have changed its access mode or isolation level inside the transaction it is in. When
     * SET autocommit = 1 ends such a transaction, MariaDB runs its next table statement in the ended transaction's
     * mode, which Strata does not copy (README); so the test ends it with COMMIT first, after which both agree.
     */
    private static boolean characteristicsLinger(List<String> steps) {
        for (String step : steps.reversed()) {
            if (step.startsWith("SET SESSION TRANSACTION")) {
                return true;
            }
            if (TRANSACTION_ENDS.contains(step)) {
                return false;
            }
        }
        return false;
    }

    /** Another session's statement on the shared connection, if the first session let it go; then clean warnings. */
    private static int interfere(RawClient other, Random random) throws IOException {
        String sql = OTHERS[random.nextInt(OTHERS.length)];
        ErrPacket error = RawClient.error(other.query(sql));
        if (error != null && error.errorCode() == ErrorCode.POOL_EXHAUSTED.code()) {
            return 0; // the pool's only connection is the first session's
        }
        // A statement that reads a table clears the warnings: kept for SHOW WARNINGS, they would hold the connection.
        other.query("SELECT 1 FROM fz_o LIMIT 0");
        return 1;
    }

    private RawClient client(int collation) throws IOException {
        return RawClient.connect(strata.port(), "root", "root", "it", RawClient.CAPABILITIES, collation);
    }

    /**
     * Collations a session's handshake asks for: utf8mb4_general_ci, utf8mb4_unicode_ci, latin1_swedish_ci,
     * utf8mb4_bin, utf8mb3_bin, cp1251_general_ci.
     */
    private static final int[] HANDSHAKES = {45, 224, 8, 46, 83, 51};

    /** What the other session does between two steps: change its own state, leave warnings, insert. */
    private static final String[] OTHERS = {"SET sql_mode = 'NO_ENGINE_SUBSTITUTION'", "SET time_zone = '-03:00'",
        "SET NAMES koi8r", "SET character_set_results = NULL", "SET NAMES latin1 COLLATE latin1_bin",
        "SET sql_select_limit = 7", "SET max_statement_time = 9", "SET NAMES utf8mb4", "SELECT CAST('x' AS INT)",
        "SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", "SET SESSION TRANSACTION READ ONLY",
        "SET SESSION TRANSACTION READ WRITE", "INSERT INTO fz_o (v) VALUES (NULL)",
        "SET div_precision_increment = 1", "SELEC 1", "SELECT 1 FROM fz_o"};

    /**
     * A statement in the text protocol, COM_RESET_CONNECTION, a statement prepared, executed once and closed, or one
     * the session keeps: prepared at its first step and executed at each, whatever the session set since.
     */
    private enum Kind { QUERY, RESET, PREPARED, KEPT }

    /** Each client's kept statements: their ids by SQL (COM_RESET_CONNECTION closes them). */
    private static final Map<RawClient, Map<String, Long>> KEPT = new java.util.IdentityHashMap<>();

    /** How a step runs and what of its response is compared. */
    private record Step(Function<Random, String> sql, Kind kind) {

        String sql(Random random) {
            return sql.apply(random);
        }

        String run(RawClient client, String sql) throws IOException {
            return switch (kind) {
                case QUERY -> render(client.query(sql));
                case RESET -> {
                    KEPT.remove(client);
                    yield render(client.command(CommandType.COM_RESET_CONNECTION.code(), new byte[0],
                            ResponseKind.STATUS));
                }
                case PREPARED -> prepared(client, sql);
                case KEPT -> kept(client, sql);
            };
        }

        /** "param statement": prepared the first time (the prepare's response), then executed with that parameter. */
        private static String kept(RawClient client, String sql) throws IOException {
            int space = sql.indexOf(' ');
            String text = sql.substring(space + 1);
            Map<String, Long> ids = KEPT.computeIfAbsent(client, c -> new java.util.HashMap<>());
            Long id = ids.get(text);
            String prepared = "";
            if (id == null) {
                List<byte[]> prepare = client.command(CommandType.COM_STMT_PREPARE.code(), bytes(text),
                        ResponseKind.PREPARE);
                if (RawClient.error(prepare) != null) {
                    return render(prepare);
                }
                id = PreparedStatementIT.statementId(prepare);
                ids.put(text, id);
                prepared = render(PreparedStatementIT.withoutId(prepare));
            }
            int param = Integer.parseInt(sql.substring(0, space));
            return prepared + render(PreparedStatementIT.execute(client, id, param));
        }

        /** Latin-1 letters go as their bytes ('é' as E9, invalid UTF-8), as a latin1 client sends them. */
        private static byte[] bytes(String text) {
            return text.chars().allMatch(c -> c < 256) ? text.getBytes(StandardCharsets.ISO_8859_1)
                    : text.getBytes(StandardCharsets.UTF_8);
        }

        /** "param statement": the prepare's response, the execute's with that INT parameter; then the close. */
        private static String prepared(RawClient client, String sql) throws IOException {
            int space = sql.indexOf(' ');
            String text = sql.substring(space + 1);
            List<byte[]> prepare = client.command(CommandType.COM_STMT_PREPARE.code(), bytes(text),
                    ResponseKind.PREPARE);
            if (RawClient.error(prepare) != null) {
                return render(prepare);
            }
            long id = PreparedStatementIT.statementId(prepare);
            int param = Integer.parseInt(sql.substring(0, space));
            String executed = render(PreparedStatementIT.execute(client, id, param));
            client.writePacket(0, new byte[] {0x19, (byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24)});
            return render(PreparedStatementIT.withoutId(prepare)) + executed;
        }
    }

    /** The transaction_ names: the tx_ ones warn on MariaDB 11, and a warning keeps the connection with the session. */
    private static final String PROBE = "SELECT CONCAT_WS('|', @@autocommit, @@in_transaction, @@sql_mode,"
            + " @@time_zone, @@transaction_isolation, @@transaction_read_only, @@sql_select_limit,"
            + " @@max_statement_time,"
            + " @@lc_time_names, @@div_precision_increment, 1/3, 'ł', 'a' = 'A', @@character_set_client,"
            + " @@character_set_connection, IFNULL(@@character_set_results, 'NULL'), @@collation_connection) AS probe";

    private static final String[] KEPT_SQL = {"SELECT CONCAT(\"q\", 'é', ?)", "SELECT 'a' = 'A', ?",
        "SELECT 'ł', ?, @@collation_connection", "SELECT id, v, s FROM {t} WHERE v >= ?", "SELECT 'é', ?"};

    private static final List<Step> STATEMENTS = steps();

    private static List<Step> steps() {
        List<Step> steps = new ArrayList<>();
        // the probe of the session's state, often
        add(steps, 6, r -> PROBE);
        // tracked session variables
        add(steps, 1, r -> "SET sql_mode = '" + pick(r, "ANSI_QUOTES", "STRICT_TRANS_TABLES", "", "TRADITIONAL",
                "ERROR_FOR_DIVISION_BY_ZERO") + "'");
        add(steps, 1, r -> "SET time_zone = '" + pick(r, "+05:00", "SYSTEM", "-01:00", "nonsense") + "'");
        add(steps, 2, r -> "SET NAMES " + pick(r, "latin1", "utf8mb4", "utf8mb4 COLLATE utf8mb4_bin",
                "latin1 COLLATE latin1_bin", "koi8r"));
        add(steps, 1, r -> pick(r, "SET character_set_results = NULL", "SET collation_connection = utf8mb4_unicode_ci",
                "SET CHARACTER SET koi8r"));
        add(steps, 1, r -> "SET sql_select_limit = " + pick(r, "2", "DEFAULT"));
        add(steps, 1, r -> "SET max_statement_time = " + pick(r, "0", "5"));
        add(steps, 1, r -> "SET lc_time_names = '" + pick(r, "de_DE", "en_US") + "'");
        add(steps, 1, r -> "SET div_precision_increment = " + pick(r, "8", "DEFAULT"));
        add(steps, 1, r -> "SET autocommit = " + pick(r, "0", "1"));
        add(steps, 1, r -> "SET SESSION TRANSACTION " + pick(r, "ISOLATION LEVEL SERIALIZABLE",
                "ISOLATION LEVEL READ COMMITTED", "READ ONLY", "READ WRITE"));
        add(steps, 1, r -> "SET sql_mode = CONCAT(@@sql_mode, ',NO_ZERO_DATE'), time_zone = '+02:00'");
        // transactions
        add(steps, 2, r -> pick(r, "BEGIN", "START TRANSACTION READ ONLY", "COMMIT", "ROLLBACK", "COMMIT",
                "SAVEPOINT sp", "ROLLBACK TO SAVEPOINT sp", "RELEASE SAVEPOINT sp"));
        // writes and reads of the side's own table
        add(steps, 3, r -> "INSERT INTO {t} (v, s) VALUES (" + r.nextInt(20) + ", 'x')");
        add(steps, 1, r -> "INSERT IGNORE INTO {t} (v) VALUES (" + r.nextInt(20) + "), (" + r.nextInt(20) + ")");
        add(steps, 1, r -> "REPLACE INTO {t} (v, s) VALUES (" + r.nextInt(20) + ", 'r')");
        add(steps, 1, r -> "UPDATE {t} SET s = 'u' WHERE v < " + r.nextInt(20));
        add(steps, 1, r -> "DELETE FROM {t} WHERE v = " + r.nextInt(20));
        add(steps, 1, r -> "INSERT INTO {t} (v, s) VALUES (" + r.nextInt(20) + ", REPEAT('z', 12))");
        add(steps, 2, r -> pick(r, "SELECT id, v, s FROM {t} ORDER BY id", "SELECT COUNT(*) FROM {t}",
                "SELECT LAST_INSERT_ID()", "SELECT ROW_COUNT()", "SELECT FOUND_ROWS()", "SELECT LAST_INSERT_ID() + 0"));
        // warnings and errors
        add(steps, 2, r -> pick(r, "SELECT CAST('x1' AS INT)", "SELECT 1/0", "SELECT * FROM no_such_table",
                "SELEC 1", "SHOW WARNINGS", "SHOW ERRORS", "SHOW COUNT(*) WARNINGS", "SELECT @@warning_count",
                "SELECT @@error_count"));
        // state that pins
        add(steps, 1, r -> pick(r, "SET @u = " + r.nextInt(9), "SELECT @u", "SELECT GET_LOCK('lk_{t}', 0)",
                "SELECT RELEASE_LOCK('lk_{t}')", "CREATE TEMPORARY TABLE IF NOT EXISTS tt (a INT)",
                "INSERT INTO tt VALUES (1)", "SELECT COUNT(*) FROM tt", "DROP TEMPORARY TABLE IF EXISTS tt",
                "SELECT LAST_INSERT_ID(" + r.nextInt(9) + ")"));
        // several statements in one
        add(steps, 1, r -> pick(r, "SET time_zone = '+03:00'; SELECT @@time_zone",
                "INSERT INTO {t} (v) VALUES (" + r.nextInt(20) + "); SELECT ROW_COUNT()", "SELECT 1; SELEC 2"));
        add(steps, 2, Kind.RESET, r -> "COM_RESET_CONNECTION");
        // prepared, with one INT parameter (ROW_COUNT() and FOUND_ROWS() there read the server's: README)
        add(steps, 3, Kind.PREPARED, r -> r.nextInt(20) + " " + pick(r, "SELECT id, v, s FROM {t} WHERE v >= ?",
                "INSERT INTO {t} (v, s) VALUES (?, 'p')", "SELECT LAST_INSERT_ID() + ?", "SELECT @@time_zone, ?",
                "UPDATE {t} SET s = 'q' WHERE v = ?", "SELECT CAST('x' AS INT) + ?", "SELECT * FROM no_such_table",
                "SELECT 'ł', ?, @@collation_connection", "SET @u = ?", "SELECT 'é', ?", "SELECT 'è', ?",
                KEPT_SQL[r.nextInt(KEPT_SQL.length)]));
        // kept across the session's SETs: parsed in the character set, collation and sql_mode of their prepare, also
        // when a prepare of the same SQL in another state (above) took its place on the connection
        add(steps, 3, Kind.KEPT, r -> r.nextInt(20) + " " + KEPT_SQL[r.nextInt(KEPT_SQL.length)]);
        return steps;
    }

    private static void add(List<Step> steps, int weight, Function<Random, String> sql) {
        add(steps, weight, Kind.QUERY, sql);
    }

    private static void add(List<Step> steps, int weight, Kind kind, Function<Random, String> sql) {
        for (int i = 0; i < weight; i++) {
            steps.add(new Step(sql, kind));
        }
    }

    private static String pick(Random random, String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** Every packet, sequence id and payload, printable bytes as they are and others in hex. */
    private static String render(List<byte[]> packets) {
        StringBuilder out = new StringBuilder();
        for (byte[] packet : packets) {
            out.append('#').append(packet[3]).append(' ');
            for (byte b : Arrays.copyOfRange(packet, 4, packet.length)) {
                if (b >= 0x20 && b < 0x7F) {
                    out.append((char) b);
                } else {
                    out.append(String.format("\\%02x", b & 0xFF));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }
}
