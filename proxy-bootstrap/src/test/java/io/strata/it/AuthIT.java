package io.strata.it;

import io.netty.buffer.Unpooled;
import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import io.strata.it.StrataFixture.Driver;
import io.strata.protocol.ErrPacket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * caching_sha2_password: full authentication with the RSA key exchange first, the fast path after. Either plugin:
 * nothing in the answer to a failed login tells whether the user exists, and nothing reaches a backend before the
 * password is right.
 */
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

    /**
     * A wrong password and an unknown user get the same packets (sequence ids, kinds, lengths; the same 1045 but for
     * the user's name), at login and at COM_CHANGE_USER: with mysql_native_password; with caching_sha2_password both
     * before and after the user's first login (its fast path cached), since a failed fast check gets asked for the
     * full password, as on MySQL, like a user without a cache entry. A user without a password, given one, is
     * refused alike. The right password still takes the fast path after a wrong one.
     */
    @ParameterizedTest
    @ValueSource(strings = {ServerConfig.NATIVE_PASSWORD, ServerConfig.CACHING_SHA2_PASSWORD})
    void aWrongPasswordIsAnsweredAsAnUnknownUserIs(String plugin) throws IOException {
        boolean sha2 = plugin.equals(ServerConfig.CACHING_SHA2_PASSWORD);
        try (StrataFixture fresh = StrataFixture.start(s -> s.withUsers(withGuest(s.users())), plugin)) {
            int port = fresh.port();
            List<String> unknown = seen(RawClient.login(port, plugin, "nobody", "wrong"), "nobody");
            assertEquals(sha2 ? 3 : 1, unknown.size(), unknown.toString());
            if (sha2) { // perform full authentication, the server's public key, the refusal
                assertTrue(unknown.get(0).equals("#2 01 04 (2 bytes)") && unknown.get(1).startsWith("#4 01 ("),
                        unknown.toString());
            }
            assertTrue(unknown.get(unknown.size() - 1).matches("#\\d ERR 1045 28000 Access denied for user "
                    + "'<user>'@'[^']+' \\(using password: YES\\)"), unknown.toString());

            assertEquals(unknown, seen(RawClient.login(port, plugin, "app", "wrong"), "app"), "before app's login");
            assertEquals(unknown, seen(RawClient.login(port, plugin, "guest", "wrong"), "guest"), "no password");
            List<String> first = seen(RawClient.login(port, plugin, "app", "app"), "app");
            assertTrue(first.get(0).startsWith(sha2 ? "#2 01 04 " : "#2 00 ") && loggedIn(first), first.toString());
            assertEquals(unknown, seen(RawClient.login(port, plugin, "app", "wrong"), "app"), "after app's login");
            List<String> fast = seen(RawClient.login(port, plugin, "app", "app"), "app");
            assertTrue(fast.get(0).startsWith(sha2 ? "#2 01 03 (2 bytes)" : "#2 00 ") && loggedIn(fast),
                    "the right password after a wrong one: " + fast);

            List<String> unknownChange = changeUser(port, plugin, "nobody");
            assertEquals(unknownChange, changeUser(port, plugin, "app"));
            assertEquals(unknownChange, changeUser(port, plugin, "guest"));
            assertTrue(unknownChange.get(0).startsWith("#1 fe ") && unknownChange.get(unknownChange.size() - 1)
                    .contains(" ERR 1045 28000 "), "an auth switch with a fresh nonce first: " + unknownChange);
        }
    }

    private static boolean loggedIn(List<String> seen) {
        return seen.get(seen.size() - 1).matches("#\\d 00 .*");
    }

    /** COM_CHANGE_USER from a logged-in root to {@code user} with a wrong password: what the server answers. */
    private static List<String> changeUser(int port, String plugin, String user) throws IOException {
        try (RawClient client = RawClient.greeted(port)) {
            List<byte[]> login = client.login(plugin, "root", "root", null);
            assertEquals(0, RawClient.payload(login.get(login.size() - 1))[0], "root's login");
            return seen(client.changeUser(plugin, user, "wrong"), user);
        }
    }

    /**
     * What a client sees of the server's packets in a connection phase: each packet's sequence id, first byte (and
     * second, for a two-byte one) and length; an ERR's code, SQLSTATE and message, with {@code user} left out.
     */
    private static List<String> seen(List<byte[]> packets, String user) {
        List<String> seen = new ArrayList<>();
        for (byte[] packet : packets) {
            byte[] payload = RawClient.payload(packet);
            String sequenceId = "#" + (packet[3] & 0xFF);
            if ((payload[0] & 0xFF) == 0xFF) {
                ErrPacket err = ErrPacket.decode(Unpooled.wrappedBuffer(payload));
                seen.add(sequenceId + " ERR " + err.errorCode() + " " + err.sqlState() + " "
                        + err.message().replace("'" + user + "'@", "'<user>'@"));
            } else {
                seen.add(sequenceId + " " + HexFormat.of().toHexDigits(payload[0])
                        + (payload.length == 2 ? " " + HexFormat.of().toHexDigits(payload[1]) : "")
                        + " (" + payload.length + " bytes)");
            }
        }
        return seen;
    }

    private static List<UserConfig> withGuest(List<UserConfig> users) {
        List<UserConfig> all = new ArrayList<>(users);
        all.add(new UserConfig("guest", "", List.of("it")));
        return all;
    }

    /**
     * A login that asks for a database only a backend can judge (a schema of a logical database that exposes its
     * backend's) reaches no backend unless its password is right: MariaDB's own process list shows no connection
     * of that data source's account after an unknown user's or a wrong password's attempt, and one after the right
     * password's.
     */
    @Test
    void nothingReachesABackendBeforeThePasswordIsRight() throws Exception {
        Backend.server().createDatabase("strata_auth", "auth_probe", "auth_probe");
        StrataConfig defaults = StrataFixture.config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(),
                "strata");
        DataSourceConfig probe = DataSourceConfig.of("ds_probe", Backend.server().jdbcUrl("strata_auth"),
                "auth_probe", "auth_probe", Map.of("maximumPoolSize", 1, "minimumIdle", 0, "connectionTimeout", 5000));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(defaults.databases());
        databases.put("probe", new DatabaseConfig("probe", Map.of("ds_probe", probe), List.of(), true));
        try (Strata probing = Strata.builder().config(new StrataConfig(defaults.server(), databases)).start()) {
            awaitNoProbeConnection(); // a pool's start may open one and close it
            for (String user : List.of("nobody", "root")) {
                try (RawClient client = RawClient.greeted(probing.port())) {
                    List<byte[]> refused = client.login(ServerConfig.NATIVE_PASSWORD, user, "wrong", "strata_auth");
                    assertEquals(1045, RawClient.error(refused).errorCode());
                }
            }
            assertEquals(0, probeConnections(), "no backend connection before the password is right");
            try (RawClient client = RawClient.greeted(probing.port())) {
                List<byte[]> in = client.login(ServerConfig.NATIVE_PASSWORD, "root", "root", "strata_auth");
                assertNull(RawClient.error(in), "the backend schema, once the backend accepted it");
            }
            assertTrue(probeConnections() >= 1, "the backend was asked about strata_auth");
        }
    }

    private static void awaitNoProbeConnection() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (probeConnections() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, probeConnections());
    }

    private static long probeConnections() throws SQLException {
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                     + "WHERE USER = 'auth_probe'")) {
            rs.next();
            return rs.getLong(1);
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
