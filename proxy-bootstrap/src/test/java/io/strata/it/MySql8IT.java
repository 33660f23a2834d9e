package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strata in front of a real MySQL 8 (Testcontainers), where a Docker engine exists: the backend handshake with
 * caching_sha2_password (full authentication through the RSA key exchange) and results relayed as MySQL sends them.
 * Without Docker the class is skipped, saying so.
 */
class MySql8IT {

    private static MySQLContainer<?> mysql;

    @BeforeAll
    static void startMySql() {
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (!docker) {
            System.out.println("MySql8IT: no Docker engine on this machine, so the MySQL 8 (Testcontainers) suite "
                    + "is skipped; the MariaDB suites ran against real servers");
        }
        Assumptions.assumeTrue(docker, "no Docker engine: MySQL 8 suite skipped");
        mysql = new MySQLContainer<>("mysql:8.4").withDatabaseName("shop").withUsername("strata")
                .withPassword("strata-pw");
        mysql.start();
    }

    @AfterAll
    static void stopMySql() {
        if (mysql != null) {
            mysql.stop();
        }
    }

    @Test
    void queriesRunThroughStrataOnMySql8() throws Exception {
        DataSourceConfig ds = DataSourceConfig.of("ds_0", "jdbc:mysql://" + mysql.getHost() + ":"
                + mysql.getMappedPort(3306) + "/shop", "strata", "strata-pw", Map.of("maximumPoolSize", 4));
        StrataConfig config = new StrataConfig(new ServerConfig("127.0.0.1", 0,
                List.of(new UserConfig("root", "root", List.of("*"))), ServerConfig.NATIVE_PASSWORD, 1L << 30, 2,
                StrataFixture.executor()), Map.of("shop", new DatabaseConfig("shop", Map.of("ds_0", ds), List.of())));
        try (Strata strata = Strata.builder().config(config).start();
             Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + strata.port()
                     + "/shop?sslMode=DISABLED", "root", "root");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id INT PRIMARY KEY, j JSON, d DATETIME(6))");
            st.execute("INSERT INTO t VALUES (1, '{\"a\": 1}', '2024-01-02 03:04:05.123456')");
            try (ResultSet rs = st.executeQuery("SELECT j, d, @@version FROM t")) {
                assertTrue(rs.next());
                assertEquals("{\"a\": 1}", rs.getString(1));
                assertEquals("2024-01-02 03:04:05.123456", rs.getString(2));
                assertTrue(rs.getString(3).startsWith("8."));
            }
        }
    }
}
