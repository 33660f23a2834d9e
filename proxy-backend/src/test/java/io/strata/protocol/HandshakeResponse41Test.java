package io.strata.protocol;

import static io.strata.protocol.Capabilities.CLIENT_CONNECT_ATTRS;
import static io.strata.protocol.Capabilities.CLIENT_CONNECT_WITH_DB;
import static io.strata.protocol.Capabilities.CLIENT_LONG_PASSWORD;
import static io.strata.protocol.Capabilities.CLIENT_MULTI_RESULTS;
import static io.strata.protocol.Capabilities.CLIENT_PLUGIN_AUTH;
import static io.strata.protocol.Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
import static io.strata.protocol.Capabilities.CLIENT_PROTOCOL_41;
import static io.strata.protocol.Capabilities.CLIENT_SECURE_CONNECTION;
import static io.strata.protocol.Capabilities.CLIENT_SSL;
import static io.strata.protocol.Capabilities.CLIENT_TRANSACTIONS;
import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.hex;
import static io.strata.protocol.Wire.randomBytes;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HandshakeResponse41Test {

    private static final int BASE = CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS
            | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS;
    private static final int ALL = BASE | CLIENT_CONNECT_WITH_DB | CLIENT_PLUGIN_AUTH
            | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_CONNECT_ATTRS;
    private static final byte[] NONCE = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);

    /** What a client logging in as root/secret to database "test" sends, field by field. */
    private static final String ROOT_TO_TEST = """
            09 a2 3a 00         # capabilities: LONG_PASSWORD, CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS,
                                # SECURE_CONNECTION, MULTI_RESULTS, PLUGIN_AUTH, CONNECT_ATTRS, PLUGIN_AUTH_LENENC
            00 00 00 01         # max packet size 16 MiB
            2d                  # character set 45, utf8mb4_general_ci
            00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                                # 23 reserved bytes
            72 6f 6f 74 00      # user "root"
            14                  # auth response length 20 (lenenc)
            88 17 c5 0f a7 79 da ef 01 0e e7 57 78 25 b0 84 7d f9 84 2e
                                # mysql_native_password scramble of "secret" with nonce "abcdefghijklmnopqrst"
            74 65 73 74 00      # database "test"
            6d 79 73 71 6c 5f 6e 61 74 69 76 65 5f 70 61 73 73 77 6f 72 64 00
                                # auth plugin "mysql_native_password"
            0a                  # attributes: 10 bytes (lenenc)
            03 5f 6f 73         #   key "_os"
            05 4c 69 6e 75 78   #   value "Linux"
            """;

    @Test
    void decodesWhatAClientSends() {
        ByteBuf payload = buf(ROOT_TO_TEST);

        HandshakeResponse41 response = HandshakeResponse41.decode(payload);

        assertEquals(ALL, response.capabilities());
        assertEquals(16L << 20, response.maxPacketSize());
        assertEquals(45, response.characterSet());
        assertEquals("root", response.username());
        assertArrayEquals(Scramble.nativePassword("secret", NONCE), response.authResponse());
        assertEquals("test", response.database());
        assertEquals(Scramble.NATIVE_PASSWORD, response.authPluginName());
        assertEquals(Map.of("_os", "Linux"), response.attributes());
        assertFalse(payload.isReadable());
    }

    @Test
    void encodesTheSameBytes() {
        var response = new HandshakeResponse41(ALL, 16L << 20, 45, "root", Scramble.nativePassword("secret", NONCE),
                "test", Scramble.NATIVE_PASSWORD, Map.of("_os", "Linux"));

        assertEquals(Wire.hex(hex(ROOT_TO_TEST)), Wire.hex(written(response::encode)));
    }

    static Stream<Arguments> responses() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("_client_name", "MariaDB Connector/J");
        attributes.put("_client_version", "3.5.11");
        attributes.put("program_name", "x".repeat(300));
        byte[] scramble = randomBytes(20, 1);
        return Stream.of(
                argumentSet("database, plugin, lenenc auth data and attributes", new HandshakeResponse41(ALL,
                        1L << 30, 255, "app", scramble, "orders", Scramble.CACHING_SHA2_PASSWORD, attributes)),
                argumentSet("without CONNECT_WITH_DB: no database", new HandshakeResponse41(
                        ALL & ~CLIENT_CONNECT_WITH_DB, 0, 45, "app", scramble, null, Scramble.NATIVE_PASSWORD,
                        attributes)),
                argumentSet("CONNECT_WITH_DB but no database", new HandshakeResponse41(ALL, 0, 45, "app", scramble,
                        null, Scramble.NATIVE_PASSWORD, Map.of())),
                argumentSet("without PLUGIN_AUTH: no plugin name", new HandshakeResponse41(
                        ALL & ~CLIENT_PLUGIN_AUTH, 0, 45, "app", scramble, "orders", null, attributes)),
                argumentSet("without lenenc auth data: a one-byte length", new HandshakeResponse41(
                        ALL & ~CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA, 0, 45, "app", scramble, "orders",
                        Scramble.NATIVE_PASSWORD, attributes)),
                argumentSet("256 bytes of lenenc auth data (an RSA-encrypted password)", new HandshakeResponse41(
                        ALL, 0, 45, "app", randomBytes(256, 2), "orders", Scramble.CACHING_SHA2_PASSWORD, Map.of())),
                argumentSet("empty password: empty auth data", new HandshakeResponse41(ALL, 0, 45, "app",
                        new byte[0], "orders", Scramble.NATIVE_PASSWORD, attributes)),
                argumentSet("CONNECT_ATTRS with no attributes", new HandshakeResponse41(ALL, 0, 45, "app",
                        scramble, "orders", Scramble.NATIVE_PASSWORD, Map.of())),
                argumentSet("without CONNECT_ATTRS", new HandshakeResponse41(ALL & ~CLIENT_CONNECT_ATTRS, 0, 45,
                        "app", scramble, "orders", Scramble.NATIVE_PASSWORD, Map.of())),
                argumentSet("only the 4.1 basics", new HandshakeResponse41(BASE, 0, 8, "app", scramble, null, null,
                        Map.of())),
                argumentSet("a non-ASCII user and database", new HandshakeResponse41(ALL, 0, 45, "j\u00fcrgen",
                        scramble, "b\u00fccher", Scramble.NATIVE_PASSWORD, Map.of("k", "\u00e9t\u00e9"))));
    }

    @ParameterizedTest
    @MethodSource("responses")
    void roundTrips(HandshakeResponse41 response) {
        ByteBuf payload = Unpooled.wrappedBuffer(written(response::encode));

        HandshakeResponse41 decoded = HandshakeResponse41.decode(payload);

        assertEquals(response.capabilities(), decoded.capabilities());
        assertEquals(response.maxPacketSize(), decoded.maxPacketSize());
        assertEquals(response.characterSet(), decoded.characterSet());
        assertEquals(response.username(), decoded.username());
        assertArrayEquals(response.authResponse(), decoded.authResponse());
        assertEquals(response.database(), decoded.database());
        assertEquals(response.authPluginName(), decoded.authPluginName());
        assertEquals(response.attributes(), decoded.attributes());
        assertFalse(payload.isReadable());
    }

    @Test
    void theFirst32BytesWithClientSslAreAnSslRequest() {
        var response = new HandshakeResponse41(ALL | CLIENT_SSL, 16L << 20, 45, "root", randomBytes(20, 3), "test",
                Scramble.NATIVE_PASSWORD, Map.of());
        byte[] whole = written(response::encode);

        assertTrue(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(whole, 0, 32)));
        assertFalse(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(whole)), "the full response");
        byte[] plain = written(new HandshakeResponse41(ALL, 16L << 20, 45, "root", new byte[0], null,
                Scramble.NATIVE_PASSWORD, Map.of())::encode);
        assertFalse(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(plain, 0, 32)), "no CLIENT_SSL");
    }

    @Test
    void refusesAClientWithoutProtocol41() {
        ByteBuf payload = buf("05 a0 00 00  00 00 00 01  08" + " 00".repeat(23) + " 72 6f 6f 74 00 00");

        var error = assertThrows(MySQLException.class, () -> HandshakeResponse41.decode(payload));

        assertEquals(ErrorCode.HANDSHAKE.code(), error.packet().errorCode());
    }

    @Test
    void anEmptyDatabaseNameMeansNone() {
        var response = new HandshakeResponse41(ALL, 0, 45, "app", new byte[0], "", Scramble.NATIVE_PASSWORD,
                Map.of());

        assertNull(HandshakeResponse41.decode(Unpooled.wrappedBuffer(written(response::encode))).database());
    }
}
