package io.strata.protocol.command;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.protocol.Wire;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ComStmtExecuteTest {

    private static final byte[] LONG_VAR_STRING = HexFormat.of().parseHex("0300fd00");

    private static final String WITH_TYPES = """
            17                  # COM_STMT_EXECUTE
            07 00 00 00         # statement id 7
            00                  # flags: no cursor
            01 00 00 00         # iteration count 1
            00                  # null bitmap: no NULLs
            01                  # new-params-bound: types follow
            03 00 fd 00         #   LONG, VAR_STRING
            2a 00 00 00         # 42
            02 61 62            # 'ab'
            """;

    /** The statement's next execute: the same values, the types bound before reused. */
    private static final String WITHOUT_TYPES = """
            17 07 00 00 00 00 01 00 00 00   # COM_STMT_EXECUTE, statement 7, no cursor, iteration 1
            00                  # null bitmap
            00                  # new-params-bound 0: the previous execute's types hold
            2a 00 00 00 02 61 62
                                # 42, 'ab'
            """;

    @Test
    void readsTheTypesAnExecuteBinds() {
        ComStmtExecute execute = (ComStmtExecute) CommandDecoder.decode(buf(WITH_TYPES));

        assertEquals(7, execute.statementId());
        assertArrayEquals(LONG_VAR_STRING, execute.types(2));
        assertArrayEquals(LONG_VAR_STRING, ComStmtExecute.types(buf(WITH_TYPES), 2));
    }

    @Test
    void anExecuteThatReusesItsTypesOrHasNoParametersBindsNone() {
        assertNull(ComStmtExecute.types(buf(WITHOUT_TYPES), 2));
        assertNull(ComStmtExecute.types(buf("17 07000000 00 01000000"), 0));
    }

    @Test
    void findsTheTypesBehindANullBitmapOfTwoBytes() {
        ByteBuf payload = buf("""
                17 01000000 00 01000000     # COM_STMT_EXECUTE, statement 1
                ff 01                       # null bitmap of 9 parameters: all NULL
                01                          # new-params-bound
                06 00 06 00 06 00 06 00 06 00 06 00 06 00 06 00 06 00
                                            # 9 times NULL (type 0x06)
                """);

        assertArrayEquals(HexFormat.of().parseHex("0600".repeat(9)), ComStmtExecute.types(payload, 9));
    }

    @Test
    void typesRunningPastThePacketAreMalformed() {
        MySQLException e = assertThrows(MySQLException.class,
                () -> ComStmtExecute.types(buf("17 07000000 00 01000000 00 01 0300 fd"), 2));

        assertEquals(ErrorCode.MALFORMED_PACKET.code(), e.packet().errorCode());
        assertEquals("Malformed communication packet: COM_STMT_EXECUTE of 15 bytes is too short",
                e.packet().message());
    }

    @Test
    void rewritesTheStatementIdInPlace() {
        ByteBuf payload = buf(WITH_TYPES);

        ComStmtExecute.statementId(payload, 0x01020304L);

        assertEquals("17 04 03 02 01", Wire.hex(ByteBufUtil.getBytes(payload, 0, 5)));
        assertEquals(0x01020304L, ((ComStmtExecute) CommandDecoder.decode(payload)).statementId());
        assertArrayEquals(LONG_VAR_STRING, ComStmtExecute.types(payload, 2)); // nothing else moved
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"COM_STMT_FETCH, 1c 07000000 64000000", "COM_STMT_RESET, 1a 07000000",
            "COM_STMT_CLOSE, 19 07000000", "COM_STMT_SEND_LONG_DATA, 18 07000000 0000 6869"})
    void rewritesTheStatementIdOfEveryStatementCommand(String type, String hex) {
        ByteBuf payload = buf(hex);

        ComStmtExecute.statementId(payload, 0xFFFFFFFEL);

        assertEquals(type, CommandDecoder.decode(payload).type().name());
        assertEquals(0xFFFFFFFEL, payload.getUnsignedIntLE(1));
        byte[] sent = hex(hex);
        assertArrayEquals(Arrays.copyOfRange(sent, 5, sent.length), ByteBufUtil.getBytes(payload, 5, sent.length - 5));
    }

    @Test
    void rewritesRelativeToTheReaderIndex() {
        ByteBuf frame = Unpooled.wrappedBuffer(Wire.concat(hex("0a 00 00 00  # header"), hex("19 07000000")));
        frame.skipBytes(4);

        ComStmtExecute.statementId(frame, 8);

        assertEquals("0a 00 00 00 19 08 00 00 00", Wire.hex(ByteBufUtil.getBytes(frame, 0, 9)));
    }

    @Test
    void addsTheTypesAnExecuteReused() {
        ByteBuf reused = buf(WITHOUT_TYPES);

        ByteBuf rebuilt = ComStmtExecute.withTypes(reused, 2, LONG_VAR_STRING);
        try {
            assertEquals(Wire.hex(hex(WITH_TYPES)), Wire.hex(ByteBufUtil.getBytes(rebuilt)));
            assertEquals(1, reused.refCnt()); // the caller's to release
        } finally {
            rebuilt.release();
        }
    }

    @Test
    void withTypesRoundTripsThroughTheDecoder() {
        ComStmtExecute reused = (ComStmtExecute) CommandDecoder.decode(buf(WITHOUT_TYPES));

        ByteBuf rebuilt = reused.withTypes(2, LONG_VAR_STRING);
        try {
            ComStmtExecute decoded = (ComStmtExecute) CommandDecoder.decode(rebuilt);
            assertEquals(reused.statementId(), decoded.statementId());
            assertEquals(reused.flags(), decoded.flags());
            assertEquals(reused.iterationCount(), decoded.iterationCount());
            assertArrayEquals(LONG_VAR_STRING, decoded.types(2));
        } finally {
            rebuilt.release();
        }
    }

    @Test
    void withTypesCopiesOnlyTheReadablePayload() {
        ByteBuf frame = Unpooled.wrappedBuffer(Wire.concat(hex("13 00 00 00  # header"), hex(WITHOUT_TYPES)));
        frame.skipBytes(4);

        ByteBuf rebuilt = ComStmtExecute.withTypes(frame, 2, LONG_VAR_STRING);
        try {
            assertEquals(Wire.hex(hex(WITH_TYPES)), Wire.hex(ByteBufUtil.getBytes(rebuilt)));
        } finally {
            rebuilt.release();
        }
    }

    @Test
    void withTypesOfAnExecuteWithoutParameterBlockIsMalformed() {
        MySQLException e = assertThrows(MySQLException.class,
                () -> ComStmtExecute.withTypes(buf("17 07000000 00 01000000 00"), 2, LONG_VAR_STRING));

        assertEquals(ErrorCode.MALFORMED_PACKET.code(), e.packet().errorCode());
    }

    @ParameterizedTest(name = "flags 0x{0}: cursor {1}")
    @CsvSource({"00, false", "01, true", "02, true", "04, true", "08, false"})
    void cursorFlags(String flags, boolean cursor) {
        ComStmtExecute execute = (ComStmtExecute) CommandDecoder.decode(buf("17 07000000 " + flags + " 01000000"));

        assertEquals(Integer.parseInt(flags, 16), execute.flags());
        assertEquals(cursor, execute.opensCursor());
    }
}
