package io.strata.protocol;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.hex;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HandshakeV10Test {

    /** A MariaDB 10.11 greeting, field by field. */
    private static final String MARIADB_GREETING = """
            0a                                  # protocol version 10
            35 2e 35 2e 35 2d 31 30 2e 31 31    # server version "5.5.5-10.11.6-MariaDB"...
            2e 36 2d 4d 61 72 69 61 44 42 00    # ...NUL-terminated
            1f 00 00 00                         # connection id 31
            5a 3f 26 7c 4b 2e 61 53             # auth-plugin-data part 1: "Z?&|K.aS"
            00                                  # filler
            fe f7                               # capabilities, lower 2 bytes (no CLIENT_MYSQL bit: MariaDB)
            2d                                  # character set 45, utf8mb4_general_ci
            02 00                               # status: AUTOCOMMIT
            ff 81                               # capabilities, upper 2 bytes
            15                                  # auth-plugin-data length 21
            00 00 00 00 00 00                   # reserved
            1d 00 00 00                         # MariaDB extended capabilities (in MySQL's reserved bytes)
            6f 48 5c 21 3e 7d 44 28 59 56 2c 43 # auth-plugin-data part 2: "oH\\!>}D(YV,C"...
            00                                  # ...and its NUL: max(13, 21 - 8) bytes
            6d 79 73 71 6c 5f 6e 61 74 69 76 65 # auth plugin name "mysql_native_password"...
            5f 70 61 73 73 77 6f 72 64 00       # ...NUL-terminated
            """;

    @Test
    void decodesARealMariaDbGreeting() {
        ByteBuf payload = buf(MARIADB_GREETING);

        HandshakeV10 greeting = HandshakeV10.decode(payload);

        assertEquals("5.5.5-10.11.6-MariaDB", greeting.serverVersion());
        assertEquals(31, greeting.connectionId());
        assertArrayEquals("Z?&|K.aSoH\\!>}D(YV,C".getBytes(StandardCharsets.US_ASCII), greeting.authPluginData());
        assertEquals(20, greeting.authPluginData().length);
        assertEquals(0x81FFF7FE, greeting.capabilities());
        assertTrue(Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_PROTOCOL_41));
        assertTrue(Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_SECURE_CONNECTION));
        assertTrue(Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_PLUGIN_AUTH));
        assertTrue(Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF));
        assertFalse(Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_SSL));
        assertFalse(Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_LONG_PASSWORD));
        assertEquals(45, greeting.characterSet());
        assertEquals(ServerStatus.AUTOCOMMIT, greeting.statusFlags());
        assertEquals(Scramble.NATIVE_PASSWORD, greeting.authPluginName());
        assertFalse(payload.isReadable());
    }

    @Test
    void roundTripsStrataGreeting() {
        byte[] nonce = Scramble.nonce();
        var greeting = new HandshakeV10("8.0.36-Strata", 4_000_000_000L, nonce,
                Capabilities.SERVER_DEFAULT | Capabilities.CLIENT_SSL, 255, ServerStatus.AUTOCOMMIT,
                Scramble.CACHING_SHA2_PASSWORD);
        ByteBuf payload = Unpooled.wrappedBuffer(written(greeting::encode));

        HandshakeV10 decoded = HandshakeV10.decode(payload);

        assertEquals(greeting.serverVersion(), decoded.serverVersion());
        assertEquals(greeting.connectionId(), decoded.connectionId());
        assertArrayEquals(nonce, decoded.authPluginData());
        assertEquals(greeting.capabilities(), decoded.capabilities());
        assertEquals(255, decoded.characterSet());
        assertEquals(ServerStatus.AUTOCOMMIT, decoded.statusFlags());
        assertEquals(Scramble.CACHING_SHA2_PASSWORD, decoded.authPluginName());
        assertFalse(payload.isReadable());
    }

    @Test
    void encodesTheLayoutOfTheSpec() {
        byte[] nonce = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);
        var greeting = new HandshakeV10("8", 1, nonce, Capabilities.SERVER_DEFAULT, 45, ServerStatus.AUTOCOMMIT,
                Scramble.NATIVE_PASSWORD);

        assertEquals(Wire.hex(hex("""
                0a                                      # protocol version 10
                38 00                                   # server version "8"
                01 00 00 00                             # connection id 1
                61 62 63 64 65 66 67 68                 # nonce part 1 "abcdefgh"
                00                                      # filler
                ef b7                                   # capabilities, lower 2 bytes (CLIENT_COMPRESS, CLIENT_LOCAL_FILES among them)
                2d                                      # character set 45
                02 00                                   # status: AUTOCOMMIT
                3f 05                                   # capabilities, upper 2 bytes (CLIENT_ZSTD_... among them)
                15                                      # auth-plugin-data length 21
                00 00 00 00 00 00 00 00 00 00           # reserved
                69 6a 6b 6c 6d 6e 6f 70 71 72 73 74 00  # nonce part 2 "ijklmnopqrst" and NUL
                6d 79 73 71 6c 5f 6e 61 74 69 76 65 5f 70 61 73 73 77 6f 72 64 00
                                                        # "mysql_native_password"
                """)), Wire.hex(written(greeting::encode)));
    }

    @Test
    void refusesAnotherProtocolVersion() {
        var error = assertThrows(MySQLException.class, () -> HandshakeV10.decode(buf("09 35 2e 30 00")));

        assertEquals(ErrorCode.HANDSHAKE.code(), error.packet().errorCode());
    }
}
