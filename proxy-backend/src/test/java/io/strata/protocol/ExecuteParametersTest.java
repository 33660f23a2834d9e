package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ExecuteParametersTest {

    private static ByteBuf hex(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    private static byte[] types(ByteBuf payload, int params) {
        return ComStmtExecute.types(payload, params);
    }

    @Test
    void integersKeepTheirWidthAndUnsignedOnesGoUpASize() {
        // 6 params, no NULLs: TINY -7, TINY UNSIGNED 255, SHORT -2, LONG UNSIGNED 4294967295, LONGLONG 5,
        // LONGLONG UNSIGNED 2^64-1
        ByteBuf payload = hex("17 01000000 00 01000000 00 01 0100 0180 0200 0380 0800 0880"
                + " f9 ff feff ffffffff 0500000000000000 ffffffffffffffff");
        Object[] values = ExecuteParameters.decode(payload, 6, types(payload, 6), Map.of(), StandardCharsets.UTF_8);
        assertEquals((byte) -7, values[0]);
        assertEquals((short) 255, values[1]);
        assertEquals((short) -2, values[2]);
        assertEquals(4294967295L, values[3]);
        assertEquals(5L, values[4]);
        assertEquals(new BigDecimal("18446744073709551615"), values[5]);
    }

    @Test
    void nullsTextBytesAndTypesBoundBefore() {
        // 4 params, NULL bitmap 0b0010 (the second is NULL), types not sent again: VAR_STRING, LONG, BLOB, DECIMAL
        byte[] bound = HexFormat.of().parseHex("fd00 0300 fc00 f600".replace(" ", ""));
        ByteBuf payload = hex("17 01000000 00 01000000 02 00 03 68c3a9 02 00ff 04 2d312e35");
        Object[] values = ExecuteParameters.decode(payload, 4, bound, Map.of(), StandardCharsets.UTF_8);
        assertEquals("hé", values[0]);
        assertNull(values[1]);
        assertArrayEquals(new byte[] {0, -1}, (byte[]) values[2]);
        assertEquals(new BigDecimal("-1.5"), values[3]);
    }

    @Test
    void textNotValidInTheCharsetStaysBytes() {
        ByteBuf payload = hex("17 01000000 00 01000000 00 01 fd00 02 ff00");
        Object[] values = ExecuteParameters.decode(payload, 1, types(payload, 1), Map.of(), StandardCharsets.UTF_8);
        assertArrayEquals(new byte[] {-1, 0}, (byte[]) values[0]);
    }

    @Test
    void datesTimesAndZeroDates() {
        // DATE 2024-02-29, DATETIME 2024-02-29 23:59:59.123456, TIME -1 day 02:03:04, DATETIME 0000-00-00 (length 0)
        ByteBuf payload = hex("17 01000000 00 01000000 00 01 0a00 0c00 0b00 0c00"
                + " 04 e807 02 1d"
                + " 0b e807 02 1d 17 3b 3b 40e20100"
                + " 08 01 01000000 02 03 04"
                + " 00");
        Object[] values = ExecuteParameters.decode(payload, 4, types(payload, 4), Map.of(), StandardCharsets.UTF_8);
        assertEquals(LocalDate.of(2024, 2, 29), values[0]);
        assertEquals(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000), values[1]);
        assertEquals(Duration.ofHours(26).plusMinutes(3).plusSeconds(4).negated(), values[2]);
        assertEquals("0000-00-00 00:00:00.000000", values[3]);
    }

    @Test
    void longDataTakesThePlaceOfTheValue() {
        // 2 params: BLOB sent as long data (absent here), then LONG 1
        ByteBuf payload = hex("17 01000000 00 01000000 00 01 fc00 0300 01000000");
        Object[] values = ExecuteParameters.decode(payload, 2, types(payload, 2), Map.of(0, new byte[] {1, 2, 3}),
                StandardCharsets.UTF_8);
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) values[0]);
        assertEquals(1, values[1]);
    }
}
