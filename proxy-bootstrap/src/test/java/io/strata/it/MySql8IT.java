package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strata in front of a real MySQL 8 rather than MariaDB: the MySQL 8.0 server from Maven Central
 * ({@link EmbeddedMySql8}) on Linux x86_64; elsewhere MySQL 8.4 in Docker (Testcontainers) where an engine runs, else
 * the class is skipped, saying so. Strata logs in with caching_sha2_password (a full authentication with the server's
 * RSA key, no TLS), and what clients get is MySQL's own answer: byte for byte on the wire in both protocols, and the
 * same values through both client drivers.
 */
class MySql8IT {

    private static final String SCHEMA = "shop";

    private static EmbeddedMySql8 embedded;
    private static MySQLContainer<?> container;
    private static int port;
    private static Strata strata;

    @BeforeAll
    static void start() throws Exception {
        String noEmbedded = "no MySQL 8 for this platform (the packaged one is Linux x86_64)";
        if (EmbeddedMySql8.available()) {
            try {
                embedded = EmbeddedMySql8.start(SCHEMA);
                port = embedded.port();
            } catch (EmbeddedMySql8.MissingLibrary e) {
                noEmbedded = e.getMessage();
            }
        }
        if (embedded == null) {
            boolean docker = DockerClientFactory.instance().isDockerAvailable();
            String skipped = noEmbedded + ", and no Docker engine: the MySQL 8 suite is skipped";
            if (!docker) {
                System.out.println("MySql8IT: " + skipped);
            }
            Assumptions.assumeTrue(docker, skipped);
            container = new MySQLContainer<>("mysql:8.4").withDatabaseName(SCHEMA).withUsername("strata")
                    .withPassword("strata-pw");
            container.start();
            port = container.getMappedPort(3306);
            try (Connection c = connect(SCHEMA, "root", "strata-pw"); Statement st = c.createStatement()) {
                st.execute("CREATE USER 'checker'@'%' IDENTIFIED WITH mysql_native_password BY 'checker'");
                st.execute("GRANT ALL PRIVILEGES ON *.* TO 'checker'@'%'");
            }
        }
        try (Connection c = connect(SCHEMA, "checker", "checker"); Statement st = c.createStatement()) {
            for (String sql : Backend.ALL_TYPES) {
                st.execute(sql);
            }
        }
        strata = Strata.builder().config(config()).start();
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (embedded != null) {
            embedded.close();
        }
        if (container != null) {
            container.stop();
        }
    }

    private static StrataConfig config() {
        DataSourceConfig ds = DataSourceConfig.of("ds_0", "jdbc:mysql://127.0.0.1:" + port + "/" + SCHEMA, "strata",
                "strata-pw", Map.of("maximumPoolSize", 4));
        return new StrataConfig(new ServerConfig("127.0.0.1", 0,
                List.of(new UserConfig("root", "root", List.of("*"), true)), ServerConfig.NATIVE_PASSWORD, 1L << 30, 2,
                StrataFixture.executor()), Map.of(SCHEMA, new DatabaseConfig(SCHEMA, Map.of("ds_0", ds), List.of())));
    }

    private static Connection connect(String schema, String user, String password) throws SQLException {
        return Driver.MYSQL.connect(port, schema, user, password, new Properties());
    }

    private static RawClient direct(int capabilities) throws IOException {
        return RawClient.connect(port, "checker", "checker", SCHEMA, capabilities);
    }

    private static RawClient proxied(int capabilities) throws IOException {
        return RawClient.connect(strata.port(), "root", "root", SCHEMA, capabilities);
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void queriesAndWritesRunOnMySql8(Driver driver) throws Exception {
        String table = "orders_" + driver.name().toLowerCase();
        try (Connection c = driver.connect(strata.port(), SCHEMA, "root", "root", new Properties());
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, j JSON, d DATETIME(6))");
            assertEquals(1, st.executeUpdate("INSERT INTO " + table
                    + " VALUES (1, '{\"a\": 1}', '2024-01-02 03:04:05.123456')"));
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO " + table + " VALUES (2, NULL, NULL)");
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("SELECT j, d, @@version, @@version_comment FROM " + table)) {
                assertTrue(rs.next());
                assertEquals("{\"a\": 1}", rs.getString(1));
                assertEquals("2024-01-02 03:04:05.123456", rs.getString(2));
                assertTrue(rs.getString(3).startsWith("8."), rs.getString(3));
                assertTrue(rs.getString(4).contains("MySQL"), "a MySQL server, not MariaDB: " + rs.getString(4));
                assertFalse(rs.next(), "the rolled back row is gone");
            }
        }
    }

    /**
     * MySQL 8 knows SET SESSION TRANSACTION's variables only by their transaction_ names, under which Strata reads
     * them back and replays them: the session has its level on whichever connection it borrows.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aSessionsIsolationLevelHoldsOnMySql8(Driver driver) throws Exception {
        try (Connection a = driver.connect(strata.port(), SCHEMA, "root", "root", new Properties());
             Connection b = driver.connect(strata.port(), SCHEMA, "root", "root", new Properties());
             Statement onA = a.createStatement(); Statement onB = b.createStatement()) {
            a.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            for (int i = 0; i < 3; i++) {
                assertEquals("SERIALIZABLE", JdbcIT.queryString(onA, "SELECT @@transaction_isolation"));
                assertEquals("REPEATABLE-READ", JdbcIT.queryString(onB, "SELECT @@transaction_isolation"));
            }
        }
    }

    /** Every column type reads the same through Strata as straight from MySQL, as text and as server-prepared. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void everyColumnTypeReadsAsOnMySql8(Driver driver) throws Exception {
        Properties prepared = new Properties();
        prepared.setProperty("useServerPrepStmts", "true");
        try (Connection direct = driver.connect(port, SCHEMA, "checker", "checker", prepared);
             Connection proxied = driver.connect(strata.port(), SCHEMA, "root", "root", prepared)) {
            String sql = "SELECT * FROM all_types ORDER BY id";
            try (Statement a = direct.createStatement(); Statement b = proxied.createStatement()) {
                assertEquals(rows(a.executeQuery(sql)), rows(b.executeQuery(sql)), "text protocol");
            }
            String withParam = "SELECT * FROM all_types WHERE id >= ? ORDER BY id";
            try (PreparedStatement a = direct.prepareStatement(withParam);
                 PreparedStatement b = proxied.prepareStatement(withParam)) {
                a.setInt(1, 1);
                b.setInt(1, 1);
                assertEquals(rows(a.executeQuery()), rows(b.executeQuery()), "binary protocol");
            }
        }
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {true, false})
    void textResultsAreByteIdenticalToMySql8(boolean deprecateEof) throws IOException {
        int caps = RawClient.capabilities(deprecateEof);
        assertSameResponse(caps, "SELECT * FROM all_types ORDER BY id");
        assertSameResponse(caps, "SELECT 1/0, NULL, 'x' AS alias, CAST(1 AS UNSIGNED), 1.5e300");
        assertSameResponse(caps, "SELECT * FROM no_such_table");
    }

    /** The answers Strata gives itself (the session's own counts, id and database) are MySQL's, byte for byte. */
    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {true, false})
    void localAnswersAreByteIdenticalToMySql8(boolean deprecateEof) throws IOException {
        int caps = RawClient.capabilities(deprecateEof);
        try (RawClient direct = direct(caps); RawClient proxied = proxied(caps)) {
            // a new MySQL session's FOUND_ROWS() is 0 (a new MariaDB one's is what its thread's last one left)
            List<String> steps = new ArrayList<>(List.of("SELECT FOUND_ROWS()"));
            steps.addAll(ProtocolIT.LOCAL_ANSWERS);
            ProtocolIT.assertSameLocalAnswers(direct, proxied, steps, SCHEMA);
        }
    }

    @Test
    void binaryResultsAreByteIdenticalToMySql8() throws IOException {
        String sql = "SELECT * FROM all_types WHERE id >= ?";
        try (RawClient direct = direct(RawClient.CAPABILITIES); RawClient proxied = proxied(RawClient.CAPABILITIES)) {
            List<byte[]> directPrepare = PreparedStatementIT.prepare(direct, sql);
            List<byte[]> proxiedPrepare = PreparedStatementIT.prepare(proxied, sql);
            assertEquals(directPrepare.size(), proxiedPrepare.size(), "prepare: packets");
            // The first packet holds each side's own statement id; the parameter definition (one) and the columns'
            // follow. The JDBC executor's parameter definition is MariaDB's form (see the README's Executors).
            int from = ServerConfig.RELAY.equals(StrataFixture.executor()) ? 1 : 2;
            PreparedStatementIT.assertSamePackets(directPrepare.subList(from, directPrepare.size()),
                    proxiedPrepare.subList(from, proxiedPrepare.size()), "prepare");
            PreparedStatementIT.assertSamePackets(
                    PreparedStatementIT.execute(direct, PreparedStatementIT.statementId(directPrepare), 1),
                    PreparedStatementIT.execute(proxied, PreparedStatementIT.statementId(proxiedPrepare), 1),
                    "execute");
        }
    }

    /**
     * caching_sha2_password's fast path needs the server's cache of the account; FLUSH PRIVILEGES empties it. Every
     * backend connection Strata opens after that is a full authentication again, over plain TCP with the server's RSA
     * key, on either executor (the JDBC one through MariaDB Connector/J, which must be allowed to ask for the key).
     */
    @Test
    void newBackendLoginsAfterTheServerForgotItsAuthCache() throws Exception {
        try (Connection c = Driver.MARIADB.connect(strata.port(), SCHEMA, "root", "root", new Properties());
             Statement st = c.createStatement()) {
            forgetLoginsAndKillStrataConnections();
            SQLException failed = null;
            for (int attempt = 0; attempt < 4; attempt++) { // a killed connection may fail a statement
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM all_types")) {
                    assertTrue(rs.next());
                    assertEquals(2, rs.getInt(1));
                    failed = null;
                    break;
                } catch (SQLException e) {
                    failed = e;
                }
            }
            if (failed != null) {
                throw failed;
            }
        }
    }

    private static void forgetLoginsAndKillStrataConnections() throws SQLException {
        try (Connection admin = connect(SCHEMA, "checker", "checker"); Statement st = admin.createStatement()) {
            st.execute("FLUSH PRIVILEGES");
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = st.executeQuery(
                    "SELECT id FROM information_schema.processlist WHERE user = 'strata'")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (long id : ids) {
                st.execute("KILL " + id);
            }
        }
    }

    /** Strata's greeting names the backend's version, so drivers take MySQL 8 paths. */
    @Test
    void clientsSeeMySqlsVersion() throws IOException {
        try (RawClient proxied = proxied(RawClient.CAPABILITIES)) {
            String version = proxied.greeting.serverVersion();
            assertTrue(version.startsWith("8.") && version.endsWith("-Strata"), version);
            assertNotNull(proxied.query("SELECT 1"));
        }
    }

    private static void assertSameResponse(int caps, String sql) throws IOException {
        try (RawClient direct = direct(caps); RawClient proxied = proxied(caps)) {
            PreparedStatementIT.assertSamePackets(direct.query(sql), proxied.query(sql), sql);
        }
    }

    /** Each row as its columns' labels, type names and string values. */
    private static List<String> rows(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        ResultSetMetaData meta = rs.getMetaData();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                row.append(meta.getColumnLabel(i)).append(' ').append(meta.getColumnTypeName(i)).append('=')
                        .append(rs.getString(i)).append("; ");
            }
            rows.add(row.toString());
        }
        rs.close();
        return rows;
    }
}
