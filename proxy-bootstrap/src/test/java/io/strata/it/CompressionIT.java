package io.strata.it;

import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.github.luben.zstd.Zstd;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.protocol.Capabilities;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.HandshakeV10;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.Scramble;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
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

    /**
     * MySQL 8's zstd, as its C client speaks it (no Java driver does): CLIENT_ZSTD_COMPRESSION_ALGORITHM and a level
     * at the end of the login, then every packet a zstd frame of its own.
     */
    @Test
    void aClientAskingForZstdGetsZstdPacketsBothWays() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", strata.port())) {
            socket.setSoTimeout(30_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            byte[] greeting = readPlain(in);
            HandshakeV10 hello = HandshakeV10.decode(Unpooled.wrappedBuffer(greeting));
            assertTrue(Capabilities.has(hello.capabilities(), Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM));
            int caps = (RawClient.CAPABILITIES | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM)
                    & ~Capabilities.CLIENT_COMPRESS;
            HandshakeResponse41 login = new HandshakeResponse41(caps, 1 << 24, 45, "root",
                    Scramble.nativePassword("root", Scramble.trimNonce(hello.authPluginData())), "it",
                    Scramble.NATIVE_PASSWORD, Map.of(), 0, 7);
            ByteBuf payload = Unpooled.buffer();
            login.encode(payload);
            writePlain(out, 1, MySQLBuf.readBytesEof(payload));
            assertEquals(0, readPlain(in)[0], "logged in (the OK itself is not compressed)");

            byte[] query = ("\u0003SELECT REPEAT('z', 5000), 42").getBytes(StandardCharsets.UTF_8);
            ByteBuf packet = Unpooled.buffer().writeMediumLE(query.length).writeByte(0).writeBytes(query);
            byte[] plain = new byte[packet.readableBytes()];
            packet.readBytes(plain);
            byte[] compressed = Zstd.compress(plain, 7);
            ByteBuf frame = Unpooled.buffer().writeMediumLE(compressed.length).writeByte(0)
                    .writeMediumLE(plain.length).writeBytes(compressed);
            out.write(MySQLBuf.readBytesEof(frame));
            out.flush();

            ByteBuf answer = Unpooled.buffer();
            boolean sawCompressed = false;
            while (!complete(answer)) {
                int length = in.readUnsignedByte() | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
                in.readUnsignedByte();
                int plainLength = in.readUnsignedByte() | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
                byte[] body = new byte[length];
                in.readFully(body);
                if (plainLength == 0) {
                    answer.writeBytes(body);
                } else {
                    sawCompressed = true;
                    answer.writeBytes(Zstd.decompress(body, plainLength));
                }
            }
            assertTrue(sawCompressed, "the 5000-byte row came zstd-compressed");
            String text = answer.toString(StandardCharsets.ISO_8859_1);
            assertTrue(text.contains("z".repeat(5000)) && text.contains("\u000242"), "the row: " + text.length());
        }
    }

    /** Whether the plain stream holds a whole result set: its last packet an OK/EOF (0xFE) after rows. */
    private static boolean complete(ByteBuf plain) {
        int at = plain.readerIndex();
        int packets = 0;
        while (plain.writerIndex() - at >= 4) {
            int length = plain.getUnsignedMediumLE(at);
            if (plain.writerIndex() - at < 4 + length) {
                return false;
            }
            packets++;
            if (packets > 3 && plain.getUnsignedByte(at + 4) == 0xFE && length < 0xFFFFFF) {
                return at + 4 + length == plain.writerIndex();
            }
            at += 4 + length;
        }
        return false;
    }

    private static byte[] readPlain(DataInputStream in) throws IOException {
        int length = in.readUnsignedByte() | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
        in.readUnsignedByte();
        byte[] payload = new byte[length];
        in.readFully(payload);
        return payload;
    }

    private static void writePlain(OutputStream out, int sequence, byte[] payload) throws IOException {
        out.write(new byte[] {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16),
            (byte) sequence});
        out.write(payload);
        out.flush();
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
