package io.strata.protocol.command;

import static io.strata.protocol.Wire.buf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExecuteParametersTest {

    private static final Charset UTF8 = StandardCharsets.UTF_8;

    private static Object[] decode(ByteBuf payload, int params) {
        return ExecuteParameters.decode(payload, params, ComStmtExecute.types(payload, params), Map.of(), UTF8);
    }

    @Test
    void theValuesOfAnExecuteWithANull() {
        ComStmtExecute execute = (ComStmtExecute) CommandDecoder.decode(buf(CommandDecoderTest.EXECUTE));

        Object[] values = execute.parameters(2, execute.types(2), Map.of(), UTF8);

        assertArrayEquals(new Object[] {42, null}, values);
    }

    @Test
    void integersKeepTheirWidthAndUnsignedOnesGoUpASize() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000     # COM_STMT_EXECUTE, statement 1
                00 01                       # no NULLs; types follow
                0100 0180 0200 0380 0800 0880
                                            # TINY, TINY UNSIGNED, SHORT, LONG UNSIGNED, LONGLONG, LONGLONG UNSIGNED
                f9                          # -7
                ff                          # 255
                feff                        # -2
                ffffffff                    # 4294967295
                0500000000000000            # 5
                ffffffffffffffff            # 2^64 - 1
                """);

        Object[] values = decode(payload, 6);

        assertEquals((byte) -7, values[0]);
        assertEquals((short) 255, values[1]);
        assertEquals((short) -2, values[2]);
        assertEquals(4294967295L, values[3]);
        assertEquals(5L, values[4]);
        assertEquals(new BigDecimal("18446744073709551615"), values[5]);
    }

    @Test
    void theOtherIntegerTypes() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                0280 0d00 0900 0300 0880    # SHORT UNSIGNED, YEAR, INT24, LONG, LONGLONG UNSIGNED
                ffff                        # 65535
                e807                        # 2024
                ffffffff                    # -1 (INT24 travels in 4 bytes)
                fbffffff                    # -5
                0700000000000000            # 7: unsigned, but fits a long
                """);

        assertArrayEquals(new Object[] {65535, (short) 2024, -1, -5, 7L}, decode(payload, 5));
    }

    @Test
    void floatsAndDoubles() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                0400 0500                   # FLOAT, DOUBLE
                0000c03f                    # 1.5f
                000000000000d0bf            # -0.25
                """);

        assertArrayEquals(new Object[] {1.5f, -0.25}, decode(payload, 2));
    }

    @Test
    void nullsTextBytesAndTypesBoundBefore() {
        byte[] bound = HexFormat.of().parseHex("fd000300fc00f600"); // VAR_STRING, LONG, BLOB, DECIMAL
        ByteBuf payload = buf("""
                17 01000000 00 01000000
                02                          # null bitmap: the second is NULL
                00                          # types not sent again
                03 68c3a9                   # 'hé'
                02 00ff                     # x'00ff'
                04 2d312e35                 # '-1.5'
                """);

        Object[] values = ExecuteParameters.decode(payload, 4, bound, Map.of(), UTF8);

        assertEquals("h\u00e9", values[0]);
        assertNull(values[1]);
        assertArrayEquals(new byte[] {0, -1}, (byte[]) values[2]);
        assertEquals(new BigDecimal("-1.5"), values[3]);
    }

    @Test
    void aParameterOfTypeNullHasNoValueEvenWithoutItsNullBit() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                0300 0600 0300              # LONG, NULL, LONG
                01000000 02000000           # 1, (nothing), 2
                """);

        assertArrayEquals(new Object[] {1, null, 2}, decode(payload, 3));
    }

    @Test
    void textNotValidInTheCharsetStaysBytes() {
        ByteBuf payload = buf("17 01000000 00 01000000 00 01 fd00 02 ff00");

        assertArrayEquals(new byte[] {-1, 0}, (byte[]) decode(payload, 1)[0]);
    }

    @Test
    void textIsReadInTheClientsCharset() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01 fd00
                04 636166e9                 # 'café' from a latin1 client
                """);
        Charset latin1 = Charset.forName("windows-1252"); // MySQL's latin1

        assertEquals("caf\u00e9", ExecuteParameters.decode(payload, 1, ComStmtExecute.types(payload, 1), Map.of(),
                latin1)[0]);
        assertArrayEquals(new byte[] {'c', 'a', 'f', (byte) 0xe9}, (byte[]) decode(payload, 1)[0]);
    }

    @Test
    void datesTimesAndZeroDates() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                0a00 0c00 0b00 0c00         # DATE, DATETIME, TIME, DATETIME
                04 e807 02 1d               # 2024-02-29
                0b e807 02 1d 17 3b 3b 40e20100
                                            # 2024-02-29 23:59:59.123456
                08 01 01000000 02 03 04     # -1 day 02:03:04
                00                          # length 0: 0000-00-00 00:00:00
                """);

        Object[] values = decode(payload, 4);

        assertEquals(LocalDate.of(2024, 2, 29), values[0]);
        assertEquals(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000), values[1]);
        assertEquals(Duration.ofHours(26).plusMinutes(3).plusSeconds(4).negated(), values[2]);
        assertEquals("0000-00-00 00:00:00.000000", values[3]);
    }

    @Test
    void theShorterFormsOfDatesAndTimes() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                0a00 0c00 0700 0b00 0b00 0a00
                                            # DATE, DATETIME, TIMESTAMP, TIME, TIME, DATE
                00                          # DATE of length 0: the zero date
                04 e807 02 1d               # DATETIME of length 4: midnight
                07 e807 02 1d 0c 00 00      # TIMESTAMP of length 7: no microseconds
                0c 00 00000000 01 02 03 40e20100
                                            # TIME of length 12: 01:02:03.123456
                00                          # TIME of length 0: 00:00:00
                04 0000 00 00               # DATE 0000-00-00 spelled out
                """);

        Object[] values = decode(payload, 6);

        assertEquals("0000-00-00", values[0]);
        assertEquals(LocalDateTime.of(2024, 2, 29, 0, 0), values[1]);
        assertEquals(LocalDateTime.of(2024, 2, 29, 12, 0), values[2]);
        assertEquals(Duration.ofHours(1).plusMinutes(2).plusSeconds(3).plusNanos(123_456_000), values[3]);
        assertEquals(Duration.ZERO, values[4]);
        assertEquals("0000-00-00", values[5]);
    }

    @Test
    void decimalsAndTextThatIsNoNumber() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                f600 0000                   # NEWDECIMAL, DECIMAL
                05 31322e3530               # '12.50'
                03 616263                   # 'abc': the server's to refuse
                """);

        assertArrayEquals(new Object[] {new BigDecimal("12.50"), "abc"}, decode(payload, 2));
    }

    @Test
    void characterTypesAreTextAndTheRestBytes() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                0f00 fe00 f700 f800 f500    # VARCHAR, STRING, ENUM, SET, JSON
                fc00 ff00 1000              # BLOB, GEOMETRY, BIT
                01 61                       # 'a'
                01 62                       # 'b'
                03 726564                   # 'red'
                03 612c62                   # 'a,b'
                07 7b2261223a317d           # '{"a":1}'
                02 cafe                     # x'cafe'
                01 00                       # x'00'
                01 05                       # b'101'
                """);

        Object[] values = decode(payload, 8);

        assertEquals("a", values[0]);
        assertEquals("b", values[1]);
        assertEquals("red", values[2]);
        assertEquals("a,b", values[3]);
        assertEquals("{\"a\":1}", values[4]);
        assertArrayEquals(new byte[] {(byte) 0xca, (byte) 0xfe}, (byte[]) values[5]);
        assertArrayEquals(new byte[] {0}, (byte[]) values[6]);
        assertArrayEquals(new byte[] {5}, (byte[]) values[7]);
    }

    @Test
    void longDataTakesThePlaceOfTheValue() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000 00 01
                fc00 0300 fd00              # BLOB, LONG, VAR_STRING
                01000000                    # 1 (the BLOB and the string came as long data)
                """);
        Map<Integer, byte[]> longData = Map.of(0, new byte[] {1, 2, 3}, 2, "h\u00e9".getBytes(UTF8));

        Object[] values = ExecuteParameters.decode(payload, 3, ComStmtExecute.types(payload, 3), longData, UTF8);

        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) values[0]);
        assertEquals(1, values[1]);
        assertEquals("h\u00e9", values[2]);
    }

    @Test
    void noParametersNoValues() {
        assertArrayEquals(new Object[0], decode(buf("17 01000000 00 01000000"), 0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a LONG of 2 bytes                     | 0300 | 17 01000000 00 01000000 00 01 0300 0100
            no new-params-bound flag              | 0300 | 17 01000000 00 01000000 00
            a string of 5 bytes with 2 left       | fd00 | 17 01000000 00 01000000 00 01 fd00 05 6162
            a DATETIME of 11 bytes with 3 left    | 0c00 | 17 01000000 00 01000000 00 01 0c00 0b e807 02
            a BLOB claiming 2 GiB in a tiny packet | fc00 | 17 01000000 00 01000000 00 01 fc00 fe ffffff7f00000000 0102
            """)
    void valuesEndingBeforeThePacketDoesAreMalformed(String what, String type, String hex) {
        ByteBuf payload = buf(hex);

        MySQLException e = assertThrows(MySQLException.class,
                () -> ExecuteParameters.decode(payload, 1, HexFormat.of().parseHex(type), Map.of(), UTF8));

        assertEquals(ErrorCode.MALFORMED_PACKET.code(), e.packet().errorCode());
        assertEquals("Malformed communication packet: COM_STMT_EXECUTE of " + payload.readableBytes()
                + " bytes is too short", e.packet().message());
    }

    @Test
    void typesForFewerParametersAreTheCallersMistake() {
        ByteBuf payload = buf("17 01000000 00 01000000 00 01 0300 0300 01000000 02000000");

        assertThrows(IllegalArgumentException.class,
                () -> ExecuteParameters.decode(payload, 2, new byte[] {3, 0}, Map.of(), UTF8));
    }
}
