package io.strata.frontend.command;

import io.strata.backend.result.StatementShape;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.execute.ResultWriter;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;
import io.strata.backend.result.UpdateResult;
import io.strata.backend.relay.ResponseSummary;
import io.strata.frontend.packet.BinaryRow;
import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.TextRow;
import io.strata.protocol.EofPacket;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.ServerStatus;

import java.nio.charset.Charset;
import java.util.function.Supplier;
import java.util.List;

/**
 * Turns what the JDBC executor produces into packets for one client: column definitions, rows (text-protocol rows,
 * or binary-protocol rows for prepared statements) with text in the client's character set, and terminators. A result's terminator is held back until the next result (or the
 * end) says whether SERVER_MORE_RESULTS_EXISTS belongs in it. Rows wait while the client channel is not writable.
 *
 * <p>Called on the virtual thread running the statement, except {@link #writabilityChanged()}.
 */
final class ResultPackets implements ResultWriter {

    /** Room of a buffer of gathered rows. */
    private static final int BATCH_BYTES = 16 * 1024;
    /**
     * Rows go out once this many bytes of them are written, as a server sends a net buffer's worth
     * (net_buffer_length), and at the end: a small result leaves in one write, a large one streams.
     */
    private static final int FLUSH_BYTES = BATCH_BYTES;
    private static final long WRITABILITY_POLL_MILLIS = 50;

    private final Channel channel;
    private final Supplier<ErrPacket> interruption;
    private final boolean deprecateEof;
    private final boolean extendedTypeInfo;
    private final Charset charset;
    private final boolean binary;
    private List<ColumnMetadata> columns;
    private int sequenceId;
    private int bytesSinceFlush;
    private Runnable pendingTerminator;
    private int pendingStatus;
    private int lastStatus = -1;
    private int lastWarnings;
    private long lastInsertId;
    private long rows;
    private long rowCount = ResponseSummary.UNCHANGED;
    private long foundRows = ResponseSummary.UNCHANGED;
    private boolean failed;
    private boolean written;
    /**
     * Small rows gathered with their headers into one buffer that goes out as one write, or null: a write through the
     * pipeline per row, and its own buffer, cost more than the copy (a merge's rows, profiled under sysbench's range
     * queries). Goes out before anything else is written or flushed.
     */
    private ByteBuf batch;

    /**
     * @param binary rows in the binary protocol (the response to COM_STMT_EXECUTE and COM_STMT_FETCH)
     */
    /**
     * @param interruption the error Strata interrupted the statement for (a query rule's timeout), which the client
     *                     gets in place of the backend's; null when it did not
     */
    ResultPackets(Channel channel, int sequenceId, boolean deprecateEof, boolean extendedTypeInfo,
                     Charset charset, boolean binary, Supplier<ErrPacket> interruption) {
        this.channel = channel;
        this.interruption = interruption;
        this.sequenceId = sequenceId;
        this.deprecateEof = deprecateEof;
        this.extendedTypeInfo = extendedTypeInfo;
        this.charset = charset;
        this.binary = binary;
    }

    @Override
    public void columns(List<ColumnMetadata> columns, int statusFlags) {
        resultHeader(columns, forClient(statusFlags), true);
        rows = 0;
    }

    @Override
    public void write(Result result) throws InterruptedException {
        switch (result) {
            case UpdateResult update -> {
                update(update.affectedRows(), update.lastInsertId(), update.statusFlags(), update.warnings(),
                        update.info());
                finish();
            }
            case ErrorResult failure -> error(failure.error().errorCode(), failure.error().sqlState(),
                    failure.error().message());
            case QueryResult query -> rows(query);
        }
    }

    /** A result set as it is pulled: the backend's own column definitions when it has them, rows, terminator. */
    private void rows(QueryResult query) throws InterruptedException {
        List<byte[]> definitions = query.columnPackets();
        if (definitions == null) {
            columns(query.columns(), 0);
        } else {
            writePending(true);
            this.columns = query.columns();
            ByteBuf count = channel.alloc().buffer(9);
            MySQLBuf.writeIntLenenc(count, definitions.size());
            write(count);
            for (byte[] definition : definitions) {
                write(channel.alloc().buffer(definition.length).writeBytes(definition));
            }
            if (!deprecateEof) {
                ByteBuf eof = channel.alloc().buffer(5);
                new EofPacket(0, ServerStatus.AUTOCOMMIT).encode(eof);
                write(eof);
            }
            rows = 0;
        }
        try {
            for (Row row = query.next(); row != null; row = query.next()) {
                switch (row) {
                    case Row.Cells cells -> row(cells.values());
                    case Row.Packet packet -> {
                        awaitWritable();
                        writeRow(packet.payload());
                        rows++;
                    }
                }
            }
        } catch (ResultException e) {
            error(e.error().errorCode(), e.error().sqlState(), e.error().message());
            return;
        } catch (InterruptedException | RuntimeException e) {
            dropBatch();
            throw e;
        }
        endOfRows(query.statusFlags(), query.warnings());
        finish();
    }

    @Override
    public void cursorOpened(List<ColumnMetadata> columns, int statusFlags, int warnings) {
        resultHeader(columns, forClient(statusFlags), false);
        endOfRows(statusFlags, warnings);
        foundRows = ResponseSummary.UNCHANGED; // the cursor's rows come later, by fetch
        finish();
    }

    /** A result set's column count and definitions, ended by an EOF when {@code eof} (and not deprecated). */
    private void resultHeader(List<ColumnMetadata> columns, int statusFlags, boolean eof) {
        writePending(true);
        this.columns = columns;
        ByteBuf count = channel.alloc().buffer(9);
        MySQLBuf.writeIntLenenc(count, columns.size());
        write(count);
        definitions(columns, statusFlags, eof);
    }

    /** The column definitions, then an EOF unless the client deprecated it or {@code eof} is false. */
    private void definitions(List<ColumnMetadata> columns, int status, boolean eof) {
        for (ColumnMetadata c : columns) {
            ByteBuf out = channel.alloc().buffer(64);
            new ColumnDefinition41(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collationId(),
                    c.length(), c.type(), c.flags(), c.decimals(), c.extendedType(), c.extendedFormat())
                    .encode(out, extendedTypeInfo);
            write(out);
        }
        if (eof && !deprecateEof) {
            ByteBuf out = channel.alloc().buffer(5);
            new EofPacket(0, status).encode(out);
            write(out);
        }
    }

    /** The columns of the rows that follow without definitions (a cursor's, for COM_STMT_FETCH). */
    @Override
    public void rowsOf(List<ColumnMetadata> columns) {
        this.columns = columns;
    }

    /**
     * COM_STMT_PREPARE's response: STMT_PREPARE_OK (status, statement id, columns, parameters, a reserved byte,
     * warnings), then the parameter definitions and the column definitions, each list ended by EOF unless
     * deprecated.
     */
    @Override
    public void prepared(int statementId, StatementShape shape) {
        ByteBuf ok = channel.alloc().buffer(12);
        ok.writeByte(0x00).writeIntLE(statementId).writeShortLE(shape.columns().size())
                .writeShortLE(shape.params().size()).writeByte(0).writeShortLE(Math.min(shape.warnings(), 0xFFFF));
        write(ok);
        int status = forClient(shape.statusFlags());
        if (!shape.params().isEmpty()) {
            definitions(shape.params(), status, true);
        }
        if (!shape.columns().isEmpty()) {
            definitions(shape.columns(), status, true);
        }
        remember(status, shape.warnings());
    }

    @Override
    public void row(Object[] cells) throws InterruptedException {
        awaitWritable();
        ByteBuf out = channel.alloc().buffer(TextRow.INITIAL_CAPACITY);
        if (binary) {
            BinaryRow.write(out, cells, columns, charset);
        } else {
            TextRow.write(out, cells, charset);
        }
        writeRow(out);
        rows++;
    }

    @Override
    public void endOfRows(int serverStatus, int warnings) {
        int statusFlags = forClient(serverStatus);
        remember(statusFlags, warnings);
        rowCount = -1;
        foundRows = rows;
        pendingStatus = statusFlags;
        pendingTerminator = () -> {
            ByteBuf out = channel.alloc().buffer(16);
            if (deprecateEof) {
                new OkPacket(OkPacket.EOF_HEADER, 0, 0, pendingStatus, warnings, "").encode(out);
            } else {
                new EofPacket(warnings, pendingStatus).encode(out);
            }
            write(out);
        };
    }

    @Override
    public void update(long affectedRows, long lastInsertId, int serverStatus, int warnings) {
        update(affectedRows, lastInsertId, serverStatus, warnings, "");
    }

    /** An OK with the server's message ("Rows matched: ..."), as a native backend gave it. */
    private void update(long affectedRows, long lastInsertId, int serverStatus, int warnings, String info) {
        int statusFlags = forClient(serverStatus);
        writePending(true);
        remember(statusFlags, warnings);
        rowCount = affectedRows;
        if (lastInsertId != 0) {
            this.lastInsertId = lastInsertId;
        }
        pendingStatus = statusFlags;
        pendingTerminator = () -> {
            ByteBuf out = channel.alloc().buffer(32);
            new OkPacket(OkPacket.HEADER, affectedRows, lastInsertId, pendingStatus, warnings, info).encode(out);
            write(out);
        };
    }

    @Override
    public void finish() {
        writePending(false);
        writeBatch();
    }

    @Override
    public void error(int errorCode, String sqlState, String message) {
        ErrPacket instead = interruption.get();
        if (instead != null) {
            errorCode = instead.errorCode();
            sqlState = instead.sqlState();
            message = instead.message();
        }
        writePending(true);
        failed = true;
        rowCount = -1;
        ByteBuf out = channel.alloc().buffer(16 + message.length() * 3);
        new ErrPacket(errorCode, sqlState, message).encode(out);
        write(out);
    }

    /** Sends what was written; the runner calls it once the session has its backend connection sorted out. */
    @Override
    public void flush() {
        writeBatch();
        channel.flush();
        bytesSinceFlush = 0;
    }

    @Override
    public synchronized void writabilityChanged() {
        notifyAll();
    }

    @Override
    public int statusFlags() {
        return lastStatus;
    }

    @Override
    public int warnings() {
        return lastWarnings;
    }

    @Override
    public long lastInsertId() {
        return lastInsertId;
    }

    /** What ROW_COUNT() reads after this response ({@link ResponseSummary#rowCount}). */
    @Override
    public long rowCount() {
        return rowCount;
    }

    /** What FOUND_ROWS() reads after it ({@link ResponseSummary#foundRows}). */
    @Override
    public long foundRows() {
        return foundRows;
    }

    /** Whether anything reached the client yet. */
    @Override
    public boolean written() {
        return written;
    }

    @Override
    public boolean failed() {
        return failed;
    }

    /**
     * The driver has the server track session state, so its status flags may say SESSION_STATE_CHANGED; the OK
     * Strata writes carries no state information (it offers clients no CLIENT_SESSION_TRACK), and a client that
     * reads the flag would look for it (libmariadb: "malformed packet").
     */
    private static int forClient(int serverStatus) {
        return serverStatus & ~ServerStatus.SESSION_STATE_CHANGED;
    }

    private void remember(int statusFlags, int warnings) {
        lastStatus = statusFlags;
        lastWarnings = warnings;
    }

    private void writePending(boolean more) {
        if (pendingTerminator != null) {
            if (more) {
                pendingStatus |= ServerStatus.MORE_RESULTS_EXISTS;
            }
            pendingTerminator.run();
            pendingTerminator = null;
        }
    }

    private void write(ByteBuf payload) {
        writeBatch();
        written = true;
        int packets = PacketEncoder.packetCount(payload.readableBytes()); // rows of 16 MiB and more are split
        channel.write(new MySQLFrame(sequenceId, payload), channel.voidPromise());
        sequenceId = (sequenceId + packets) & 0xFF;
    }

    private synchronized void awaitWritable() throws InterruptedException {
        if (channel.eventLoop().inEventLoop()) {
            // A merge of answers already read in full: its rows are in memory anyway, and waiting here would stall
            // the loop that has to send them.
            return;
        }
        while (!channel.isWritable()) {
            if (!channel.isActive()) {
                dropBatch();
                throw new InterruptedException("client went away");
            }
            flush();
            wait(WRITABILITY_POLL_MILLIS);
        }
    }

    /** A row's packet, into the batch when small (its payload is released), else written as it is. */
    private void writeRow(ByteBuf payload) {
        int length = payload.readableBytes();
        if (length > PacketEncoder.COPY_LIMIT) {
            write(payload);
        } else {
            gather(payload);
        }
        bytesSinceFlush += length + PacketFrameDecoder.HEADER_SIZE;
        if (bytesSinceFlush >= FLUSH_BYTES) {
            flush();
        }
    }

    /** A small row's packet into the batch (its payload is released). */
    private void gather(ByteBuf payload) {
        int length = payload.readableBytes();
        if (batch != null && batch.capacity() - batch.writerIndex() < length + PacketFrameDecoder.HEADER_SIZE) {
            writeBatch();
        }
        if (batch == null) {
            batch = channel.alloc().ioBuffer(BATCH_BYTES);
        }
        PacketEncoder.append(batch, sequenceId, payload);
        payload.release();
        sequenceId = (sequenceId + 1) & 0xFF;
        written = true;
    }

    /** The gathered rows released unsent: the response will not be finished. */
    private void dropBatch() {
        if (batch != null) {
            batch.release();
            batch = null;
        }
    }

    /** The gathered rows, already framed, on toward the socket. */
    private void writeBatch() {
        if (batch != null) {
            channel.write(batch, channel.voidPromise());
            batch = null;
        }
    }
}
