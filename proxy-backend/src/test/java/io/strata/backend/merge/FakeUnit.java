package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;

/**
 * A unit's result set as the native executor hands it over: its column definitions, then its rows (packets a
 * backend sent, or a driver's cells), then its status; optionally an error after the rows.
 */
final class FakeUnit implements QueryResult {

    private final List<ColumnMetadata> columns;
    private final List<byte[]> columnPackets;
    private final Deque<Row> rows = new ArrayDeque<>();
    private int status = 2;
    private int warnings;
    private ResultException failure;
    boolean closed;
    int taken;

    private FakeUnit(List<ColumnMetadata> columns, List<byte[]> columnPackets) {
        this.columns = columns;
        this.columnPackets = columnPackets;
    }

    /** Column definitions as a backend sent them (ColumnDefinition41 payloads in hex). */
    static FakeUnit withColumns(List<String> definitions) {
        List<byte[]> packets = definitions.stream().map(HexFormat.of()::parseHex).toList();
        return new FakeUnit(packets.stream().map(p -> ColumnMetadata.decode(p, false)).toList(), packets);
    }

    /** Columns as the JDBC executor describes them (no packets). */
    static FakeUnit withColumns(ColumnMetadata... columns) {
        return new FakeUnit(List.of(columns), null);
    }

    /** Text-protocol rows, each payload in hex. */
    FakeUnit text(Buffers buffers, String... rows) {
        for (String row : rows) {
            this.rows.add(new Row.Packet(buffers.hex(row), false));
        }
        return this;
    }

    /** Binary-protocol rows, each payload in hex. */
    FakeUnit binary(Buffers buffers, String... rows) {
        for (String row : rows) {
            this.rows.add(new Row.Packet(buffers.hex(row), true));
        }
        return this;
    }

    FakeUnit cells(Object[]... rows) {
        for (Object[] row : rows) {
            this.rows.add(new Row.Cells(row));
        }
        return this;
    }

    FakeUnit status(int status, int warnings) {
        this.status = status;
        this.warnings = warnings;
        return this;
    }

    /** The rows end in this error instead of the status. */
    FakeUnit failing(ResultException failure) {
        this.failure = failure;
        return this;
    }

    @Override
    public List<ColumnMetadata> columns() {
        return columns;
    }

    @Override
    public List<byte[]> columnPackets() {
        return columnPackets;
    }

    @Override
    public Row next() {
        Row row = rows.poll();
        if (row == null && failure != null) {
            throw failure;
        }
        if (row != null) {
            taken++;
        }
        return row;
    }

    @Override
    public int statusFlags() {
        return status;
    }

    @Override
    public int warnings() {
        return warnings;
    }

    /** Drops the rows not taken, as the native result does. */
    @Override
    public void close() {
        closed = true;
        for (Row row = rows.poll(); row != null; row = rows.poll()) {
            if (row instanceof Row.Packet packet) {
                packet.payload().release();
            }
        }
    }
}
