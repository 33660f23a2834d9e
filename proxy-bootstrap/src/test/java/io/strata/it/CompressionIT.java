package io.strata.it;

import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MySQL's compressed protocol (CLIENT_COMPRESS) between clients and Strata: both Connector/Js with
 * {@code useCompression=true} over text and prepared statements, a row larger than one 16 MiB packet, a LOAD DATA
 * LOCAL, and the mariadb command-line client with {@code -C}; the answers are the backend's, byte for byte in value.
 */
class CompressionIT {

    private static final int BIG = 17 * 1024 * 1024;
    private static StrataFixture strata;

    @TempDir
    Path folder;

    @BeforeAll
    static void start() throws SQLException {
        // a row above one 16 MiB packet needs the server to allow it
        Backend.server().run("SET GLOBAL max_allowed_packet = " + (64 * 1024 * 1024));
        Backend.execute("CREATE TABLE IF NOT EXISTS compressed (id INT PRIMARY KEY, v TEXT)",
                "TRUNCATE TABLE compressed");
        strata = StrataFixture.start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void textAndPreparedStatementsAndARowAbove16MiBComeBackWhole(Driver driver) throws SQLException {
        for (boolean prepared : new boolean[] {false, true}) {
            Properties props = new Properties();
            props.setProperty("useCompression", "true");
            props.setProperty("useServerPrepStmts", String.valueOf(prepared));
            props.setProperty("maxAllowedPacket", String.valueOf(64 * 1024 * 1024));
            try (Connection c = strata.connect(driver, "it", "root", "root", props);
                 Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT 40 + 2, REPEAT('ab', 1000)")) {
                    assertTrue(rs.next());
                    assertEquals(42, rs.getInt(1));
                    assertEquals("ab".repeat(1000), rs.getString(2));
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT LENGTH(?), ? ")) {
                    String text = "compressed ".repeat(500);
                    ps.setString(1, text);
                    ps.setString(2, text);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(text.length(), rs.getInt(1));
                        assertEquals(text, rs.getString(2));
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT REPEAT('z', " + BIG + "), 7")) {
                    assertTrue(rs.next());
                    String big = rs.getString(1);
                    assertEquals(BIG, big.length());
                    assertTrue(big.chars().allMatch(ch -> ch == 'z'));
                    assertEquals(7, rs.getInt(2));
                }
                try (ResultSet rs = st.executeQuery("SELECT seq, REPEAT(CHAR(65 + seq % 26), 100) FROM seq_1_to_5000")) {
                    int rows = 0;
                    while (rs.next()) {
                        rows++;
                        assertEquals(String.valueOf((char) ('A' + rs.getInt(1) % 26)).repeat(100), rs.getString(2));
                    }
                    assertEquals(5000, rows);
                }
            }
        }
    }

    @Test
    void aLocalFileGoesToTheBackendThroughACompressedSession() throws Exception {
        Path file = folder.resolve("rows.csv");
        StringBuilder csv = new StringBuilder();
        for (int i = 1; i <= 20_000; i++) {
            csv.append(i).append(",row ").append(i).append(" of a compressed load\n");
        }
        Files.writeString(file, csv);
        Properties props = new Properties();
        props.setProperty("useCompression", "true");
        props.setProperty("allowLocalInfile", "true");
        try (Connection c = strata.connect(Driver.MARIADB, "it", "root", "root", props);
             Statement st = c.createStatement()) {
            st.execute("TRUNCATE TABLE compressed");
            String load = "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE compressed FIELDS TERMINATED BY ','";
            if (!StrataFixture.executor().equals(io.strata.config.ServerConfig.RELAY)) {
                // the JDBC executor refuses LOCAL loads whatever the transport (LocalInfileIT); its refusal is whole
                assertEquals(4166, org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> st.executeUpdate(load)).getErrorCode());
                return;
            }
            assertEquals(20_000, st.executeUpdate(load));
        }
        try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), MAX(v) FROM compressed")) {
            assertTrue(rs.next());
            assertEquals(20_000, rs.getInt(1), "every row is on the backend");
        }
    }

    @Test
    void theCommandLineClientCompressesWithMinusC() throws Exception {
        Path client = Files.isExecutable(Path.of("/usr/bin/mariadb")) ? Path.of("/usr/bin/mariadb")
                : Backend.server().program("mariadb");
        Process process = new ProcessBuilder(client.toString(), "--no-defaults", "-h127.0.0.1",
                "-P" + strata.port(), "-uroot", "-proot", "-D", "it", "-C", "-N", "-B", "-e",
                "SELECT 6 * 7; SELECT LENGTH(REPEAT('q', 100000)); SHOW SESSION STATUS LIKE 'Compression'")
                .redirectErrorStream(true).start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .toList();
        assertEquals("42", lines.get(0), lines.toString());
        assertEquals("100000", lines.get(1), lines.toString());
        assertEquals(0, process.exitValue(), lines.toString());
    }
}
