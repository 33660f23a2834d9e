package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.Capabilities;
import io.strata.protocol.EofPacket;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLException;
import io.strata.protocol.OkPacket;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Reads one native backend response into a protocol-neutral {@link Result}, for a route whose units' answers are
 * merged. An OK or ERR is the result at once; a result set becomes a {@link QueryResult} as soon as its columns are
 * read, whose rows then stream through a bounded queue: the backend connection stops reading while the queue is
 * full, and goes on as the merge takes rows. Packets arrive on the connection's event loop; rows are pulled by the
 * merge's thread.
 */
final class NativeResult implements ResponseListener, QueryResult {

    /** Rows queued before the backend connection stops reading. */
    private static final int HIGH_WATER = 1024;
    /** Rows left in the queue when a stopped connection reads again. */
    private static final int LOW_WATER = 256;
    /** Ends the queue. */
    private static final Object END = new Object();

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS, DONE }

    private final BackendConnection connection;
    private final boolean binary;
    /** Whether a full queue stops the connection reading (not for a unit whose connection has more units to run). */
    private final boolean pauses;
    private final CompletableFuture<Result> answer = new CompletableFuture<>();
    private final CompletableFuture<ResponseSummary> ended = new CompletableFuture<>();
    private final LinkedBlockingQueue<Object> rows = new LinkedBlockingQueue<>();
    private State state = State.FIRST;
    private int columnsLeft;
    private List<byte[]> definitions;
    private List<ColumnMetadata> columns;
    private volatile boolean paused;
    /** Told (once, on the connection's loop) when the queue first fills and the connection stops reading. */
    private volatile Runnable onPause;
    private volatile boolean closed;
    private volatile int statusFlags;
    private volatile int warnings;

    /** @param binary the rows come in the binary protocol (the answer to COM_STMT_EXECUTE) */
    NativeResult(BackendConnection connection, boolean binary) {
        this(connection, binary, true);
    }

    /**
     * @param pauses false for a unit followed by others on the same connection: its rows are read whole into the
     *               queue, since the merge may wait on a later unit's rows before it takes this one's
     */
    NativeResult(BackendConnection connection, boolean binary, boolean pauses) {
        this.connection = connection;
        this.binary = binary;
        this.pauses = pauses;
    }

    /** The response's result, once its kind is known (for a result set: once its columns are read). */
    CompletableFuture<Result> answer() {
        return answer;
    }

    /** Rows read and not yet taken (with the end marker). */
    int rowsHeld() {
        return rows.size();
    }

    /** Completes when the whole response was read (or the connection broke): the connection is free again. */
    CompletableFuture<ResponseSummary> ended() {
        return ended;
    }

    BackendConnection connection() {
        return connection;
    }

    /** {@code action} runs when a full queue first stops the connection reading (at once if it already has). */
    void onPause(Runnable action) {
        onPause = action;
        if (paused) {
            action.run();
        }
    }

    @Override
    public void onPacket(ByteBuf packet) {
        try {
            int length = packet.readableBytes() - 4;
            ByteBuf payload = packet.slice(packet.readerIndex() + 4, length);
            switch (state) {
                case FIRST -> first(payload);
                case COLUMNS -> column(payload);
                case COLUMNS_EOF -> rowsFollow();
                case ROWS -> row(payload, length);
                case DONE -> { }
            }
        } finally {
            packet.release();
        }
    }

    private void first(ByteBuf payload) {
        int header = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        if (header == OkPacket.HEADER) {
            OkPacket ok = OkPacket.decode(payload.duplicate());
            answer.complete(new UpdateResult(ok.affectedRows(), ok.lastInsertId(), ok.statusFlags(), ok.warnings(),
                    ok.info()));
            state = State.DONE;
        } else if (header == ErrPacket.HEADER) {
            answer.complete(new ErrorResult(ErrPacket.decode(payload.duplicate())));
            state = State.DONE;
        } else {
            columnsLeft = (int) MySQLBuf.readIntLenenc(payload.duplicate());
            definitions = new ArrayList<>(columnsLeft);
            state = State.COLUMNS;
        }
    }

    private void column(ByteBuf payload) {
        byte[] definition = new byte[payload.readableBytes()];
        payload.getBytes(payload.readerIndex(), definition);
        definitions.add(definition);
        if (--columnsLeft == 0) {
            if (connection.deprecateEof()) {
                rowsFollow();
            } else {
                state = State.COLUMNS_EOF;
            }
        }
    }

    private void rowsFollow() {
        columns = new ArrayList<>(definitions.size());
        for (byte[] definition : definitions) {
            columns.add(ColumnMetadata.decode(definition, extendedTypeInfo()));
        }
        state = State.ROWS;
        answer.complete(this);
    }

    private void row(ByteBuf payload, int length) {
        int header = length > 0 ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        if (header == ErrPacket.HEADER) {
            rows.add(new ResultException(ErrPacket.decode(payload.duplicate())));
            state = State.DONE;
        } else if (EofPacket.isEofOrOkEof(payload)) {
            state = State.DONE; // the terminator's status comes with the summary
        } else if (!closed) {
            rows.add(new Row.Packet(payload.retainedSlice(), binary));
        }
    }

    private boolean extendedTypeInfo() {
        return (connection.flavor() & Capabilities.FLAVOR_EXTENDED_TYPE_INFO) != 0;
    }

    @Override
    public boolean writable() {
        if (rows.size() < HIGH_WATER || closed || !pauses) {
            return true;
        }
        paused = true;
        Runnable action = onPause;
        if (action != null) {
            action.run();
        }
        return false;
    }

    @Override
    public void onComplete(ResponseSummary summary) {
        if (!answer.isDone()) {
            answer.complete(summary.failed() ? new ErrorResult(summary.error())
                    : new UpdateResult(summary.affectedRows(), summary.lastInsertId(),
                            Math.max(summary.statusFlags(), 0), summary.warnings(), ""));
        }
        statusFlags = Math.max(summary.statusFlags(), 0);
        warnings = summary.warnings();
        rows.add(END);
        ended.complete(summary);
    }

    @Override
    public void onFailure(Throwable cause) {
        if (!answer.isDone()) {
            answer.complete(new ErrorResult(MySQLException.toErrPacket(cause)));
        }
        rows.add(ResultException.of(cause));
        ended.completeExceptionally(cause);
    }

    @Override
    public List<ColumnMetadata> columns() {
        return columns;
    }

    @Override
    public List<byte[]> columnPackets() {
        return definitions;
    }

    @Override
    public Row next() throws InterruptedException {
        Object next = rows.take();
        if (paused && rows.size() < LOW_WATER) {
            paused = false;
            connection.resume();
        }
        if (next == END) {
            rows.add(END); // stays ended for later calls
            return null;
        }
        if (next instanceof ResultException failure) {
            rows.add(failure);
            throw failure;
        }
        return (Row) next;
    }

    @Override
    public int statusFlags() {
        return statusFlags;
    }

    @Override
    public int warnings() {
        return warnings;
    }

    /** Drops the rows not taken; the rest of the response is read and dropped too, so the connection stays usable. */
    @Override
    public void close() {
        closed = true;
        Object next;
        while ((next = rows.poll()) != null) {
            if (next instanceof Row.Packet row) {
                row.payload().release();
            } else if (next == END || next instanceof ResultException) {
                rows.add(next);
                break;
            }
        }
        if (paused) {
            paused = false;
            connection.resume();
        }
    }
}
