package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.DigestsConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.SlowLogConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * QUERY_ROUTING, digests, the slow log and the process list, through Strata on one MariaDB server whose three schemas
 * are three data sources. Where a statement ran is read from the backend: each schema's {@code marker} row names it,
 * and writes are counted in each schema's tables; what is still running is read from the server's own process list.
 */
class QueryRulesIT {

    private static final List<String> SCHEMAS = List.of("qr_main", "qr_other", "qr_audit");
    private static final String RULES = """
            - type: QUERY_ROUTING
              rules:
                - { name: reporting-reads-only, user: reporting, pattern: "(?is)^\\\\s*(/\\\\*.*?\\\\*/\\\\s*)*(select|set|show)", negate: true, error: { code: 1142, sqlState: "42000", message: "reporting may only read" } }
                - { name: reports, user: reporting, dataSource: ds_1 }
                - { name: local-lists, clientAddress: 127.0.0.0/8, schema: shop, digestPattern: "WHERE `id` IN \\\\(\\\\.\\\\.\\\\.\\\\)", dataSource: ds_1 }
                - { name: no-purge, pattern: "(?i)^delete from orders$", error: { code: 1317, sqlState: "70100", message: "blocked by the DBA" } }
                - { name: slow-sleep, pattern: "(?i)sleep\\\\(5\\\\)", timeout: 1000 }
                - { name: hot, digest: "SELECT `v` FROM `marker` WHERE `id` = ?", dataSource: ds_1 }
                - { name: audit, pattern: "(?i)^insert into orders", mirror: ds_audit, continue: true }
                - { name: legacy, pattern: "(?i)legacy_marker", rewrite: { pattern: "(?i)legacy_marker", replacement: "marker" } }
            """;

    private static Strata strata;
    private static Path slowLog;

    @BeforeAll
    static void start() throws Exception {
        for (String schema : SCHEMAS) {
            Backend.server().createDatabase(schema, "strata", "strata");
        }
        slowLog = Files.createTempDirectory("strata-slow").resolve("slow.log");
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        List<String> names = List.of("ds_0", "ds_1", "ds_audit");
        for (int i = 0; i < names.size(); i++) {
            dataSources.put(names.get(i), DataSourceConfig.of(names.get(i), Backend.server().jdbcUrl(SCHEMAS.get(i)),
                    "strata", "strata", Map.of("maximumPoolSize", 8, "connectionTimeout", 3000)));
        }
        List<RuleConfig> rules = StrataFixture.rules(RULES);
        ServerConfig server = new ServerConfig("127.0.0.1", 0, List.of(
                new UserConfig("root", "root", List.of("*"), true),
                new UserConfig("reporting", "reporting", List.of("shop")),
                new UserConfig("plain", "plain", List.of("shop"))), ServerConfig.NATIVE_PASSWORD, 1L << 30, 2,
                StrataFixture.executor()).withSlowLog(new SlowLogConfig(true, 300, slowLog.toString()))
                .withDigests(new DigestsConfig(true, DigestsConfig.DEFAULT_MAX_DIGESTS));
        strata = Strata.builder().config(new StrataConfig(server, Map.of("shop",
                new DatabaseConfig("shop", dataSources, rules)))).start();
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
    }

    @BeforeEach
    void tables() throws SQLException {
        for (String schema : SCHEMAS) {
            Backend.server().execute(schema, "checker", "checker", "DROP TABLE IF EXISTS marker",
                    "DROP TABLE IF EXISTS orders", "CREATE TABLE marker (id INT PRIMARY KEY, v VARCHAR(20))",
                    "INSERT INTO marker VALUES (1, '" + schema + "'), (2, '" + schema + "')",
                    "CREATE TABLE orders (id INT PRIMARY KEY, v VARCHAR(20))");
        }
    }

    private static Connection connect(Driver driver, String user, boolean binary) throws SQLException {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", String.valueOf(binary));
        return driver.connect(strata.port(), "shop", user, user.equals("root") ? "root" : user, props);
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    /** Rows of {@code orders} in a schema, read on the backend. */
    private static int orders(String schema) throws SQLException {
        try (Connection c = Backend.server().connect(schema, "checker", "checker")) {
            return Integer.parseInt(one(c, "SELECT COUNT(*) FROM orders"));
        }
    }

    @ParameterizedTest(name = "{0}, binary protocol {1}")
    @MethodSource("io.strata.it.StrataFixture#clients")
    void eachMatcherSendsTheStatementWhereItsRuleSays(Driver driver, boolean binary) throws SQLException {
        try (Connection root = connect(driver, "root", binary); Connection reporting = connect(driver, "reporting",
                binary)) {
            assertEquals("qr_main", one(root, "SELECT v FROM marker ORDER BY id LIMIT 1"), "no rule: the default");
            assertEquals("qr_other", one(reporting, "SELECT v FROM marker ORDER BY id LIMIT 1"), "user matcher");
            assertEquals("qr_other", one(root, "SELECT v FROM marker WHERE id = 2"), "exact digest, text");
            try (PreparedStatement ps = root.prepareStatement("SELECT v FROM marker WHERE id = ?")) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("qr_other", rs.getString(1), "exact digest, prepared");
                }
            }
            assertEquals("qr_main", one(root, "SELECT v FROM legacy_marker WHERE id = 1 + 0"),
                    "the rewrite ran as marker");
            assertEquals("qr_other", one(root, "SELECT v FROM marker WHERE id IN (1, 2) ORDER BY id LIMIT 1"),
                    "client address, schema and digest pattern together");
            try (Statement st = reporting.createStatement()) {
                SQLException refused = assertThrows(SQLException.class,
                        () -> st.executeUpdate("INSERT INTO orders VALUES (9, 'no')"));
                assertEquals(1142, refused.getErrorCode(), "negate: what is not a read is refused");
                assertEquals("reporting may only read", refused.getMessage().replaceFirst("^\\(conn=\\d+\\) ", ""));
            }
            assertEquals(0, orders("qr_main") + orders("qr_other"), "the refused INSERT ran nowhere");
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void anErrorRuleRunsNothing(Driver driver) throws SQLException {
        try (Connection c = connect(driver, "root", false); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO orders VALUES (1, 'kept')");
            SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate("DELETE FROM orders"));
            assertEquals(1317, e.getErrorCode());
            assertTrue(e.getMessage().contains("blocked by the DBA"), e.getMessage());
            assertEquals(1, orders("qr_main"), "the DELETE never reached the backend");
            assertEquals("1", one(c, "SELECT COUNT(*) FROM orders"), "the session goes on");
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aTimedOutStatementIsKilledOnTheBackend(Driver driver) throws Exception {
        try (Connection c = connect(driver, "root", false); Statement st = c.createStatement()) {
            long start = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT SLEEP(5)"));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(1969, e.getErrorCode(), "MariaDB's max_statement_time error: " + e.getMessage());
            assertTrue(millis >= 900 && millis < 4000, "answered after the 1 s limit, not the 5 s sleep: " + millis);
            assertEquals(0, backendRunning("SELECT SLEEP(5)"), "no longer running on the backend");
            assertEquals("qr_main", one(c, "SELECT v FROM marker ORDER BY id LIMIT 1"), "the session goes on");
        }
    }

    /** Statements now running on the backend server whose text starts with {@code sql}. */
    private static int backendRunning(String sql) throws SQLException {
        try (Connection c = Backend.direct(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND COMMAND = 'Query'")) {
            ps.setString(1, sql + "%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aMirrorGetsACopyAndTheClientDoesNotWait(Driver driver) throws Exception {
        try (Connection c = connect(driver, "root", false); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO orders VALUES (7, 'mirrored')");
            assertEquals(1, orders("qr_main"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (orders("qr_audit") == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(1, orders("qr_audit"), "the copy ran on ds_audit");
            assertEquals(0, orders("qr_other"));
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aTransactionKeepsItsDataSource(Driver driver) throws SQLException {
        try (Connection c = connect(driver, "root", false); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO orders VALUES (3, 'in a transaction')");
            assertEquals("qr_main", one(c, "SELECT v FROM marker WHERE id = 1"),
                    "the hot rule says ds_1, the transaction is on ds_0");
            c.commit();
            c.setAutoCommit(true);
            assertEquals("qr_other", one(c, "SELECT v FROM marker WHERE id = 1"), "after it, the rule decides");
        }
    }

    @Test
    void digestsCountAScriptedWorkloadExactly() throws SQLException {
        try (Connection admin = connect(Driver.MARIADB, "root", false); Statement st = admin.createStatement()) {
            st.execute("FLUSH STRATA DIGESTS");
            try (Connection c = connect(Driver.MYSQL, "reporting", true)) {
                for (int id : new int[] {1, 2, 1}) {
                    one(c, "SELECT v FROM marker WHERE id = " + id);
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT v FROM marker WHERE id = ?")) {
                    for (int id : new int[] {2, 1}) {
                        ps.setInt(1, id);
                        ps.executeQuery().close();
                    }
                }
                try (Statement s = c.createStatement()) {
                    assertThrows(SQLException.class, () -> s.executeQuery("SELECT nope FROM marker WHERE id = 9"));
                }
            }
            Map<String, List<String>> rows = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery("SHOW STRATA DIGESTS LIKE '%marker%' ORDER BY count DESC")) {
                while (rs.next()) {
                    if (rs.getString("user").equals("reporting")) {
                        rows.put(rs.getString("digest_text"), List.of(rs.getString("count"),
                                rs.getString("data_source"), rs.getString("rows_sent"), rs.getString("errors")));
                    }
                }
            }
            assertEquals(Map.of("SELECT `v` FROM `marker` WHERE `id` = ?", List.of("5", "ds_1", "5", "0"),
                    "SELECT `nope` FROM `marker` WHERE `id` = ?", List.of("1", "ds_1", "0", "1")), rows);
            try (ResultSet rs = st.executeQuery("SHOW STRATA QUERY RULES")) {
                Map<String, Long> hits = new LinkedHashMap<>();
                while (rs.next()) {
                    hits.put(rs.getString("rule"), rs.getLong("hits"));
                }
                assertEquals(List.of("reporting-reads-only", "reports", "local-lists", "no-purge", "slow-sleep",
                        "hot", "audit", "legacy"), List.copyOf(hits.keySet()));
                assertTrue(hits.get("reports") >= 6, "the reporting user's statements: " + hits);
            }
        }
    }

    @Test
    void digestsAreOffUnlessConfigured() throws SQLException {
        try (StrataFixture defaults = StrataFixture.start(); Connection c = defaults.connect(Driver.MARIADB);
             Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SHOW STRATA DIGESTS"));
            assertEquals(1289, e.getErrorCode());
            assertTrue(e.getMessage().contains("server.digests: { enabled: true }"), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void adminStatementsAreRefusedToOtherUsers(Driver driver) throws SQLException {
        try (Connection c = connect(driver, "plain", false); Statement st = c.createStatement()) {
            for (String sql : List.of("SHOW STRATA DIGESTS", "FLUSH STRATA DIGESTS", "SHOW STRATA QUERY RULES",
                    "SHOW STRATA DATA SOURCES")) {
                SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
                assertEquals(1227, e.getErrorCode(), sql);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void theProcessListShowsStrataSessionsAndKillStopsTheirStatements(Driver driver) throws Exception {
        try (Connection admin = connect(driver, "root", false); Connection sleeper = connect(driver, "plain", false);
             Connection other = connect(driver, "reporting", false)) {
            long id = Long.parseLong(one(sleeper, "SELECT CONNECTION_ID()"));
            CompletableFuture<SQLException> sleeping = CompletableFuture.supplyAsync(() -> {
                try (Statement st = sleeper.createStatement()) {
                    st.executeQuery("SELECT SLEEP(4)").close();
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            List<Object> row = awaitRow(admin, id);
            assertEquals(List.of(id, "plain", "shop", "Query", "running on ds_0", "SELECT SLEEP(4)"), row);
            try (Statement st = admin.createStatement(); ResultSet rs = st.executeQuery(
                    "SELECT ID, USER, INFO FROM information_schema.PROCESSLIST WHERE ID = " + id)) {
                assertTrue(rs.next());
                assertEquals("SELECT SLEEP(4)", rs.getString("INFO"));
            }
            assertEquals("0", one(other, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + id),
                    "another user's sessions are not shown to a non-admin");
            try (Statement st = admin.createStatement()) {
                st.execute("KILL QUERY " + id);
            }
            SQLException killed = sleeping.get(3, TimeUnit.SECONDS);
            assertTrue(killed == null || killed.getErrorCode() == 1317, String.valueOf(killed));
            assertEquals(0, backendRunning("SELECT SLEEP(4)"), "stopped on the backend");
        }
    }

    /** The process list row of session {@code id} once it runs its statement: Id, User, db, Command, State, Info. */
    private static List<Object> awaitRow(Connection admin, long id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (true) {
            try (Statement st = admin.createStatement(); ResultSet rs = st.executeQuery("SHOW FULL PROCESSLIST")) {
                while (rs.next()) {
                    if (rs.getLong("Id") == id && "SELECT SLEEP(4)".equals(rs.getString("Info"))
                            && rs.getString("State").startsWith("running")) {
                        return List.of(rs.getLong("Id"), rs.getString("User"), rs.getString("db"),
                                rs.getString("Command"), rs.getString("State"), rs.getString("Info"));
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("session " + id + " never showed its SLEEP in the process list");
            }
            Thread.sleep(20);
        }
    }

    @Test
    void slowStatementsAreWrittenInMySqlsFormat() throws Exception {
        try (Connection c = connect(Driver.MARIADB, "plain", false); Statement st = c.createStatement()) {
            st.executeQuery("SELECT SLEEP(0.4), 'slow one'").close();
            st.executeQuery("SELECT 1, 'fast one'").close();
            st.executeQuery("SELECT SLEEP(0.35), 'slow two'").close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        String log = "";
        while (System.nanoTime() < deadline && !(log = Files.readString(slowLog)).contains("slow two")) {
            Thread.sleep(20);
        }
        assertTrue(log.contains("# User@Host: plain[plain] @"), log);
        assertTrue(log.contains("SELECT SLEEP(0.4), 'slow one';"), log);
        assertTrue(log.contains("SELECT SLEEP(0.35), 'slow two';"), log);
        assertTrue(!log.contains("fast one"), log);
        assertTrue(log.contains("# Query_time: 0.4") || log.contains("# Query_time: 0.5"), log);
        if (onPath("pt-query-digest")) { // bench/slowlog/pt-query-digest-check.sh installs it
            Process digest = new ProcessBuilder("pt-query-digest", "--no-version-check", slowLog.toString())
                    .redirectErrorStream(true).start();
            String report = new String(digest.getInputStream().readAllBytes());
            assertEquals(0, digest.waitFor());
            java.util.regex.Matcher overall = java.util.regex.Pattern.compile("# Overall: (\\d+) total, (\\d+) unique")
                    .matcher(report);
            assertTrue(overall.find(), report);
            assertEquals(slowEntries(log), Integer.parseInt(overall.group(1)), "pt-query-digest read every entry");
        }
    }

    /** The entries of a slow log as Strata wrote them. */
    private static int slowEntries(String log) {
        return (int) log.lines().filter(line -> line.startsWith("# Query_time: ")).count();
    }

    private static boolean onPath(String program) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }
}
