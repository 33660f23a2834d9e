package io.strata.it;

import io.strata.config.ServerConfig;
import io.strata.config.TlsConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * TLS towards clients (a self-signed certificate): drivers that require encryption connect, and
 * caching_sha2_password's full authentication sends the password over TLS, without the RSA key exchange.
 */
class TlsIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() {
        strata = StrataFixture.start(server -> server.withTls(TlsConfig.selfSigned()),
                ServerConfig.CACHING_SHA2_PASSWORD);
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    private static Properties requireTls(Driver driver) {
        Properties props = new Properties();
        if (driver == Driver.MYSQL) {
            props.setProperty("sslMode", "REQUIRED");
            props.setProperty("allowPublicKeyRetrieval", "false");
        } else {
            props.setProperty("sslMode", "trust");
        }
        return props;
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void encryptedSessionsWithFullAuthenticationOverTls(Driver driver) throws SQLException {
        String user = driver == Driver.MYSQL ? "root" : "app";
        for (int i = 0; i < 2; i++) {
            try (Connection c = strata.connect(driver, "it", user, user, requireTls(driver));
                 Statement st = c.createStatement()) {
                assertEquals(42, JdbcIT.queryInt(st, "SELECT 42"));
            }
        }
        SQLException denied = assertThrows(SQLException.class,
                () -> strata.connect(driver, "it", user, "wrong", requireTls(driver)).close());
        assertEquals(1045, denied.getErrorCode());
    }
}
