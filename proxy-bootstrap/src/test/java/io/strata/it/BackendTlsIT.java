package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS from Strata to a MariaDB that requires it: an account created {@code REQUIRE SSL}, reached through the data
 * source's URL parameters as MariaDB Connector/J takes them; the cipher read on the server for Strata's own
 * connection ({@code Ssl_cipher}), whichever executor runs; a certificate that fails verification refused clearly.
 */
class BackendTlsIT {

    private static Path folder;
    private static EmbeddedMariaDb server;
    private static Path serverCert;
    private static Path otherCert;

    @BeforeAll
    static void startServerWithTls() throws Exception {
        folder = Files.createTempDirectory("strata-backend-tls");
        serverCert = folder.resolve("server-cert.pem");
        Path serverKey = folder.resolve("server-key.pem");
        selfSigned(serverCert, serverKey);
        otherCert = folder.resolve("other-cert.pem");
        selfSigned(otherCert, folder.resolve("other-key.pem"));
        server = EmbeddedMariaDb.start(0, "--ssl-cert=" + serverCert, "--ssl-key=" + serverKey,
                "--ssl-ca=" + serverCert);
        server.run("DROP USER IF EXISTS ''@'localhost'",
                "CREATE DATABASE IF NOT EXISTS tls_it",
                "CREATE USER IF NOT EXISTS 'secure'@'%' IDENTIFIED BY 'secure' REQUIRE SSL",
                "GRANT ALL PRIVILEGES ON *.* TO 'secure'@'%'");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRequireSslAccountIsReachedOverTlsVerifiedAgainstTheServersCertificate() throws Exception {
        for (String mode : new String[] {"verify-full", "verify-ca", "trust"}) {
            String url = server.jdbcUrl("tls_it") + "?sslMode=" + mode + "&serverSslCert=" + serverCert;
            try (Strata strata = start(url); Connection c = connect(strata); Statement st = c.createStatement()) {
                String cipher = sslCipher(st);
                assertFalse(cipher.isEmpty(), mode + ": Strata's backend connection is encrypted");
                st.execute("CREATE TABLE IF NOT EXISTS t (id INT PRIMARY KEY)");
                st.execute("REPLACE INTO t VALUES (1)");
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t")) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getInt(1));
                }
            }
        }
    }

    @Test
    void aCertificateThatFailsVerificationIsAClearErrorNeverClearText() throws Exception {
        String url = server.jdbcUrl("tls_it") + "?sslMode=verify-ca&serverSslCert=" + otherCert;
        try (Strata strata = start(url)) {
            // the driver's first statements at login already need the backend: the login or the query fails
            SQLException e = assertThrows(SQLException.class, () -> {
                try (Connection c = connect(strata); Statement st = c.createStatement()) {
                    sslCipher(st);
                }
            });
            assertTrue(e.getMessage().contains("data source 'ds_0'")
                    && e.getMessage().toLowerCase().matches("(?s).*(pkix|certif|ssl|tls).*"), e.getMessage());
        }
        String clear = server.jdbcUrl("tls_it");
        try (Strata strata = start(clear)) {
            SQLException e = assertThrows(SQLException.class, () -> {
                try (Connection c = connect(strata); Statement st = c.createStatement()) {
                    sslCipher(st);
                }
            });
            if (StrataFixture.executor().equals(io.strata.config.ServerConfig.RELAY)) {
                // (the JDBC executor's pool keeps retrying a refused login: the client's own timeout ends it first)
                assertTrue(e.getMessage().contains("data source 'ds_0'") && e.getMessage().contains("1045"),
                        "the REQUIRE SSL account refuses clear text: " + e.getMessage());
            }
        }
    }

    private static String sslCipher(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            assertTrue(rs.next());
            return rs.getString(2);
        }
    }

    private static Strata start(String url) {
        StrataConfig defaults = StrataFixture.config(io.strata.config.ServerConfig.NATIVE_PASSWORD, server, Map.of(),
                "strata");
        // a refused login costs the JDBC executor's pool its whole connectionTimeout before it answers
        Map<String, Object> pool = new LinkedHashMap<>(Map.of("maximumPoolSize", 4, "connectionTimeout", 1000));
        DataSourceConfig ds = DataSourceConfig.of("ds_0", url, "secure", "secure", pool);
        return Strata.builder().config(new StrataConfig(defaults.server(), Map.of("it",
                new DatabaseConfig("it", Map.of("ds_0", ds), java.util.List.of())))).start();
    }

    private static Connection connect(Strata strata) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port() + "/it?user=root&password=root");
    }

    /** A self-signed certificate naming 127.0.0.1 and localhost, and its key, as PEM files. */
    private static void selfSigned(Path cert, Path key) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        X500Name name = new X500Name("CN=strata-it-mariadb");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                BigInteger.valueOf(now.toEpochMilli()), Date.from(now.minus(1, ChronoUnit.DAYS)),
                Date.from(now.plus(30, ChronoUnit.DAYS)), name, pair.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder("SHA256withRSA")
                .build(pair.getPrivate()));
        Files.writeString(cert, pem(new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter()
                .getCertificate(holder)));
        Files.writeString(key, pem(pair.getPrivate()));
    }

    private static String pem(Object object) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        }
        return out.toString();
    }
}
