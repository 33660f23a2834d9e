package io.strata.protocol.command;

import static io.strata.protocol.Wire.buf;
import static io.strata.protocol.Wire.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.strata.backend.connection.StateSync;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.protocol.Scramble;
import io.strata.protocol.Wire;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class CommandDecoderTest {

    private static final byte[] NONCE = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);

    static final String QUERY = """
            03                  # COM_QUERY
            53 45 4c 45 43 54 20 40 40 76 65 72 73 69 6f 6e 5f 63 6f 6d 6d 65 6e 74 20 4c 49 4d 49 54 20 31
                                # "SELECT @@version_comment LIMIT 1", as the mysql client sends it on connecting
            """;

    /**
     * COM_CHANGE_USER as MariaDB Connector/Node.js sends it (MariaDB Connector/J sends none: it resets connections
     * with COM_RESET_CONNECTION), with a database, a plugin name and its connection attributes.
     */
    static final String CHANGE_USER = """
            11                  # COM_CHANGE_USER
            61 70 70 00         # user "app"
            14                  # auth response length 20
            88 17 c5 0f a7 79 da ef 01 0e e7 57 78 25 b0 84 7d f9 84 2e
                                # mysql_native_password scramble of "secret" with nonce "abcdefghijklmnopqrst"
            6f 72 64 65 72 73 00
                                # database "orders"
            e0 00               # character set 224, utf8mb4_unicode_ci (the connector's default)
            6d 79 73 71 6c 5f 6e 61 74 69 76 65 5f 70 61 73 73 77 6f 72 64 00
                                # auth plugin "mysql_native_password"
            fc 50 00            # attributes: 80 bytes (lenenc, always 0xFC + int<2> from this connector)
            0c 5f 63 6c 69 65 6e 74 5f 6e 61 6d 65
                                #   "_client_name"
            16 4d 61 72 69 61 44 42 20 63 6f 6e 6e 65 63 74 6f 72 2f 4e 6f 64 65
                                #   "MariaDB connector/Node"
            0f 5f 63 6c 69 65 6e 74 5f 76 65 72 73 69 6f 6e
                                #   "_client_version"
            05 33 2e 34 2e 35   #   "3.4.5"
            0d 5f 6e 6f 64 65 5f 76 65 72 73 69 6f 6e
                                #   "_node_version"
            07 32 32 2e 31 32 2e 30
                                #   "22.12.0"
            """;

    static final String PREPARE = """
            16                  # COM_STMT_PREPARE
            53 45 4c 45 43 54 20 2a 20 46 52 4f 4d 20 75 73 65 72 73 20 57 48 45 52 45 20 69 64 20 3d 20 3f
            20 41 4e 44 20 6e 61 6d 65 20 3d 20 3f
                                # "SELECT * FROM users WHERE id = ? AND name = ?"
            """;

    /** The execute of {@link #PREPARE} binding 42 and NULL, types sent (a statement's first execute). */
    static final String EXECUTE = """
            17                  # COM_STMT_EXECUTE
            01 00 00 00         # statement id 1
            00                  # flags: CURSOR_TYPE_NO_CURSOR
            01 00 00 00         # iteration count 1
            02                  # null bitmap: parameter 1 (the second) is NULL
            01                  # new-params-bound: types follow
            03 00               #   parameter 0: LONG, signed
            fd 00               #   parameter 1: VAR_STRING
            2a 00 00 00         # parameter 0: 42 (parameter 1 has no value: NULL)
            """;

    static final String FETCH = """
            1c                  # COM_STMT_FETCH
            01 00 00 00         # statement id 1
            64 00 00 00         # 100 rows
            """;

    static final String SEND_LONG_DATA = """
            18                  # COM_STMT_SEND_LONG_DATA
            02 00 00 00         # statement id 2
            01 00               # parameter 1
            3c 70 3e 68 69 3c 2f 70 3e
                                # data "<p>hi</p>", the rest of the packet
            """;

    @Test
    void comQueryKeepsThePayloadAndDecodesTheText() {
        ByteBuf payload = buf(QUERY);

        ComQuery query = assertInstanceOf(ComQuery.class, CommandDecoder.decode(payload));

        assertEquals("SELECT @@version_comment LIMIT 1", query.sql());
        assertEquals(CommandType.COM_QUERY, query.type());
        assertEquals(ByteBufUtil.hexDump(payload), ByteBufUtil.hexDump(query.payload()));
        assertEquals(0, payload.readerIndex()); // the frame's indices stay where they were
    }

    @Test
    void comQueryTextIsUtf8() {
        ComQuery query = (ComQuery) CommandDecoder.decode(buf("03 53 45 4c 45 43 54 20 27 63 61 66 c3 a9 27"));

        assertEquals("SELECT 'caf\u00e9'", query.sql());
    }

    @Test
    void emptyComQueryHasEmptyText() {
        assertEquals("", ((ComQuery) CommandDecoder.decode(buf("03"))).sql());
    }

    @Test
    void comInitDb() {
        ComInitDb initDb = (ComInitDb) CommandDecoder.decode(buf("""
                02                      # COM_INIT_DB
                62 c3 bc 63 68 65 72    # "bücher" in UTF-8
                """));

        assertEquals(new ComInitDb("b\u00fccher"), initDb);
        assertEquals(CommandType.COM_INIT_DB, initDb.type());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"COM_PING, 0e", "COM_QUIT, 01", "COM_RESET_CONNECTION, 1f"})
    void commandsWithoutArguments(CommandType type, String hex) {
        ClientCommand command = CommandDecoder.decode(buf(hex));

        assertEquals(type, command.type());
        assertSame(command, CommandDecoder.decode(buf(hex))); // one instance each: nothing to allocate
    }

    @Test
    void comFieldListIsKeptWhole() {
        ByteBuf payload = buf("""
                04                  # COM_FIELD_LIST
                75 73 65 72 73 00   # table "users"
                25                  # field wildcard "%"
                """);

        ComFieldList fieldList = (ComFieldList) CommandDecoder.decode(payload);

        assertEquals("04 75 73 65 72 73 00 25".replace(" ", ""), ByteBufUtil.hexDump(fieldList.payload()));
    }

    @Test
    void comStatisticsIsKeptWhole() {
        ComStatistics statistics = (ComStatistics) CommandDecoder.decode(buf("09"));

        assertEquals("09", ByteBufUtil.hexDump(statistics.payload()));
    }

    @Test
    void comChangeUserAsAConnectorSendsIt() {
        ComChangeUser change = (ComChangeUser) CommandDecoder.decode(buf(CHANGE_USER));

        assertEquals("app", change.user());
        assertArrayEquals(Scramble.nativePassword("secret", NONCE), change.authResponse());
        assertEquals("orders", change.database());
        assertEquals(224, change.characterSet());
        assertEquals(Scramble.NATIVE_PASSWORD, change.authPluginName());
    }

    @Test
    void comChangeUserFromAnOldClientStopsAfterTheDatabase() {
        ComChangeUser change = (ComChangeUser) CommandDecoder.decode(buf("""
                11                  # COM_CHANGE_USER
                61 70 70 00         # user "app"
                00                  # auth response length 0: empty password
                00                  # database "" (none)
                """));

        assertEquals("app", change.user());
        assertArrayEquals(new byte[0], change.authResponse());
        assertNull(change.database());
        assertEquals(ComChangeUser.DEFAULT_CHARACTER_SET, change.characterSet());
        assertNull(change.authPluginName());
    }

    @Test
    void comChangeUserWithoutDatabase() {
        ComChangeUser change = (ComChangeUser) CommandDecoder.decode(buf("11 61 70 70 00 00"));

        assertNull(change.database());
        assertEquals(45, change.characterSet());
    }

    @Test
    void comSetOption() {
        assertEquals(new ComSetOption(ComSetOption.MULTI_STATEMENTS_ON), CommandDecoder.decode(buf("""
                1b                  # COM_SET_OPTION
                00 00               # MYSQL_OPTION_MULTI_STATEMENTS_ON
                """)));
        assertEquals(new ComSetOption(ComSetOption.MULTI_STATEMENTS_OFF), CommandDecoder.decode(buf("1b 01 00")));
    }

    @Test
    void comProcessKillReadsAnUnsignedId() {
        assertEquals(new ComProcessKill(7), CommandDecoder.decode(buf("""
                0c                  # COM_PROCESS_KILL
                07 00 00 00         # connection id 7
                """)));
        assertEquals(new ComProcessKill(0xFFFFFFFEL), CommandDecoder.decode(buf("0c fe ff ff ff")));
    }

    @Test
    void comStmtPrepareKeepsTheClientsBytesOneCharPerByte() {
        ComStmtPrepare prepare = (ComStmtPrepare) CommandDecoder.decode(buf(PREPARE));

        assertEquals("SELECT * FROM users WHERE id = ? AND name = ?", prepare.sql());
        assertTrue(prepare.ascii());
        assertSame(prepare.sql(), prepare.sqlAsUtf8());
        // interned: another session's prepare of the same text holds the same String
        assertSame(prepare.sql(), ((ComStmtPrepare) CommandDecoder.decode(buf(PREPARE))).sql());
    }

    @Test
    void comStmtPrepareOfUtf8TextIsDecodedAgainForTheRules() {
        ComStmtPrepare prepare = (ComStmtPrepare) CommandDecoder.decode(buf("""
                16                          # COM_STMT_PREPARE
                53 45 4c 45 43 54 20 27 63 61 66 c3 a9 27
                                            # "SELECT 'café'" in UTF-8: é is c3 a9
                """));

        assertFalse(prepare.ascii());
        assertEquals("SELECT 'caf\u00c3\u00a9'", prepare.sql()); // one char per byte
        assertEquals("SELECT 'caf\u00e9'", prepare.sqlAsUtf8());
    }

    @Test
    void latin1TextsThatUtf8CannotTellApartStayApart() {
        ComStmtPrepare eAcute = (ComStmtPrepare) CommandDecoder.decode(buf("16 27 e9 27")); // latin1 'é'
        ComStmtPrepare eGrave = (ComStmtPrepare) CommandDecoder.decode(buf("16 27 e8 27")); // latin1 'è'

        assertNotEquals(eAcute.sql(), eGrave.sql());
        assertEquals(eAcute.sqlAsUtf8(), eGrave.sqlAsUtf8()); // both '\uFFFD' as UTF-8
    }

    @Test
    void comStmtExecuteReadsItsHeader() {
        ComStmtExecute execute = (ComStmtExecute) CommandDecoder.decode(buf(EXECUTE));

        assertEquals(1, execute.statementId());
        assertEquals(ComStmtExecute.CURSOR_TYPE_NO_CURSOR, execute.flags());
        assertEquals(1, execute.iterationCount());
        assertFalse(execute.opensCursor());
        assertEquals(Wire.hex(hex(EXECUTE)), Wire.hex(ByteBufUtil.getBytes(execute.payload())));
    }

    @Test
    void comStmtExecuteOfTheStatementPreparedLast() {
        ComStmtExecute execute = (ComStmtExecute) CommandDecoder.decode(buf("""
                17                  # COM_STMT_EXECUTE
                ff ff ff ff         # statement id -1: MariaDB's "the statement prepared last"
                00 01 00 00 00      # flags 0, iteration count 1
                """));

        assertEquals(ComStmtExecute.LAST_PREPARED, execute.statementId());
    }

    @Test
    void comStmtFetch() {
        ComStmtFetch fetch = (ComStmtFetch) CommandDecoder.decode(buf(FETCH));

        assertEquals(1, fetch.statementId());
        assertEquals(100, fetch.numRows());
        assertEquals(9, fetch.payload().readableBytes());
    }

    @Test
    void comStmtResetAndClose() {
        ComStmtReset reset = (ComStmtReset) CommandDecoder.decode(buf("""
                1a                  # COM_STMT_RESET
                03 00 00 00         # statement id 3
                """));
        ComStmtClose close = (ComStmtClose) CommandDecoder.decode(buf("""
                19                  # COM_STMT_CLOSE
                04 00 00 80         # statement id 2^31 + 4: unsigned
                """));

        assertEquals(3, reset.statementId());
        assertEquals(0x80000004L, close.statementId());
        assertEquals(5, close.payload().readableBytes());
    }

    @Test
    void comStmtSendLongDataSlicesTheData() {
        ComStmtSendLongData longData = (ComStmtSendLongData) CommandDecoder.decode(buf(SEND_LONG_DATA));

        assertEquals(2, longData.statementId());
        assertEquals(1, longData.paramId());
        assertEquals("<p>hi</p>", longData.data().toString(StandardCharsets.UTF_8));
        assertEquals(16, longData.payload().readableBytes());
    }

    @Test
    void comStmtSendLongDataMayCarryNoData() {
        ComStmtSendLongData longData = (ComStmtSendLongData) CommandDecoder.decode(buf("18 02000000 0000"));

        assertFalse(longData.data().isReadable());
    }

    @ParameterizedTest(name = "0x{0}")
    @CsvSource({
            "00, COM_SLEEP, COM_SLEEP",
            "08, COM_SHUTDOWN, COM_SHUTDOWN",
            "12, COM_BINLOG_DUMP, COM_BINLOG_DUMP",
            "fa, UNKNOWN, 0xfa", // MariaDB's COM_STMT_BULK_EXECUTE, which Strata does not offer
            "ff, UNKNOWN, 0xff"})
    void commandsStrataDoesNotServeKeepTheirByte(String hex, CommandType type, String name) {
        UnknownCommand unknown = (UnknownCommand) CommandDecoder.decode(buf(hex + " 01 02 03"));

        assertEquals(Integer.parseInt(hex, 16), unknown.code());
        assertEquals(type, unknown.type());
        assertEquals(name, unknown.name());
    }

    @Test
    void anEmptyPacketIsMalformed() {
        MySQLException e = assertThrows(MySQLException.class, () -> CommandDecoder.decode(Unpooled.EMPTY_BUFFER));

        assertEquals(ErrorCode.MALFORMED_PACKET.code(), e.packet().errorCode());
        assertEquals("Malformed communication packet: empty command packet", e.packet().message());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "COM_PROCESS_KILL of 4 bytes is too short, 0c 07 00 00",
            "COM_SET_OPTION of 2 bytes is too short, 1b 00",
            "COM_STMT_EXECUTE of 9 bytes is too short, 17 01000000 00 010000",
            "COM_STMT_EXECUTE of 1 bytes is too short, 17",
            "COM_STMT_FETCH of 5 bytes is too short, 1c 01000000",
            "COM_STMT_RESET of 4 bytes is too short, 1a 010000",
            "COM_STMT_CLOSE of 1 bytes is too short, 19",
            "COM_STMT_SEND_LONG_DATA of 6 bytes is too short, 18 02000000 01",
            "COM_CHANGE_USER of 5 bytes is too short, 11 61 70 70 00",
            "COM_CHANGE_USER of 10 bytes is too short, 11 61 70 70 00 14 88 17 c5 0f"})
    void aCommandShorterThanItsTypeRequiresIsMalformed(String message, String hex) {
        MySQLException e = assertThrows(MySQLException.class, () -> CommandDecoder.decode(buf(hex)));

        assertEquals(ErrorCode.MALFORMED_PACKET.code(), e.packet().errorCode());
        assertEquals("HY000", e.packet().sqlState());
        assertEquals("Malformed communication packet: " + message, e.packet().message());
    }

    static Stream<Arguments> fixtures() {
        return Stream.of(argumentSet("COM_QUERY", QUERY), argumentSet("COM_CHANGE_USER", CHANGE_USER),
                argumentSet("COM_STMT_PREPARE", PREPARE), argumentSet("COM_STMT_EXECUTE", EXECUTE),
                argumentSet("COM_STMT_FETCH", FETCH), argumentSet("COM_STMT_SEND_LONG_DATA", SEND_LONG_DATA),
                argumentSet("COM_PROCESS_KILL", "0c 07000000"), argumentSet("COM_SET_OPTION", "1b 0100"),
                argumentSet("COM_STMT_RESET", "1a 03000000"), argumentSet("COM_STMT_CLOSE", "19 04000000"));
    }

    /** Cut anywhere, a command decodes (its optional fields absent) or is malformed; nothing else escapes. */
    @ParameterizedTest
    @MethodSource("fixtures")
    void everyTruncationDecodesOrIsMalformed(String fixture) {
        byte[] bytes = hex(fixture);
        for (int length = 1; length <= bytes.length; length++) {
            ByteBuf cut = Unpooled.wrappedBuffer(bytes, 0, length);
            try {
                assertEquals(bytes[0] & 0xFF, CommandDecoder.decode(cut).type().code());
            } catch (MySQLException e) {
                assertEquals(ErrorCode.MALFORMED_PACKET.code(), e.packet().errorCode(), "length " + length);
            }
        }
    }

    @Test
    void decodesAPayloadThatDoesNotStartAtIndexZero() {
        // a frame's payload is often a slice or has its header skipped: offsets count from the reader index
        ByteBuf frame = Unpooled.wrappedBuffer(Wire.concat(hex("09 00 00 00  # header: 9 bytes, sequence id 0"),
                hex(FETCH)));
        frame.skipBytes(4);

        ComStmtFetch fetch = (ComStmtFetch) CommandDecoder.decode(frame);

        assertEquals(1, fetch.statementId());
        assertEquals(100, fetch.numRows());
        assertEquals(0x1c, fetch.payload().getUnsignedByte(fetch.payload().readerIndex()));
        assertEquals(4, frame.readerIndex());
    }

    @Test
    void aRecordsPayloadSharesTheFramesBytesAndReferenceCount() {
        ByteBuf frame = buf(EXECUTE);

        ComStmtExecute execute = (ComStmtExecute) CommandDecoder.decode(frame);
        ComStmtExecute.statementId(execute.payload(), 9);

        assertEquals(9, ((ComStmtExecute) CommandDecoder.decode(frame)).statementId());
        assertEquals(1, frame.refCnt()); // not retained: the frame's owner releases it
        frame.release();
        assertEquals(0, execute.payload().refCnt());
    }

    @Test
    void roundTripsWhatStrataSendsBackends() {
        ByteBuf query = StateSync.command(UnpooledByteBufAllocator.DEFAULT, CommandType.COM_QUERY, "SET NAMES utf8mb4");
        ByteBuf initDb = StateSync.command(UnpooledByteBufAllocator.DEFAULT, CommandType.COM_INIT_DB, "b\u00fccher");

        assertEquals(new ComInitDb("b\u00fccher"), CommandDecoder.decode(initDb));
        assertEquals("SET NAMES utf8mb4", ((ComQuery) CommandDecoder.decode(query)).sql());
    }

    @Test
    void aPreparedTextIsSentAgainAsTheClientsBytes() {
        // "SELECT 'é'" from a latin1 client (e9) and a UTF-8 one (c3 a9): each prepared again byte for byte
        for (String client : new String[] {"16 53 45 4c 45 43 54 20 27 e9 27", "16 53 45 4c 45 43 54 20 27 c3 a9 27"}) {
            ComStmtPrepare prepare = (ComStmtPrepare) CommandDecoder.decode(buf(client));
            ByteBuf again = StateSync.command(UnpooledByteBufAllocator.DEFAULT, CommandType.COM_STMT_PREPARE,
                    prepare.sql(), StandardCharsets.ISO_8859_1);

            assertEquals(Wire.hex(hex(client)), Wire.hex(ByteBufUtil.getBytes(again)));
            assertEquals(prepare, CommandDecoder.decode(again));
        }
    }
}
