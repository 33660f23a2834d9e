package io.strata.backend.relay;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.EofPacket;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.ServerStatus;

/**
 * Follows the structure of one backend response packet by packet, just far enough to know where it ends and what
 * status it ends with; the packets themselves go to the {@link ResponseListener} untouched. This is the core of the
 * relay executor: nothing is decoded that is not needed for that decision (rows are never looked into), and the
 * packets are read in place by index, allocating nothing but the error of an ERR packet. One parser serves a
 * connection's responses one after another ({@link #reset}).
 *
 * <p>Not thread-safe: driven by the backend connection's event loop.
 */
public final class ResponseParser {

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS, DONE }

    private ResponseKind kind;
    private boolean deprecateEof;
    private State state;
    private long columnsLeft;
    private boolean continuation;
    private int statusFlags;
    private int warnings;
    private long affectedRows;
    private long lastInsertId;
    private ErrPacket error;
    private int lastSequenceId;
    private boolean localInfileRequested;
    private long rows;
    private long rowCount;
    private long foundRows;

    /** @param deprecateEof whether the backend connection was opened with CLIENT_DEPRECATE_EOF */
    public ResponseParser(ResponseKind kind, boolean deprecateEof) {
        reset(kind, deprecateEof);
    }

    /** Ready for the response to a new command. */
    public ResponseParser reset(ResponseKind kind, boolean deprecateEof) {
        this.kind = kind;
        this.deprecateEof = deprecateEof;
        this.state = switch (kind) {
            case FIELD_LIST -> State.COLUMNS;
            case FETCH -> State.ROWS;
            default -> State.FIRST;
        };
        this.columnsLeft = Long.MAX_VALUE;
        this.continuation = false;
        this.statusFlags = -1;
        this.warnings = 0;
        this.affectedRows = 0;
        this.lastInsertId = 0;
        this.error = null;
        this.lastSequenceId = -1;
        this.localInfileRequested = false;
        this.rowCount = ResponseSummary.UNCHANGED;
        this.foundRows = ResponseSummary.UNCHANGED;
        return this;
    }

    /**
     * Looks at one physical packet (header included, reader index untouched) and returns whether the response is
     * complete with it.
     */
    public boolean accept(ByteBuf packet) {
        return accept(packet, packet.readerIndex());
    }

    /** As {@link #accept(ByteBuf)}, for the physical packet whose header starts at {@code start} in {@code packet}. */
    public boolean accept(ByteBuf packet, int start) {
        localInfileRequested = false;
        int length = packet.getUnsignedMediumLE(start);
        lastSequenceId = packet.getUnsignedByte(start + 3);
        boolean wasContinuation = continuation;
        continuation = length == PacketFrameDecoder.MAX_PAYLOAD;
        if (wasContinuation) {
            return false;
        }
        int payload = start + PacketFrameDecoder.HEADER_SIZE;
        return switch (state) {
            case FIRST -> first(packet, payload, length);
            case COLUMNS -> column(packet, payload, length);
            case COLUMNS_EOF -> columnsEof(packet, payload);
            case ROWS -> row(packet, payload, length);
            case DONE -> throw new IllegalStateException("packet after the end of the response");
        };
    }

    public ResponseSummary summary() {
        return new ResponseSummary(statusFlags, warnings, affectedRows, lastInsertId, error, lastSequenceId,
                rowCount, foundRows);
    }

    /**
     * Whether the packet just accepted was a LOCAL INFILE request: the client's file now goes to the server, ending
     * with an empty packet, and only then does the server answer (OK or ERR, read as the response's first packet).
     */
    public boolean localInfileRequested() {
        return localInfileRequested;
    }

    /** The sequence id of the last packet accepted (-1 before the first). */
    public int lastSequenceId() {
        return lastSequenceId;
    }

    private boolean first(ByteBuf packet, int at, int length) {
        if (kind == ResponseKind.SINGLE_PACKET) {
            return done();
        }
        int header = length > 0 ? packet.getUnsignedByte(at) : -1;
        if (header == OkPacket.HEADER && kind == ResponseKind.PREPARE) {
            return prepareOk(packet, at, length);
        }
        if (header == OkPacket.HEADER) {
            boolean done = ok(packet, at, length);
            count(affectedRows);
            return done;
        }
        if (header == ErrPacket.HEADER) {
            return err(packet, at, length);
        }
        if (header == EofPacket.HEADER && kind == ResponseKind.STATUS) {
            // COM_SET_OPTION's EOF is an OK for CLIENT_DEPRECATE_EOF clients.
            return deprecateEof ? ok(packet, at, length) : eof(packet, at);
        }
        if (header == 0xFB) {
            return localInfile();
        }
        columnsLeft = lenenc(packet, at);
        rows = 0;
        state = State.COLUMNS;
        return false;
    }

    /**
     * 0xFB and a file name: LOAD DATA LOCAL asks the client for that file. Only a query may ask, and only of a
     * connection opened with CLIENT_LOCAL_FILES (for a client that has it).
     */
    private boolean localInfile() {
        if (kind != ResponseKind.QUERY) {
            throw new IllegalStateException("LOCAL INFILE request in answer to a " + kind);
        }
        localInfileRequested = true;
        return false;
    }

    /**
     * STMT_PREPARE_OK: status, statement id (4), columns (2), parameters (2), reserved, warnings (2). The parameter
     * and column definitions follow, each block closed by an EOF for classic clients.
     */
    private boolean prepareOk(ByteBuf packet, int at, int length) {
        int columns = packet.getUnsignedShortLE(at + 5);
        int params = packet.getUnsignedShortLE(at + 7);
        warnings = length >= 12 ? packet.getUnsignedShortLE(at + 10) : 0;
        columnsLeft = params + columns;
        if (!deprecateEof) {
            columnsLeft += (params > 0 ? 1 : 0) + (columns > 0 ? 1 : 0);
        }
        if (columnsLeft == 0) {
            return done();
        }
        state = State.COLUMNS;
        return false;
    }

    private boolean column(ByteBuf packet, int at, int length) {
        if (kind == ResponseKind.PREPARE) {
            return --columnsLeft == 0 && done();
        }
        if (kind == ResponseKind.FIELD_LIST) {
            int header = packet.getUnsignedByte(at);
            if (header == ErrPacket.HEADER) {
                return err(packet, at, length);
            }
            if (EofPacket.isEofOrOkEof(packet, at, length)) {
                return deprecateEof ? ok(packet, at, length) : eof(packet, at);
            }
            return false;
        }
        if (--columnsLeft == 0) {
            state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
        }
        return false;
    }

    /** The EOF after column definitions; an execute that opened a cursor ends here (rows come by COM_STMT_FETCH). */
    private boolean columnsEof(ByteBuf packet, int at) {
        int status = packet.getUnsignedShortLE(at + 3);
        if (ServerStatus.has(status, ServerStatus.CURSOR_EXISTS)) {
            count(-1);
            statusFlags = status;
            warnings = packet.getUnsignedShortLE(at + 1);
            return done();
        }
        state = State.ROWS;
        return false;
    }

    private boolean row(ByteBuf packet, int at, int length) {
        int header = length > 0 ? packet.getUnsignedByte(at) : -1;
        if (header == ErrPacket.HEADER) {
            return err(packet, at, length);
        }
        if (EofPacket.isEofOrOkEof(packet, at, length)) {
            count(-1);
            if (kind == ResponseKind.QUERY) {
                foundRows = rows;
            }
            return deprecateEof ? ok(packet, at, length) : eof(packet, at);
        }
        rows++;
        return false;
    }

    /** A query's or an execute's ROW_COUNT() (other commands leave it as it was). */
    private void count(long value) {
        if (kind == ResponseKind.QUERY) {
            rowCount = value;
        }
    }

    /** OK: header, affected rows (lenenc), last insert id (lenenc), status (2), warnings (2), info. */
    private boolean ok(ByteBuf packet, int at, int length) {
        int index = at + 1;
        affectedRows = lenenc(packet, index);
        index += lenencSize(packet, index);
        long insertId = lenenc(packet, index);
        if (insertId != 0) { // of several results, the last that made one: a later SELECT's OK leaves LAST_INSERT_ID()
            lastInsertId = insertId;
        }
        index += lenencSize(packet, index);
        int end = at + length;
        statusFlags = index + 2 <= end ? packet.getUnsignedShortLE(index) : 0;
        warnings = index + 4 <= end ? packet.getUnsignedShortLE(index + 2) : 0;
        return next();
    }

    /** EOF: header, warnings (2), status (2). */
    private boolean eof(ByteBuf packet, int at) {
        warnings = packet.getUnsignedShortLE(at + 1);
        statusFlags = packet.getUnsignedShortLE(at + 3);
        return next();
    }

    private boolean err(ByteBuf packet, int at, int length) {
        error = ErrPacket.decode(packet.slice(at, length));
        count(-1);
        return done();
    }

    /** After an OK or EOF: another result follows when the server says so. */
    private boolean next() {
        if (kind == ResponseKind.QUERY && ServerStatus.has(statusFlags, ServerStatus.MORE_RESULTS_EXISTS)) {
            state = State.FIRST;
            return false;
        }
        return done();
    }

    private boolean done() {
        state = State.DONE;
        return true;
    }

    private static long lenenc(ByteBuf buf, int index) {
        int first = buf.getUnsignedByte(index);
        return switch (first) {
            case 0xFC -> buf.getUnsignedShortLE(index + 1);
            case 0xFD -> buf.getUnsignedMediumLE(index + 1);
            case 0xFE -> buf.getLongLE(index + 1);
            default -> first;
        };
    }

    private static int lenencSize(ByteBuf buf, int index) {
        return switch (buf.getUnsignedByte(index)) {
            case 0xFC -> 3;
            case 0xFD -> 4;
            case 0xFE -> 9;
            default -> 1;
        };
    }
}
