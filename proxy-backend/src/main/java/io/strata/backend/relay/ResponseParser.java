package io.strata.backend.relay;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.EofPacket;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.ServerStatus;

/**
 * Follows the structure of one backend response packet by packet, just far enough to know where it ends and what
 * status it ends with; the packets themselves go to the {@link ResponseListener} untouched. This is the core of the
 * relay executor: nothing is decoded that is not needed for that decision (rows are never looked into).
 *
 * <p>Not thread-safe: driven by the backend connection's event loop.
 */
public final class ResponseParser {

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS, DONE }

    private final ResponseKind kind;
    private final boolean deprecateEof;
    private State state = State.FIRST;
    private long columnsLeft;
    private boolean continuation;
    private int statusFlags = -1;
    private int warnings;
    private long affectedRows;
    private long lastInsertId;
    private ErrPacket error;
    private int lastSequenceId;

    /** @param deprecateEof whether the backend connection was opened with CLIENT_DEPRECATE_EOF */
    public ResponseParser(ResponseKind kind, boolean deprecateEof) {
        this.kind = kind;
        this.deprecateEof = deprecateEof;
        this.state = switch (kind) {
            case FIELD_LIST -> State.COLUMNS;
            case FETCH -> State.ROWS;
            default -> State.FIRST;
        };
        this.columnsLeft = Long.MAX_VALUE;
    }

    /**
     * Looks at one physical packet (header included, reader index untouched) and returns whether the response is
     * complete with it.
     */
    public boolean accept(ByteBuf packet) {
        int start = packet.readerIndex();
        int length = packet.getUnsignedMediumLE(start);
        lastSequenceId = packet.getUnsignedByte(start + 3);
        boolean wasContinuation = continuation;
        continuation = length == PacketFrameDecoder.MAX_PAYLOAD;
        if (wasContinuation) {
            return false;
        }
        ByteBuf payload = packet.slice(start + PacketFrameDecoder.HEADER_SIZE, length);
        return switch (state) {
            case FIRST -> first(payload);
            case COLUMNS -> column(payload);
            case COLUMNS_EOF -> columnsEof(payload);
            case ROWS -> row(payload);
            case DONE -> throw new IllegalStateException("packet after the end of the response");
        };
    }

    public ResponseSummary summary() {
        return new ResponseSummary(statusFlags, warnings, affectedRows, lastInsertId, error, lastSequenceId);
    }

    private boolean first(ByteBuf payload) {
        if (kind == ResponseKind.SINGLE_PACKET) {
            return done();
        }
        int header = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        if (header == OkPacket.HEADER && kind == ResponseKind.PREPARE) {
            return prepareOk(payload);
        }
        if (header == OkPacket.HEADER) {
            return ok(payload);
        }
        if (header == ErrPacket.HEADER) {
            return err(payload);
        }
        if (header == EofPacket.HEADER && kind == ResponseKind.STATUS) {
            return deprecateEof ? ok(payload) : eof(payload); // COM_SET_OPTION's EOF is an OK for these clients
        }
        if (header == 0xFB) {
            // LOCAL INFILE request: Strata never offers CLIENT_LOCAL_FILES to backends, so a server must not send it.
            throw new IllegalStateException("backend requested LOCAL INFILE");
        }
        columnsLeft = MySQLBuf.readIntLenenc(payload.duplicate());
        state = State.COLUMNS;
        return false;
    }

    /**
     * STMT_PREPARE_OK: status, statement id (4), columns (2), parameters (2), reserved, warnings (2). The parameter
     * and column definitions follow, each block closed by an EOF for classic clients.
     */
    private boolean prepareOk(ByteBuf payload) {
        int at = payload.readerIndex();
        int columns = payload.getUnsignedShortLE(at + 5);
        int params = payload.getUnsignedShortLE(at + 7);
        warnings = payload.readableBytes() >= 12 ? payload.getUnsignedShortLE(at + 10) : 0;
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

    private boolean column(ByteBuf payload) {
        if (kind == ResponseKind.PREPARE) {
            return --columnsLeft == 0 && done();
        }
        if (kind == ResponseKind.FIELD_LIST) {
            int header = payload.getUnsignedByte(payload.readerIndex());
            if (header == ErrPacket.HEADER) {
                return err(payload);
            }
            if (EofPacket.isEofOrOkEof(payload)) {
                return deprecateEof ? ok(payload) : eof(payload);
            }
            return false;
        }
        if (--columnsLeft == 0) {
            state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
        }
        return false;
    }

    /** The EOF after column definitions; an execute that opened a cursor ends here (rows come by COM_STMT_FETCH). */
    private boolean columnsEof(ByteBuf payload) {
        EofPacket eof = EofPacket.decode(payload.duplicate());
        if (ServerStatus.has(eof.statusFlags(), ServerStatus.CURSOR_EXISTS)) {
            statusFlags = eof.statusFlags();
            warnings = eof.warnings();
            return done();
        }
        state = State.ROWS;
        return false;
    }

    private boolean row(ByteBuf payload) {
        int header = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        if (header == ErrPacket.HEADER) {
            return err(payload);
        }
        if (header == EofPacket.HEADER && EofPacket.isEofOrOkEof(payload)) {
            return deprecateEof ? ok(payload) : eof(payload);
        }
        return false;
    }

    private boolean ok(ByteBuf payload) {
        OkPacket ok = OkPacket.decode(payload.duplicate());
        statusFlags = ok.statusFlags();
        warnings = ok.warnings();
        affectedRows = ok.affectedRows();
        lastInsertId = ok.lastInsertId();
        return next();
    }

    private boolean eof(ByteBuf payload) {
        EofPacket eof = EofPacket.decode(payload.duplicate());
        statusFlags = eof.statusFlags();
        warnings = eof.warnings();
        return next();
    }

    private boolean err(ByteBuf payload) {
        error = ErrPacket.decode(payload.duplicate());
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
}
