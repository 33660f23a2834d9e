package io.strata.it;

import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** caching_sha2_password: full authentication with the RSA key exchange first, the fast path after. */
class AuthIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() {
        strata = StrataFixture.start(ServerConfig.CACHING_SHA2_PASSWORD, Backend.server(), Map.of());
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void fullThenFastAuthentication(Driver driver) throws SQLException {
        Properties props = new Properties();
        props.setProperty("allowPublicKeyRetrieval", "true");
        String user = driver == Driver.MYSQL ? "root" : "app";
        String password = user;
        for (int i = 0; i < 3; i++) {
            try (Connection c = strata.connect(driver, "it", user, password, props)) {
                assertTrue(c.isValid(5));
            }
        }
        SQLException denied = assertThrows(SQLException.class,
                () -> strata.connect(driver, "it", user, "wrong", props).close());
        assertEquals(1045, denied.getErrorCode());
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aClientStartingWithNativePasswordIsSwitched(Driver driver) throws SQLException {
        Properties props = new Properties();
        props.setProperty("allowPublicKeyRetrieval", "true");
        props.setProperty(driver == Driver.MYSQL ? "defaultAuthenticationPlugin" : "restrictedAuth",
                driver == Driver.MYSQL ? "mysql_native_password" : "mysql_native_password,caching_sha2_password");
        try (Connection c = strata.connect(driver, "it", "root", "root", props)) {
            assertTrue(c.isValid(5));
        }
    }

    /** server.yaml may hold mysql_native_password's hash instead of the password: both plugins still work. */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aHashedPasswordPassesFullThenFastAuthentication(Driver driver) throws SQLException {
        Properties props = new Properties();
        props.setProperty("allowPublicKeyRetrieval", "true");
        for (int i = 0; i < 3; i++) {
            try (Connection c = strata.connect(driver, "it", "ops", "ops", props)) {
                assertTrue(c.isValid(5));
            }
        }
        for (String wrong : List.of("wrong", StrataFixture.OPS_PASSWORD_HASH)) {
            SQLException denied = assertThrows(SQLException.class,
                    () -> strata.connect(driver, "it", "ops", wrong, props).close());
            assertEquals(1045, denied.getErrorCode());
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void aHashedPasswordPassesNativePassword(Driver driver) throws SQLException {
        try (StrataFixture nativeStrata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of())) {
            try (Connection c = nativeStrata.connect(driver, "it", "ops", "ops", new Properties())) {
                assertTrue(c.isValid(5));
            }
            SQLException denied = assertThrows(SQLException.class,
                    () -> nativeStrata.connect(driver, "it", "ops", "wrong", new Properties()).close());
            assertEquals(1045, denied.getErrorCode());
        }
    }
}
