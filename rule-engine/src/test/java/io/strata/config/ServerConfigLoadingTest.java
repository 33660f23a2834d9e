package io.strata.config;

import static io.strata.config.ConfigFiles.assertRejected;
import static io.strata.config.ConfigFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server.yaml: where Strata listens and who may connect. */
class ServerConfigLoadingTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryValue() {
        Path file = write(dir, "server.yaml", """
                server:
                  host: 127.0.0.1
                  port: 13306
                  authPlugin: caching_sha2_password
                  maxAllowedPacket: 16777216
                  workerThreads: 8
                users:
                  - { name: root, password: root, databases: ["*"] }
                  - name: app
                    password: "1234"
                    databases: [sbtest, orders]
                """);

        assertEquals(new ServerConfig("127.0.0.1", 13306, List.of(
                        new UserConfig("root", "root", List.of("*")),
                        new UserConfig("app", "1234", List.of("sbtest", "orders"))),
                        "caching_sha2_password", 16_777_216L, 8),
                ConfigLoader.loadServer(file));
    }

    @Test
    void readsTheObservabilityAndLimitSettings() {
        Path file = write(dir, "server.yaml", """
                server:
                  slowLog: { enabled: true, threshold: 250, file: /var/log/strata/slow.log }
                  digests: { enabled: true, maxDigests: 500 }
                  maxConnections: 2000
                  idleTimeout: 28800000
                  handshakeTimeout: 5000
                  shutdownTimeout: 20000
                  packetMemory: 268435456
                users:
                  - { name: root, password: root, admin: true }
                  - { name: app, password: app, databases: [shop], maxConnections: 100 }
                """);

        ServerConfig server = ConfigLoader.loadServer(file);
        assertEquals(new SlowLogConfig(true, 250, "/var/log/strata/slow.log"), server.slowLog());
        assertEquals(new DigestsConfig(true, 500), server.digests());
        assertEquals(new LimitsConfig(2000, 28_800_000, 5000, 20_000, 256L << 20), server.limits());
        assertEquals(List.of(new UserConfig("root", "root", List.of("*"), true, 0),
                new UserConfig("app", "app", List.of("shop"), false, 100)), server.users());
    }

    @Test
    void rejectsANegativeLimitNamingTheKey() {
        assertRejected(dir, "server.yaml", """
                server: { idleTimeout: -1 }
                users: [ { name: root } ]
                """, ConfigLoader::loadServer, "server.idleTimeout", "-1");
        assertRejected(dir, "server.yaml", """
                server: { packetMemory: -5 }
                users: [ { name: root } ]
                """, ConfigLoader::loadServer, "server.packetMemory", "-5");
        assertRejected(dir, "server.yaml", """
                users: [ { name: app, maxConnections: many } ]
                """, ConfigLoader::loadServer, "users[0].maxConnections", "many");
    }

    @Test
    void readsTheListenerSettingsAndRejectsBadOnesNamingTheKey() {
        Path file = write(dir, "server.yaml", """
                server:
                  watchConfig: true
                  socket: /run/strata/strata.sock
                  socketMode: "0660"
                  proxyProtocol: { enabled: true, trustedNetworks: [10.0.0.0/8, 127.0.0.1] }
                users: [ { name: root } ]
                """);
        ServerConfig server = ConfigLoader.loadServer(file);
        assertEquals(true, server.watchConfig());
        assertEquals(new SocketConfig("/run/strata/strata.sock", "0660"), server.socket());
        assertEquals("rw-rw----", server.socket().permissions());
        assertEquals(new ProxyProtocolConfig(true, List.of("10.0.0.0/8", "127.0.0.1")), server.proxyProtocol());
        assertRejected(dir, "server.yaml", """
                server: { proxyProtocol: { enabled: true } }
                users: [ { name: root } ]
                """, ConfigLoader::loadServer, "server.proxyProtocol.trustedNetworks", "load balancers");
        assertRejected(dir, "server.yaml", """
                server: { proxyProtocol: { enabled: true, trustedNetworks: [10.0.0.0/33] } }
                users: [ { name: root } ]
                """, ConfigLoader::loadServer, "server.proxyProtocol.trustedNetworks[0]", "10.0.0.0/33");
        assertRejected(dir, "server.yaml", """
                server: { socketMode: "0999" }
                users: [ { name: root } ]
                """, ConfigLoader::loadServer, "server.socketMode", "0999");
    }

    @Test
    void onlyUsersAreRequired() {
        Path file = write(dir, "server.yaml", """
                users:
                  - name: root
                """);

        assertEquals(ServerConfig.defaults(List.of(new UserConfig("root", "", List.of("*")))),
                ConfigLoader.loadServer(file));
    }

    @Test
    void emptyValuesMeanDefaults() {
        Path file = write(dir, "server.yaml", """
                server:
                  port:
                users:
                  - { name: root, password: ~ }
                """);

        assertEquals(ServerConfig.defaults(List.of(new UserConfig("root", "", List.of("*")))),
                ConfigLoader.loadServer(file));
    }

    @Test
    void rejectsBrokenYamlWithTheLine() {
        assertRejected(dir, "server.yaml", """
                server:
                  host: 0.0.0.0
                  port: 3307: 3308
                users: []
                """, ConfigLoader::loadServer, "line 3", "expected valid YAML");
    }

    @Test
    void rejectsDuplicateKeysInsteadOfKeepingTheLast() {
        assertRejected(dir, "server.yaml", """
                server:
                  port: 3307
                  port: 3308
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "line 3", "duplicate key port");
    }

    @Test
    void refusesToInstantiateClasses() {
        assertRejected(dir, "server.yaml", """
                server: !!javax.script.ScriptEngineManager []
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "line 1", "expected valid YAML");
    }

    @Test
    void rejectsAFileThatIsNotAMapping() {
        assertRejected(dir, "server.yaml", """
                - name: root
                """, ConfigLoader::loadServer, "server.yaml: expected", "a YAML mapping");
    }

    @Test
    void rejectsUnknownTopLevelKeysListingTheKnownOnes() {
        assertRejected(dir, "server.yaml", """
                sever: { port: 3307 }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "sever", "one of server, users");
    }

    @Test
    void rejectsUnknownServerKeys() {
        assertRejected(dir, "server.yaml", """
                server: { prot: 3307 }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.prot",
                "one of host, port, authPlugin, maxAllowedPacket, workerThreads");
    }

    @Test
    void rejectsAServerSectionThatIsNotAMapping() {
        assertRejected(dir, "server.yaml", """
                server: 3307
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server: expected", "a mapping like { host: 0.0.0.0, port: 3307 }");
    }

    @Test
    void rejectsAnEmptyHost() {
        assertRejected(dir, "server.yaml", """
                server: { host: "" }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.host", "expected a non-empty string, got ''");
    }

    @Test
    void rejectsAPortThatIsNotANumber() {
        assertRejected(dir, "server.yaml", """
                server: { port: "3307" }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.port", "expected a whole number between 1 and 65535, got '3307'");
    }

    @Test
    void rejectsAPortOutOfRange() {
        assertRejected(dir, "server.yaml", """
                server: { port: 70000 }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.port", "expected a whole number between 1 and 65535, got '70000'");
    }

    @Test
    void rejectsAnUnknownAuthPlugin() {
        assertRejected(dir, "server.yaml", """
                server: { authPlugin: sha256_password }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.authPlugin",
                "expected one of mysql_native_password, caching_sha2_password, got 'sha256_password'");
    }

    @Test
    void rejectsAMaxAllowedPacketBeyondWhatMySqlAllows() {
        assertRejected(dir, "server.yaml", """
                server: { maxAllowedPacket: 2147483648 }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.maxAllowedPacket",
                "expected a whole number between 1024 and 1073741824, got '2147483648'");
    }

    @Test
    void rejectsNegativeWorkerThreads() {
        assertRejected(dir, "server.yaml", """
                server: { workerThreads: -1 }
                users: [{ name: root }]
                """, ConfigLoader::loadServer, "server.workerThreads", "expected a whole number of at least 0");
    }

    @Test
    void rejectsMissingUsers() {
        assertRejected(dir, "server.yaml", """
                server: { port: 3307 }
                """, ConfigLoader::loadServer, "users", "expected a non-empty list of users like { name: root, password: root } but it is missing");
    }

    @Test
    void rejectsAnEmptyFileForItsMissingUsers() {
        assertRejected(dir, "server.yaml", "", ConfigLoader::loadServer, "users", "but it is missing");
    }

    @Test
    void rejectsAnEmptyUserList() {
        assertRejected(dir, "server.yaml", """
                users: []
                """, ConfigLoader::loadServer, "users", "expected a non-empty list of users");
    }

    @Test
    void rejectsAUserThatIsNotAMapping() {
        assertRejected(dir, "server.yaml", """
                users: [root]
                """, ConfigLoader::loadServer, "users[0]", "expected users like { name: root, password: root }, got 'root'");
    }

    @Test
    void rejectsAUserWithoutAName() {
        assertRejected(dir, "server.yaml", """
                users:
                  - { name: root }
                  - { password: secret }
                """, ConfigLoader::loadServer, "users[1].name", "expected a non-empty string but it is missing");
    }

    @Test
    void rejectsAUserWithAnEmptyName() {
        assertRejected(dir, "server.yaml", """
                users: [{ name: "" }]
                """, ConfigLoader::loadServer, "users[0].name", "expected a non-empty string");
    }

    @Test
    void rejectsTwoUsersWithOneName() {
        assertRejected(dir, "server.yaml", """
                users: [{ name: root }, { name: root }]
                """, ConfigLoader::loadServer, "users[1].name", "expected a name no other user has, got 'root'");
    }

    @Test
    void rejectsUnknownUserKeys() {
        assertRejected(dir, "server.yaml", """
                users: [{ name: root, databse: [sbtest] }]
                """, ConfigLoader::loadServer, "users[0].databse", "one of name, password, databases");
    }

    @Test
    void rejectsDatabasesThatAreNotAList() {
        assertRejected(dir, "server.yaml", """
                users: [{ name: root, databases: sbtest }]
                """, ConfigLoader::loadServer, "users[0].databases", "expected a list of strings");
    }

    @Test
    void rejectsDatabasesThatAreNotStrings() {
        assertRejected(dir, "server.yaml", """
                users: [{ name: root, databases: [sbtest, 42] }]
                """, ConfigLoader::loadServer, "users[0].databases[1]", "expected a non-empty string, got '42'");
    }

    @Test
    void rejectsAnUnquotedNumericPasswordWithoutPrintingIt() {
        var error = assertRejected(dir, "server.yaml", """
                users: [{ name: root, password: 271828 }]
                """, ConfigLoader::loadServer, "users[0].password", "expected a string (quote values");

        assertFalse(error.getMessage().contains("271828"), error.getMessage());
    }
}
