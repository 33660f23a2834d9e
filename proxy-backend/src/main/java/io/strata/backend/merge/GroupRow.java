package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.strata.protocol.MySQLBuf;

/**
 * The row of one merged group, made in the form of the units' rows: its computed columns encoded as the server
 * encodes such a value ({@link ValueFormat}), every other column copied as it came, from the group's first row or
 * from the row a MIN or MAX picked. A group over no rows has NULL there.
 */
final class GroupRow {

    /** How rows are made when no unit row shows it. */
    enum Form { TEXT, BINARY, CELLS }

    private static final int TEXT_NULL = 0xFB;

    private final RowLayout layout;
    private final MergeRow first;
    private final Object[] values;
    private final boolean[] computed;
    private final MergeRow[] takenFrom;

    /** @param first the group's first row, or null for the group over no rows */
    GroupRow(RowLayout layout, MergeRow first) {
        this.layout = layout;
        this.first = first;
        this.values = new Object[layout.size()];
        this.computed = new boolean[layout.size()];
        this.takenFrom = new MergeRow[layout.size()];
    }

    /** A computed value (a Long, a BigDecimal, a Double, a string's bytes in its column), or null for NULL. */
    void set(int column, Object value) {
        values[column] = value;
        computed[column] = true;
    }

    /** The column as it is in {@code row}, which must stay held until {@link #build}. */
    void take(int column, MergeRow row) {
        takenFrom[column] = row;
    }

    /**
     * A new row, holding its own buffer (from the units' rows' allocator, else {@code alloc}); the rows copied from
     * stay their holders'.
     *
     * @param form the form when there is no first row to follow
     */
    MergeRow build(Form form, ByteBufAllocator alloc) {
        Form actual = switch (first) {
            case null -> form;
            case CellsRow cells -> Form.CELLS;
            case PacketRow packet -> packet.binary() ? Form.BINARY : Form.TEXT;
        };
        if (first instanceof PacketRow packet) {
            alloc = packet.bytes(0).alloc();
        }
        return switch (actual) {
            case TEXT -> new PacketRow(text(alloc), false, layout);
            case BINARY -> new PacketRow(binary(alloc), true, layout);
            case CELLS -> new CellsRow(cells(), layout);
        };
    }

    private MergeRow source(int column) {
        return takenFrom[column] != null ? takenFrom[column] : first;
    }

    private ByteBuf text(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(16 * layout.size());
        for (int c = 0; c < layout.size(); c++) {
            MergeRow source = source(c);
            if (computed[c] ? values[c] == null : source == null) {
                out.writeByte(TEXT_NULL);
            } else if (values[c] instanceof byte[] bytes) {
                MySQLBuf.writeBytesLenenc(out, bytes);
            } else if (computed[c]) {
                MySQLBuf.writeStringLenenc(out, ValueFormat.text(values[c], layout.column(c)));
            } else {
                copyField(out, (PacketRow) source, c);
            }
        }
        return out;
    }

    private ByteBuf binary(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(16 * layout.size());
        out.writeByte(0x00);
        int bitmap = out.writerIndex();
        out.writeZero(RowLayout.bitmapBytes(layout.size()));
        for (int c = 0; c < layout.size(); c++) {
            MergeRow source = source(c);
            if (computed[c] ? values[c] == null : source == null || source.isNull(c)) {
                int bit = c + 2;
                out.setByte(bitmap + bit / 8, out.getByte(bitmap + bit / 8) | 1 << bit % 8);
            } else if (values[c] instanceof byte[] bytes) {
                MySQLBuf.writeBytesLenenc(out, bytes); // a string's bytes, as in a text row
            } else if (computed[c]) {
                ValueFormat.binary(out, values[c], layout.column(c));
            } else {
                copyField(out, (PacketRow) source, c);
            }
        }
        return out;
    }

    /** The field's bytes as they are: a text field with its length prefix, a binary value with its own. */
    private static void copyField(ByteBuf out, PacketRow source, int column) {
        int start = source.fieldStart(column);
        out.writeBytes(source.bytes(column), start, source.fieldEnd(column) - start);
    }

    private Object[] cells() {
        boolean numbers = first instanceof CellsRow cells && cells.numbers();
        Object[] cells = new Object[layout.size()];
        for (int c = 0; c < cells.length; c++) {
            MergeRow source = source(c);
            if (computed[c]) {
                cells[c] = ValueFormat.cell(values[c], layout.column(c), numbers);
            } else if (source != null) {
                cells[c] = ((CellsRow) source).value(c);
            }
        }
        return cells;
    }
}
