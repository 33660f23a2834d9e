package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import io.strata.protocol.MySQLBuf;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A value the merge computed (a Long, a BigDecimal, a Double) as the server would send it in its column: COUNT as
 * a BIGINT, SUM and AVG of exact values as a DECIMAL at the column's decimals, of floating ones as a DOUBLE.
 */
final class ValueFormat {

    private ValueFormat() {
    }

    /** The value's text in a text-protocol row (and a DECIMAL's in a binary one). */
    static String text(Object value, ColumnMetadata column) {
        return switch (column.type()) {
            case ColumnType.TINY, ColumnType.SHORT, ColumnType.INT24, ColumnType.LONG, ColumnType.LONGLONG,
                 ColumnType.YEAR -> value instanceof BigDecimal decimal ? decimal.toBigInteger().toString()
                    : value.toString();
            case ColumnType.DECIMAL, ColumnType.NEWDECIMAL -> decimal(value)
                    .setScale(column.decimals(), RoundingMode.HALF_UP).toPlainString();
            case ColumnType.FLOAT, ColumnType.DOUBLE -> DoubleText.format(((Number) value).doubleValue(),
                    column.decimals());
            default -> value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
        };
    }

    /** The value in a binary-protocol row: numbers at their type's width, anything else as its text. */
    static void binary(ByteBuf out, Object value, ColumnMetadata column) {
        switch (column.type()) {
            case ColumnType.TINY -> out.writeByte(((Number) value).intValue());
            case ColumnType.SHORT, ColumnType.YEAR -> out.writeShortLE(((Number) value).intValue());
            case ColumnType.INT24, ColumnType.LONG -> out.writeIntLE(((Number) value).intValue());
            case ColumnType.LONGLONG -> out.writeLongLE(((Number) value).longValue());
            case ColumnType.FLOAT -> out.writeIntLE(Float.floatToRawIntBits(((Number) value).floatValue()));
            case ColumnType.DOUBLE -> out.writeLongLE(Double.doubleToRawLongBits(((Number) value).doubleValue()));
            default -> MySQLBuf.writeStringLenenc(out, text(value, column));
        }
    }

    /**
     * The value as a driver's cell: integers as Longs, DECIMAL as its text; a DOUBLE as a Double where the units'
     * cells hold Numbers ({@code numbers}: binary rows), else as its text.
     */
    static Object cell(Object value, ColumnMetadata column, boolean numbers) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] bytes) { // a string's bytes: a cell holds a string, or bytes where binary
            return column.collationId() == ColumnType.BINARY_COLLATION ? bytes
                    : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
        return switch (column.type()) {
            case ColumnType.TINY, ColumnType.SHORT, ColumnType.INT24, ColumnType.LONG, ColumnType.LONGLONG,
                 ColumnType.YEAR -> ((Number) value).longValue();
            case ColumnType.FLOAT, ColumnType.DOUBLE -> numbers ? ((Number) value).doubleValue() : text(value, column);
            default -> text(value, column);
        };
    }

    private static BigDecimal decimal(Object value) {
        return switch (value) {
            case BigDecimal decimal -> decimal;
            case Double d -> new BigDecimal(Double.toString(d));
            case Number number -> BigDecimal.valueOf(number.longValue());
            default -> new BigDecimal(value.toString());
        };
    }
}
