package io.strata.backend.jdbc;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BinarySafeSqlTest {

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                for (int b : (int[]) part) {
                    out.write(b);
                }
            }
        }
        return out.toByteArray();
    }

    @Test
    void validTextPassesUnchanged() {
        String sql = "SELECT 'héllo 😀', \"x\" FROM t WHERE a = 'it''s'";
        assertEquals(sql, BinarySafeSql.decode(sql.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8, false));
    }

    @Test
    void aLiteralOfRawBytesBecomesAHexLiteral() {
        byte[] sql = bytes("INSERT INTO b VALUES (1, _binary'", new int[] {0xFF, 0x00, 0xE0}, "\\0\\'\\\\", "')");
        assertEquals("INSERT INTO b VALUES (1, _binary X'ff00e000275c')",
                BinarySafeSql.decode(sql, StandardCharsets.UTF_8, false));
    }

    @Test
    void escapesFollowMySqlRules() {
        byte[] sql = bytes("SELECT '", new int[] {0xC3}, "\\n\\%\\Z'''");
        assertEquals("SELECT X'c30a5c251a27'", BinarySafeSql.decode(sql, StandardCharsets.UTF_8, false));
    }

    @Test
    void withNoBackslashEscapesABackslashIsAByte() {
        byte[] sql = bytes("SELECT '", new int[] {0xFF}, "\\'");
        assertEquals("SELECT X'ff5c'", BinarySafeSql.decode(sql, StandardCharsets.UTF_8, true));
    }

    @Test
    void onlyTheUndecodableLiteralIsRewritten() {
        byte[] sql = bytes("SELECT 'ok', '", new int[] {0xFE}, "', 'ü'");
        assertEquals("SELECT 'ok', X'fe', 'ü'", BinarySafeSql.decode(sql, StandardCharsets.UTF_8, false));
    }
}
