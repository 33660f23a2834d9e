package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strata in front of MariaDB 10.11, whose greeting starts its version with "5.5.5-": clients must read from
 * Strata's greeting what they read from the server's. MySQL Connector/J takes a version without that prefix for MySQL
 * 8 and asks for transaction_isolation, which MariaDB before 11.1 does not have.
 */
class MariaDb10IT {

    private static EmbeddedMariaDb server;
    private static Strata strata;

    @BeforeAll
    static void start() throws java.io.IOException {
        // set up at start, as root: this version's command-line client needs a library Debian 12 lacks
        java.nio.file.Path setup = java.nio.file.Files.createTempFile("mariadb10-setup", ".sql");
        java.nio.file.Files.writeString(setup, """
                DROP USER IF EXISTS ''@'localhost';
                CREATE DATABASE IF NOT EXISTS strata_10;
                CREATE USER IF NOT EXISTS 'strata'@'%' IDENTIFIED BY 'strata';
                GRANT ALL PRIVILEGES ON *.* TO 'strata'@'%' WITH GRANT OPTION;
                """);
        setup.toFile().deleteOnExit();
        server = EmbeddedMariaDb.start("mariadb-10.11.5", 0, "--init-file=" + setup);
        StrataConfig defaults = StrataFixture.config(io.strata.config.ServerConfig.NATIVE_PASSWORD, server,
                Map.of(), "strata");
        DataSourceConfig ds = DataSourceConfig.of("ds_0", server.jdbcUrl("strata_10"), "strata", "strata",
                Map.of("maximumPoolSize", 4));
        strata = Strata.builder().config(new StrataConfig(defaults.server(),
                Map.of("it", new DatabaseConfig("it", Map.of("ds_0", ds), List.of())))).start();
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theGreetingKeepsTheServersVersionPrefix() throws Exception {
        String direct;
        try (RawClient client = RawClient.connect(server.port(), "strata", "strata", "strata_10")) {
            direct = client.greeting.serverVersion();
        }
        try (RawClient client = RawClient.connect(strata.port(), "root", "root", "it")) {
            String proxied = client.greeting.serverVersion();
            assertTrue(direct.startsWith("5.5.5-10.11.5-MariaDB"), direct);
            assertEquals(direct + "-Strata", proxied);
        }
    }

    /** Both drivers, with no special options, connect and see the server as they see it directly. */
    @ParameterizedTest
    @EnumSource(StrataFixture.Driver.class)
    void driversConnectWithTheirDefaultsAndReadTheRealVersion(StrataFixture.Driver driver) throws SQLException {
        String directVersion;
        int directMajor;
        try (Connection c = DriverManager.getConnection(driverUrl(driver, server.port(), "strata_10"),
                props(driver, "strata"))) {
            directVersion = c.getMetaData().getDatabaseProductVersion();
            directMajor = c.getMetaData().getDatabaseMajorVersion();
        }
        try (Connection c = DriverManager.getConnection(driverUrl(driver, strata.port(), "it"),
                props(driver, "root")); Statement st = c.createStatement()) {
            assertEquals(directVersion + "-Strata", c.getMetaData().getDatabaseProductVersion());
            assertEquals(directMajor, c.getMetaData().getDatabaseMajorVersion());
            // what drivers send for these: tx_isolation / tx_read_only on this server, as directly
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation());
            c.setReadOnly(true);
            c.setReadOnly(false);
            st.execute("CREATE TABLE IF NOT EXISTS t10 (id INT PRIMARY KEY, v VARCHAR(10))");
            st.execute("REPLACE INTO t10 VALUES (1, 'ten')");
            c.setAutoCommit(false);
            st.execute("UPDATE t10 SET v = 'eleven' WHERE id = 1");
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("SELECT v, @@version FROM t10")) {
                rs.next();
                assertEquals("ten", rs.getString(1));
                assertTrue(rs.getString(2).startsWith("10.11.5-MariaDB"), rs.getString(2));
            }
        }
    }

    private static String driverUrl(StrataFixture.Driver driver, int port, String database) {
        return (driver == StrataFixture.Driver.MYSQL ? "jdbc:mysql" : "jdbc:mariadb") + "://127.0.0.1:" + port + "/"
                + database;
    }

    /** Only the user: no option a user would have to know of. */
    private static Properties props(StrataFixture.Driver driver, String user) {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", user);
        return props;
    }
}
