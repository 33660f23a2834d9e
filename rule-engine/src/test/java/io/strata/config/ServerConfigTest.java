package io.strata.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

    private static final UserConfig ROOT = new UserConfig("root", "root", List.of("*"));

    @Test
    void defaultsListenOn3307ForEveryInterface() {
        var server = ServerConfig.defaults(List.of(ROOT));

        assertEquals("0.0.0.0", server.host());
        assertEquals(3307, server.port());
        assertEquals(List.of(ROOT), server.users());
        assertEquals("mysql_native_password", server.authPlugin());
        assertEquals(1_073_741_824L, server.maxAllowedPacket());
        assertEquals(0, server.workerThreads());
    }

    @Test
    void withPortChangesOnlyThePort() {
        var server = ServerConfig.defaults(List.of(ROOT));

        // Port 0 asks the OS for a free port, which is what tests want.
        assertEquals(new ServerConfig("0.0.0.0", 0, List.of(ROOT), "mysql_native_password", 1L << 30, 0),
                server.withPort(0));
    }

    @Test
    void findsUsersByExactName() {
        var server = ServerConfig.defaults(List.of(ROOT));

        assertEquals(Optional.of(ROOT), server.user("root"));
        assertTrue(server.user("ROOT").isEmpty());
    }

    @Test
    void knowsOnlyTheTwoAuthPluginsStrataSpeaks() {
        assertThrows(IllegalArgumentException.class,
                () -> new ServerConfig("0.0.0.0", 3307, List.of(ROOT), "sha256_password", 1L << 30, 0));
    }
}
