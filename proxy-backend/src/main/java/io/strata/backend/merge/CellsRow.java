package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.backend.result.Row;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A row of values a driver decoded ({@link Row.Cells}): text or bytes for text rows, Numbers for the numeric
 * columns of binary ones. Compared as the same values in a packet would be; nothing to release.
 */
final class CellsRow implements MergeRow {

    private final Object[] values;
    private final RowLayout layout;
    /** The bytes of the values compared as bytes, made once. */
    private ByteBuf[] bytes;

    CellsRow(Object[] values, RowLayout layout) {
        this.values = values;
        this.layout = layout;
    }

    Object value(int column) {
        return values[column];
    }

    /** Whether numeric columns hold Numbers here (binary-protocol cells) rather than their text. */
    boolean numbers() {
        for (Object value : values) {
            if (value instanceof Number) {
                return true;
            }
        }
        return false;
    }

    @Override
    public RowLayout layout() {
        return layout;
    }

    @Override
    public boolean isNull(int column) {
        return values[column] == null;
    }

    @Override
    public long longValue(int column) {
        if (values[column] instanceof Number number) {
            return number.longValue(); // an integer of a binary row (dates and times are always text)
        }
        ByteBuf text = bytes(column);
        return switch (layout.kind(column)) {
            case DATE_TIME -> TextValues.dateTime(text, 0, text.readableBytes());
            case TIME -> TextValues.time(text, 0, text.readableBytes());
            default -> TextValues.integer(text, 0, text.readableBytes());
        };
    }

    @Override
    public double doubleValue(int column) {
        return values[column] instanceof Number number ? number.doubleValue()
                : Double.parseDouble(values[column].toString());
    }

    @Override
    public ByteBuf bytes(int column) {
        if (bytes == null) {
            bytes = new ByteBuf[values.length];
        }
        if (bytes[column] == null) {
            bytes[column] = Unpooled.wrappedBuffer(switch (values[column]) {
                case byte[] raw -> raw;
                case BigDecimal decimal -> decimal.toPlainString().getBytes(StandardCharsets.US_ASCII);
                default -> values[column].toString().getBytes(StandardCharsets.UTF_8);
            });
        }
        return bytes[column];
    }

    @Override
    public int start(int column) {
        return 0;
    }

    @Override
    public int length(int column) {
        return bytes(column).readableBytes();
    }

    @Override
    public void retain() {
    }

    @Override
    public void release() {
    }

    @Override
    public Row toRow(int visibleColumns) {
        return new Row.Cells(visibleColumns == values.length ? values : Arrays.copyOf(values, visibleColumns));
    }
}
