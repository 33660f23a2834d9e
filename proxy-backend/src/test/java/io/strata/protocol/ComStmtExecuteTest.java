package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComStmtExecuteTest {

    private static ByteBuf hex(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    // COM_STMT_EXECUTE, id 7, flags 0, iteration 1, 2 params: null bitmap 00, bound 1, types LONG, VAR_STRING,
    // values 42 and 'ab'
    private static final String WITH_TYPES = "17 07000000 00 01000000 00 01 0300 fd00 2a000000 026162";
    // the same execute reusing the types bound before
    private static final String WITHOUT_TYPES = "17 07000000 00 01000000 00 00 2a000000 026162";

    @Test
    void readsTheStatementIdAndTypes() {
        ByteBuf payload = hex(WITH_TYPES);
        assertEquals(7, ComStmtExecute.statementId(payload));
        assertArrayEquals(HexFormat.of().parseHex("0300fd00"), ComStmtExecute.types(payload, 2));
        assertNull(ComStmtExecute.types(hex(WITHOUT_TYPES), 2));
    }

    @Test
    void rewritesTheStatementIdInPlace() {
        ByteBuf payload = hex(WITH_TYPES);
        ComStmtExecute.statementId(payload, 0x01020304L);
        assertEquals(0x01020304L, ComStmtExecute.statementId(payload));
    }

    @Test
    void addsTheTypesAnExecuteReused() {
        ByteBuf rebuilt = ComStmtExecute.withTypes(hex(WITHOUT_TYPES), 2, HexFormat.of().parseHex("0300fd00"));
        assertEquals(ByteBufUtil.hexDump(hex(WITH_TYPES)), ByteBufUtil.hexDump(rebuilt));
    }

    @Test
    void cursorFlags() {
        assertTrue(ComStmtExecute.opensCursor(hex("17 07000000 01 01000000")));
        assertTrue(!ComStmtExecute.opensCursor(hex(WITH_TYPES)));
    }
}
