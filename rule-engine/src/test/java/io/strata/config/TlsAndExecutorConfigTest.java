package io.strata.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TlsAndExecutorConfigTest {

    private static final String USERS = "users:\n  - { name: root, password: root }\n";

    @TempDir
    Path dir;

    private ServerConfig load(String server) {
        return ConfigLoader.loadServer(ConfigFiles.write(dir, "server.yaml", "server: " + server + "\n" + USERS));
    }

    @Test
    void tlsAndTheRelayExecutorAreTheDefaults() {
        ServerConfig config = load("{ port: 3307 }");
        assertFalse(config.tls().enabled());
        assertEquals(ServerConfig.RELAY, config.executor());
    }

    @Test
    void tlsWithoutFilesUsesASelfSignedCertificate() {
        TlsConfig tls = load("{ tls: { enabled: true } }").tls();
        assertTrue(tls.enabled());
        assertNull(tls.certificate());
    }

    @Test
    void certificateFilesAreResolvedNextToServerYaml() {
        ConfigFiles.write(dir, "cert.pem", "-----BEGIN CERTIFICATE-----\n");
        ConfigFiles.write(dir, "key.pem", "-----BEGIN PRIVATE KEY-----\n");
        TlsConfig tls = load("{ tls: { enabled: true, certificate: cert.pem, privateKey: key.pem } }").tls();
        assertEquals(dir.resolve("cert.pem").toAbsolutePath().toString(), tls.certificate());
        assertEquals(dir.resolve("key.pem").toAbsolutePath().toString(), tls.privateKey());
    }

    @Test
    void aMissingKeyFileIsNamed() {
        ConfigFiles.write(dir, "cert.pem", "x");
        ConfigFiles.assertRejected(dir, "server.yaml", "server: { tls: { enabled: true, certificate: cert.pem, "
                        + "privateKey: nope.pem } }\n" + USERS, ConfigLoader::loadServer, "privateKey",
                "a readable PEM file");
    }

    @Test
    void aCertificateWithoutAKeyIsRejected() {
        ConfigFiles.assertRejected(dir, "server.yaml", "server: { tls: { enabled: true, certificate: c.pem } }\n"
                + USERS, ConfigLoader::loadServer, "privateKey", "both certificate and privateKey");
    }

    @Test
    void enabledMustBeABoolean() {
        ConfigFiles.assertRejected(dir, "server.yaml", "server: { tls: { enabled: sure } }\n" + USERS,
                ConfigLoader::loadServer, "enabled", "true or false");
    }

    @Test
    void theExecutorIsRelayOrJdbc() {
        assertEquals(ServerConfig.JDBC, load("{ executor: jdbc }").executor());
        ConfigFiles.assertRejected(dir, "server.yaml", "server: { executor: turbo }\n" + USERS,
                ConfigLoader::loadServer, "executor", "relay");
    }
}
