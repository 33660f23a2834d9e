package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.strata.backend.result.Row;
import io.strata.protocol.ColumnType;

/**
 * A row as a native backend sent it, in the
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset_row.html">
 * text</a> or the
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_binary_resultset.html">binary</a>
 * protocol, read in place: its fields are found by walking the payload only as far as the merge asks, and only the
 * values it compares or aggregates are decoded (numbers once, then kept). The rest of its bytes reach the client
 * untouched. Holds one reference to the payload.
 */
final class PacketRow implements MergeRow {

    private static final int TEXT_NULL = 0xFB;

    private final ByteBuf payload;
    private final boolean binary;
    private final RowLayout layout;
    /** Where each found field's value begins, or -1 for NULL. */
    private final int[] starts;
    /** Where each found field ends. */
    private final int[] ends;
    private int found;
    /** Numbers decoded so far (columns below 64), by {@link #decodedMask}. */
    private long[] decoded;
    private long decodedMask;

    PacketRow(ByteBuf payload, boolean binary, RowLayout layout) {
        this.payload = payload;
        this.binary = binary;
        this.layout = layout;
        this.starts = new int[layout.size()];
        this.ends = new int[layout.size()];
    }

    boolean binary() {
        return binary;
    }

    @Override
    public RowLayout layout() {
        return layout;
    }

    @Override
    public boolean isNull(int column) {
        find(column);
        return starts[column] < 0;
    }

    @Override
    public long longValue(int column) {
        if (column < 64 && (decodedMask & 1L << column) != 0) {
            return decoded[column];
        }
        find(column);
        long value = binary ? BinaryValues.longValue(payload, starts[column], layout, column)
                : switch (layout.kind(column)) {
                    case DATE_TIME -> TextValues.dateTime(payload, starts[column], length(column));
                    case TIME -> TextValues.time(payload, starts[column], length(column));
                    default -> TextValues.integer(payload, starts[column], length(column));
                };
        remember(column, value);
        return value;
    }

    @Override
    public double doubleValue(int column) {
        if (column < 64 && (decodedMask & 1L << column) != 0) {
            return Double.longBitsToDouble(decoded[column]);
        }
        find(column);
        double value = binary ? BinaryValues.doubleValue(payload, starts[column], layout.type(column))
                : TextValues.floating(payload, starts[column], length(column));
        remember(column, Double.doubleToRawLongBits(value));
        return value;
    }

    private void remember(int column, long value) {
        if (column < 64) {
            if (decoded == null) {
                decoded = new long[Math.min(layout.size(), 64)];
            }
            decoded[column] = value;
            decodedMask |= 1L << column;
        }
    }

    @Override
    public ByteBuf bytes(int column) {
        return payload;
    }

    @Override
    public int start(int column) {
        find(column);
        return starts[column];
    }

    @Override
    public int length(int column) {
        find(column);
        return ends[column] - starts[column];
    }

    /** Where the field begins, its length prefix (or a binary date's length byte) included; NULL fields too. */
    int fieldStart(int column) {
        find(column);
        return column == 0 ? firstField() : ends[column - 1];
    }

    int fieldEnd(int column) {
        find(column);
        return ends[column];
    }

    @Override
    public void retain() {
        payload.retain();
    }

    @Override
    public void release() {
        payload.release();
    }

    /**
     * The row without the columns after {@code visibleColumns}: text rows are cut after the last visible field
     * (a slice: no copy); binary rows too when their NULL bitmap needs no change, else the bitmap is made again for
     * the fewer columns and the values copied after it. The protocol stays the row's own.
     */
    @Override
    public Row toRow(int visibleColumns) {
        if (visibleColumns == layout.size()) {
            return new Row.Packet(payload, binary);
        }
        int base = payload.readerIndex();
        int end = fieldEnd(visibleColumns - 1);
        if (!binary || bitmapUnchanged(visibleColumns)) {
            ByteBuf cut = payload.retainedSlice(base, end - base);
            payload.release();
            return new Row.Packet(cut, binary);
        }
        int bitmap = RowLayout.bitmapBytes(visibleColumns);
        int values = firstField();
        ByteBuf out = payload.alloc().buffer(1 + bitmap + end - values);
        try {
            out.writeByte(0x00);
            for (int i = 0; i < bitmap; i++) {
                out.writeByte(payload.getByte(base + 1 + i) & visibleBits(i, visibleColumns));
            }
            out.writeBytes(payload, values, end - values);
        } finally {
            payload.release();
        }
        return new Row.Packet(out, true);
    }

    /** The NULL bitmap of the visible columns is this one's first bytes, no hidden column's bit among them. */
    private boolean bitmapUnchanged(int visibleColumns) {
        int bitmap = RowLayout.bitmapBytes(visibleColumns);
        if (bitmap != RowLayout.bitmapBytes(layout.size())) {
            return false;
        }
        int last = payload.getUnsignedByte(payload.readerIndex() + bitmap);
        return (last & visibleBits(bitmap - 1, visibleColumns)) == last;
    }

    /** The bits of byte {@code index} of a binary row's NULL bitmap that belong to its first columns. */
    private static int visibleBits(int index, int visibleColumns) {
        int bits = visibleColumns + 2 - index * 8; // column i is bit i + 2
        return bits >= 8 ? 0xFF : (1 << bits) - 1;
    }

    private int firstField() {
        return payload.readerIndex() + (binary ? 1 + RowLayout.bitmapBytes(layout.size()) : 0);
    }

    /** Walks the fields up to {@code column}, from the last one found. */
    private void find(int column) {
        while (found <= column) {
            int at = found == 0 ? firstField() : ends[found - 1];
            if (binary) {
                findBinary(found, at);
            } else {
                findText(found, at);
            }
            found++;
        }
    }

    /** A length-encoded string, or 0xFB for NULL. */
    private void findText(int column, int at) {
        int first = payload.getUnsignedByte(at);
        if (first == TEXT_NULL) {
            starts[column] = -1;
            ends[column] = at + 1;
            return;
        }
        lengthEncoded(column, at, first);
    }

    /** NULL by the bitmap; else fixed width by type, a date or time's length byte, or a length-encoded string. */
    private void findBinary(int column, int at) {
        int bit = column + 2;
        if ((payload.getByte(payload.readerIndex() + 1 + bit / 8) & 1 << bit % 8) != 0) {
            starts[column] = -1;
            ends[column] = at;
            return;
        }
        int width = switch (layout.type(column)) {
            case ColumnType.TINY -> 1;
            case ColumnType.SHORT, ColumnType.YEAR -> 2;
            case ColumnType.INT24, ColumnType.LONG, ColumnType.FLOAT -> 4;
            case ColumnType.LONGLONG, ColumnType.DOUBLE -> 8;
            case ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP, ColumnType.TIME ->
                    1 + payload.getUnsignedByte(at);
            default -> -1;
        };
        if (width < 0) {
            lengthEncoded(column, at, payload.getUnsignedByte(at));
        } else {
            starts[column] = at;
            ends[column] = at + width;
        }
    }

    private void lengthEncoded(int column, int at, int first) {
        int header;
        long length;
        switch (first) {
            case 0xFC -> {
                header = 3;
                length = payload.getUnsignedShortLE(at + 1);
            }
            case 0xFD -> {
                header = 4;
                length = payload.getUnsignedMediumLE(at + 1);
            }
            case 0xFE -> {
                header = 9;
                length = payload.getLongLE(at + 1);
            }
            default -> {
                header = 1;
                length = first;
            }
        }
        starts[column] = at + header;
        ends[column] = Math.toIntExact(at + header + length);
    }
}
