package io.strata.backend.relay;

import static io.strata.protocol.ServerStatus.AUTOCOMMIT;
import static io.strata.protocol.ServerStatus.IN_TRANS;
import static io.strata.protocol.ServerStatus.MORE_RESULTS_EXISTS;
import static io.strata.protocol.Wire.written;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.protocol.EofPacket;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketFrameDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseParserTest {

    private static final int MAX = PacketFrameDecoder.MAX_PAYLOAD;
    private static final ErrPacket NO_SUCH_TABLE = new ErrPacket(1146, "42S02", "Table 'test.nope' doesn't exist");

    // ---- payloads, as a server writes them ----

    private static byte[] ok(long affectedRows, long lastInsertId, int status, int warnings) {
        return written(new OkPacket(affectedRows, lastInsertId, status, warnings)::encode);
    }

    /** The OK packet with a 0xFE header that ends a result set for CLIENT_DEPRECATE_EOF connections. */
    private static byte[] okEof(int status, int warnings) {
        return written(new OkPacket(OkPacket.EOF_HEADER, 0, 0, status, warnings, "")::encode);
    }

    private static byte[] eof(int status, int warnings) {
        return written(new EofPacket(warnings, status)::encode);
    }

    private static byte[] err(ErrPacket err) {
        return written(err::encode);
    }

    private static byte[] columnCount(int count) {
        return written(out -> MySQLBuf.writeIntLenenc(out, count));
    }

    /** Protocol::ColumnDefinition41 of a VARCHAR column of table test.t. */
    private static byte[] column(String name) {
        return written(out -> {
            MySQLBuf.writeStringLenenc(out, "def");
            MySQLBuf.writeStringLenenc(out, "test");
            MySQLBuf.writeStringLenenc(out, "t");
            MySQLBuf.writeStringLenenc(out, "t");
            MySQLBuf.writeStringLenenc(out, name);
            MySQLBuf.writeStringLenenc(out, name);
            MySQLBuf.writeIntLenenc(out, 0x0c);
            MySQLBuf.writeInt2(out, 45);
            MySQLBuf.writeInt4(out, 400);
            MySQLBuf.writeInt1(out, 0xFD);
            MySQLBuf.writeInt2(out, 0);
            MySQLBuf.writeInt1(out, 0);
            MySQLBuf.writeInt2(out, 0);
        });
    }

    /** A text protocol row; null is SQL NULL. */
    private static byte[] row(String... values) {
        return written(out -> {
            for (String value : values) {
                if (value == null) {
                    out.writeByte(0xFB);
                } else {
                    MySQLBuf.writeStringLenenc(out, value);
                }
            }
        });
    }

    /** The text result set of {@code SELECT id, name FROM t} with three rows, in either framing. */
    private static List<byte[]> threeRows(boolean deprecateEof, int endStatus) {
        List<byte[]> payloads = new ArrayList<>(List.of(columnCount(2), column("id"), column("name")));
        if (!deprecateEof) {
            payloads.add(eof(AUTOCOMMIT, 0));
        }
        payloads.addAll(List.of(row("1", "a"), row("2", null), row("3", "c")));
        payloads.add(deprecateEof ? okEof(endStatus, 1) : eof(endStatus, 1));
        return payloads;
    }

    private static List<byte[]> concat(List<byte[]> first, List<byte[]> second) {
        List<byte[]> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    // ---- feeding ----

    /**
     * Gives the parser one physical packet per payload, sequence ids 1, 2, 3..., each sitting inside a bigger buffer
     * as packets do in a read; stops when the parser says the response is complete.
     *
     * @return how many packets the response took, or -1 if it never ended
     */
    private static int packetsUntilEnd(ResponseParser parser, List<byte[]> payloads) {
        for (int i = 0; i < payloads.size(); i++) {
            byte[] payload = payloads.get(i);
            ByteBuf read = Unpooled.buffer().writeBytes(new byte[]{0x7F, 0x7F})
                    .writeMediumLE(payload.length).writeByte(i + 1).writeBytes(payload).writeByte(0x7F);
            ByteBuf packet = read.slice(2, PacketFrameDecoder.HEADER_SIZE + payload.length);
            try {
                boolean complete = parser.accept(packet);
                assertEquals(0, packet.readerIndex(), "the packet is left untouched for relaying");
                assertEquals(PacketFrameDecoder.HEADER_SIZE + payload.length, packet.readableBytes());
                if (complete) {
                    return i + 1;
                }
            } finally {
                read.release();
            }
        }
        return -1;
    }

    private static int packetsUntilEnd(ResponseParser parser, byte[]... payloads) {
        return packetsUntilEnd(parser, List.of(payloads));
    }

    private static ResponseParser query(boolean deprecateEof) {
        return new ResponseParser(ResponseKind.QUERY, deprecateEof);
    }

    // ---- COM_QUERY ----

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aLoneOkEndsTheResponse(boolean deprecateEof) {
        var parser = query(deprecateEof);

        assertEquals(1, packetsUntilEnd(parser, ok(1, 42, AUTOCOMMIT | IN_TRANS, 2)));

        assertEquals(new ResponseSummary(AUTOCOMMIT | IN_TRANS, 2, 1, 42, null, 1, 1, ResponseSummary.UNCHANGED),
                parser.summary());
        assertFalse(parser.summary().failed());
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aLoneErrEndsTheResponseWithoutStatus(boolean deprecateEof) {
        var parser = query(deprecateEof);

        assertEquals(1, packetsUntilEnd(parser, err(NO_SUCH_TABLE)));

        ResponseSummary summary = parser.summary();
        assertEquals(-1, summary.statusFlags(), "a lone ERR leaves the session status unchanged");
        assertEquals(NO_SUCH_TABLE, summary.error());
        assertEquals(1146, summary.error().errorCode());
        assertEquals("42S02", summary.error().sqlState());
        assertEquals("Table 'test.nope' doesn't exist", summary.error().message());
        assertTrue(summary.failed());
        assertEquals(1, summary.lastSequenceId());
    }

    @Test
    void aResultSetWithEofPacketsEndsAtTheSecondEof() {
        var parser = query(false);
        List<byte[]> response = threeRows(false, AUTOCOMMIT | IN_TRANS);

        assertEquals(8, response.size(), "count, 2 columns, EOF, 3 rows, EOF");
        assertEquals(8, packetsUntilEnd(parser, response));

        ResponseSummary summary = parser.summary();
        assertEquals(AUTOCOMMIT | IN_TRANS, summary.statusFlags());
        assertEquals(1, summary.warnings());
        assertNull(summary.error());
        assertEquals(8, summary.lastSequenceId());
    }

    @Test
    void aResultSetForDeprecateEofEndsAtTheOkWithTheEofHeader() {
        var parser = query(true);
        List<byte[]> response = threeRows(true, AUTOCOMMIT | IN_TRANS);

        assertEquals(7, response.size(), "count, 2 columns, 3 rows, OK");
        assertEquals(7, packetsUntilEnd(parser, response));

        ResponseSummary summary = parser.summary();
        assertEquals(AUTOCOMMIT | IN_TRANS, summary.statusFlags());
        assertEquals(1, summary.warnings());
        assertNull(summary.error());
        assertEquals(7, summary.lastSequenceId());
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void anOkWithMoreResultsIsFollowedByAResultSet(boolean deprecateEof) {
        var parser = query(deprecateEof);
        // "insert into t values (4, 'd'); select id, name from t"
        List<byte[]> response = concat(List.of(ok(1, 4, AUTOCOMMIT | MORE_RESULTS_EXISTS, 0)),
                threeRows(deprecateEof, AUTOCOMMIT));

        assertEquals(response.size(), packetsUntilEnd(parser, response));

        assertEquals(AUTOCOMMIT, parser.summary().statusFlags());
        assertEquals(response.size(), parser.summary().lastSequenceId());
        assertEquals(4, parser.summary().lastInsertId(), "the insert's: the select after it leaves LAST_INSERT_ID()");
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aProcedureCallEndsWithTheOkAfterItsResultSets(boolean deprecateEof) {
        var parser = query(deprecateEof);
        // "call p()": two result sets, then the OK of the call itself
        List<byte[]> response = concat(concat(threeRows(deprecateEof, AUTOCOMMIT | MORE_RESULTS_EXISTS),
                threeRows(deprecateEof, AUTOCOMMIT | MORE_RESULTS_EXISTS)), List.of(ok(3, 0, AUTOCOMMIT, 0)));

        assertEquals(response.size(), packetsUntilEnd(parser, response));

        ResponseSummary summary = parser.summary();
        assertEquals(AUTOCOMMIT, summary.statusFlags());
        assertEquals(3, summary.affectedRows());
        assertEquals(response.size(), summary.lastSequenceId());
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void anErrorAfterAnOkWithMoreResultsEndsTheResponse(boolean deprecateEof) {
        var parser = query(deprecateEof);

        assertEquals(2, packetsUntilEnd(parser, ok(1, 0, AUTOCOMMIT | MORE_RESULTS_EXISTS, 0), err(NO_SUCH_TABLE)));

        assertEquals(NO_SUCH_TABLE, parser.summary().error());
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void anErrorBetweenRowsEndsTheResultSet(boolean deprecateEof) {
        var parser = query(deprecateEof);
        // e.g. the query was killed while rows were being sent
        List<byte[]> response = new ArrayList<>(threeRows(deprecateEof, AUTOCOMMIT));
        int lastRow = response.size() - 2;
        response.set(lastRow, err(new ErrPacket(1317, "70100", "Query execution was interrupted")));
        response.remove(response.size() - 1);

        assertEquals(response.size(), packetsUntilEnd(parser, response));

        ResponseSummary summary = parser.summary();
        assertEquals(1317, summary.error().errorCode());
        assertEquals(-1, summary.statusFlags());
        assertEquals(response.size(), summary.lastSequenceId());
    }

    /**
     * A row whose first column is 16 MiB long starts with 0xFE (the lenenc prefix of an 8-byte length) and takes a
     * full packet plus a continuation; the continuation here looks like an EOF, ERR or OK packet.
     */
    private static List<byte[]> longRow(int continuationFirstByte) {
        byte[] first = new byte[MAX];
        Arrays.fill(first, (byte) 'x');
        first[0] = (byte) 0xFE;
        System.arraycopy(new byte[]{0, 0, 0, 1, 0, 0, 0, 0}, 0, first, 1, 8); // length 0x1000000
        byte[] continuation = {(byte) continuationFirstByte, 0, 0, 2, 0, 0, 0, 0, 0, 0};
        assertEquals(9 + 0x1000000, first.length + continuation.length);
        return List.of(first, continuation);
    }

    @ParameterizedTest(name = "continuation starting with 0x{0}, deprecateEof={1}")
    @CsvSource({"FE, false", "FE, true", "FF, false", "FF, true", "00, false",
            "00, true"})
    void aLongRowStartingWith0xFeDoesNotEndTheResultSet(String continuationFirstByte, boolean deprecateEof) {
        var parser = query(deprecateEof);
        List<byte[]> response = new ArrayList<>(List.of(columnCount(1), column("doc")));
        if (!deprecateEof) {
            response.add(eof(AUTOCOMMIT, 0));
        }
        response.addAll(longRow(Integer.parseInt(continuationFirstByte, 16)));
        response.add(row("short"));
        response.add(deprecateEof ? okEof(AUTOCOMMIT, 0) : eof(AUTOCOMMIT, 0));

        assertEquals(response.size(), packetsUntilEnd(parser, response));

        assertNull(parser.summary().error());
        assertEquals(AUTOCOMMIT, parser.summary().statusFlags());
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aRowOfExactly0xFFFFFFBytesIsFollowedByAnEmptyContinuation(boolean deprecateEof) {
        var parser = query(deprecateEof);
        byte[] row = new byte[MAX];
        row[0] = (byte) 0xFD; // lenenc prefix of a 3-byte length
        row[1] = (byte) 0xFB;
        row[2] = (byte) 0xFF;
        row[3] = (byte) 0xFF; // 0xFFFFFB bytes follow: MAX - 4
        List<byte[]> response = new ArrayList<>(List.of(columnCount(1), column("doc")));
        if (!deprecateEof) {
            response.add(eof(AUTOCOMMIT, 0));
        }
        response.addAll(List.of(row, new byte[0], row("next")));
        response.add(deprecateEof ? okEof(AUTOCOMMIT, 0) : eof(AUTOCOMMIT, 0));

        assertEquals(response.size(), packetsUntilEnd(parser, response));
    }

    @Test
    void aRowThatIsAlsoTheNullOfOneColumnIsNotAnEnd() {
        // "select null": the row is the single byte 0xFB, the column-count packet is 0x01.
        var parser = query(true);

        assertEquals(4, packetsUntilEnd(parser, columnCount(1), column("NULL"), row((String) null),
                okEof(AUTOCOMMIT, 0)));
    }

    @Test
    void aPacketAfterTheEndIsRefused() {
        var parser = query(false);
        packetsUntilEnd(parser, ok(0, 0, AUTOCOMMIT, 0));

        assertThrows(IllegalStateException.class, () -> packetsUntilEnd(parser, ok(0, 0, AUTOCOMMIT, 0)));
    }

    // ---- COM_FIELD_LIST ----

    @Test
    void aFieldListEndsAtTheEofAfterItsColumns() {
        var parser = new ResponseParser(ResponseKind.FIELD_LIST, false);

        assertEquals(3, packetsUntilEnd(parser, column("id"), column("name"), eof(AUTOCOMMIT, 0)));

        assertEquals(AUTOCOMMIT, parser.summary().statusFlags());
        assertEquals(3, parser.summary().lastSequenceId());
    }

    @Test
    void aFieldListForDeprecateEofEndsAtTheOkWithTheEofHeader() {
        var parser = new ResponseParser(ResponseKind.FIELD_LIST, true);

        assertEquals(3, packetsUntilEnd(parser, column("id"), column("name"), okEof(AUTOCOMMIT | IN_TRANS, 0)));

        assertEquals(AUTOCOMMIT | IN_TRANS, parser.summary().statusFlags());
    }

    @Test
    void aFieldListOfAnEmptyTableIsJustTheEof() {
        var parser = new ResponseParser(ResponseKind.FIELD_LIST, false);

        assertEquals(1, packetsUntilEnd(parser, eof(AUTOCOMMIT, 0)));
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aFieldListOfAMissingTableIsAnErr(boolean deprecateEof) {
        var parser = new ResponseParser(ResponseKind.FIELD_LIST, deprecateEof);

        assertEquals(1, packetsUntilEnd(parser, err(NO_SUCH_TABLE)));

        assertEquals(NO_SUCH_TABLE, parser.summary().error());
    }

    // ---- what ROW_COUNT() and FOUND_ROWS() read afterwards ----

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aResultSetCountsItsRowsAndLeavesNoRowCount(boolean deprecateEof) {
        var parser = query(deprecateEof);

        packetsUntilEnd(parser, threeRows(deprecateEof, AUTOCOMMIT));

        assertEquals(-1, parser.summary().rowCount());
        assertEquals(3, parser.summary().foundRows());
    }

    @Test
    void anOkGivesItsAffectedRowsAndLeavesFoundRows() {
        var parser = query(false);

        packetsUntilEnd(parser, ok(5, 0, AUTOCOMMIT, 0));

        assertEquals(5, parser.summary().rowCount());
        assertEquals(ResponseSummary.UNCHANGED, parser.summary().foundRows());
    }

    @Test
    void anErrorLeavesNoRowCount() {
        var parser = query(false);

        packetsUntilEnd(parser, err(NO_SUCH_TABLE));

        assertEquals(-1, parser.summary().rowCount());
        assertEquals(ResponseSummary.UNCHANGED, parser.summary().foundRows());
    }

    @Test
    void ofSeveralResultsTheLastCounts() {
        var parser = query(false);

        packetsUntilEnd(parser, concat(threeRows(false, AUTOCOMMIT | MORE_RESULTS_EXISTS),
                List.of(ok(2, 0, AUTOCOMMIT, 0))));

        assertEquals(2, parser.summary().rowCount(), "the insert after the select");
        assertEquals(3, parser.summary().foundRows(), "the select's rows: an insert does not change them");
    }

    @Test
    void fetchedRowsCountNothing() {
        var parser = new ResponseParser(ResponseKind.FETCH, false);

        packetsUntilEnd(parser, row("1", "a"), row("2", "b"), eof(AUTOCOMMIT, 0));

        assertEquals(ResponseSummary.UNCHANGED, parser.summary().rowCount());
        assertEquals(ResponseSummary.UNCHANGED, parser.summary().foundRows());
    }

    // ---- COM_PING, COM_INIT_DB, COM_RESET_CONNECTION, COM_SET_OPTION ----

    @Test
    void aStatusResponseIsOneOk() {
        var parser = new ResponseParser(ResponseKind.STATUS, false);

        assertEquals(1, packetsUntilEnd(parser, ok(0, 0, AUTOCOMMIT, 0)));

        assertEquals(new ResponseSummary(AUTOCOMMIT, 0, 0, 0, null, 1, ResponseSummary.UNCHANGED,
                ResponseSummary.UNCHANGED), parser.summary());
    }

    @Test
    void aStatusResponseIsOneErr() {
        var parser = new ResponseParser(ResponseKind.STATUS, false);
        var unknownDatabase = new ErrPacket(1049, "42000", "Unknown database 'nope'");

        assertEquals(1, packetsUntilEnd(parser, err(unknownDatabase)));

        assertEquals(unknownDatabase, parser.summary().error());
        assertEquals(-1, parser.summary().statusFlags());
    }

    @Test
    void aStatusResponseIsOneEof() {
        // COM_SET_OPTION answers with an EOF packet.
        var parser = new ResponseParser(ResponseKind.STATUS, false);

        assertEquals(1, packetsUntilEnd(parser, eof(AUTOCOMMIT | IN_TRANS, 0)));

        assertEquals(AUTOCOMMIT | IN_TRANS, parser.summary().statusFlags());
    }

    @Test
    void aStatusResponseForDeprecateEofIsAnOkWithTheEofHeader() {
        var parser = new ResponseParser(ResponseKind.STATUS, true);

        assertEquals(1, packetsUntilEnd(parser, okEof(AUTOCOMMIT, 0)));

        assertEquals(AUTOCOMMIT, parser.summary().statusFlags());
    }

    @Test
    void moreResultsInAStatusResponseDoNotMeanMorePackets() {
        var parser = new ResponseParser(ResponseKind.STATUS, false);

        assertEquals(1, packetsUntilEnd(parser, ok(0, 0, AUTOCOMMIT | MORE_RESULTS_EXISTS, 0)));
    }

    // ---- COM_STATISTICS ----

    @Test
    void aSinglePacketResponseEndsAtItsOnlyPacket() {
        var parser = new ResponseParser(ResponseKind.SINGLE_PACKET, false);
        byte[] statistics = written(out -> MySQLBuf.writeStringEof(out,
                "Uptime: 42  Threads: 1  Questions: 7  Slow queries: 0  Opens: 17  Open tables: 10"));

        assertEquals(1, packetsUntilEnd(parser, statistics));

        assertEquals(-1, parser.summary().statusFlags());
        assertNull(parser.summary().error());
        assertEquals(1, parser.summary().lastSequenceId());
    }

    // ---- LOAD DATA LOCAL INFILE ----

    private static byte[] localInfileRequest(String file) {
        return written(out -> out.writeByte(0xFB).writeBytes(file.getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean acceptOne(ResponseParser parser, byte[] payload, int sequenceId) {
        ByteBuf packet = Unpooled.buffer().writeMediumLE(payload.length).writeByte(sequenceId).writeBytes(payload);
        try {
            return parser.accept(packet);
        } finally {
            packet.release();
        }
    }

    @Test
    void aLocalInfileRequestWaitsForTheClientsFileThenTheOk() {
        ResponseParser parser = query(true);
        assertFalse(acceptOne(parser, localInfileRequest("/tmp/data.csv"), 1));
        assertTrue(parser.localInfileRequested(), "the client's file goes next");
        // the client sent its file in packets 2..4, the last one empty; the server answers after them
        assertTrue(acceptOne(parser, ok(3, 0, AUTOCOMMIT, 0), 5));
        assertFalse(parser.localInfileRequested());
        ResponseSummary summary = parser.summary();
        assertFalse(summary.failed());
        assertEquals(3, summary.affectedRows());
        assertEquals(5, summary.lastSequenceId());
    }

    @Test
    void aLocalInfileThatTheServerRefusesAfterTheFileEndsWithItsError() {
        ResponseParser parser = query(false);
        assertFalse(acceptOne(parser, localInfileRequest("data.csv"), 1));
        assertTrue(acceptOne(parser, err(NO_SUCH_TABLE), 3));
        assertEquals(NO_SUCH_TABLE, parser.summary().error());
    }

    @Test
    void aLocalInfileRequestIsABrokenResponseToAnythingButAQuery() {
        for (ResponseKind kind : List.of(ResponseKind.PREPARE, ResponseKind.STATUS)) {
            ResponseParser parser = new ResponseParser(kind, true);
            assertThrows(IllegalStateException.class, () -> acceptOne(parser, localInfileRequest("x"), 1),
                    kind.toString());
        }
    }
}
