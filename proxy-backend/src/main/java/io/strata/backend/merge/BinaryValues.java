package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.ColumnType;

/**
 * Values read in place from a binary-protocol row: integers and floats at their type's width, little-endian; dates
 * and times as a length byte and their fields.
 */
final class BinaryValues {

    private BinaryValues() {
    }

    /** As {@link MergeRow#longValue}: {@code at} is where the value begins. */
    static long longValue(ByteBuf buf, int at, RowLayout layout, int column) {
        boolean unsigned = layout.unsigned(column);
        return switch (layout.type(column)) {
            case ColumnType.TINY -> unsigned ? buf.getUnsignedByte(at) : buf.getByte(at);
            case ColumnType.SHORT, ColumnType.YEAR -> unsigned ? buf.getUnsignedShortLE(at) : buf.getShortLE(at);
            case ColumnType.INT24, ColumnType.LONG -> unsigned ? buf.getUnsignedIntLE(at) : buf.getIntLE(at);
            case ColumnType.LONGLONG -> buf.getLongLE(at);
            case ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP -> dateTime(buf, at);
            case ColumnType.TIME -> time(buf, at);
            default -> throw new IllegalStateException("column " + column + " of type " + layout.type(column)
                    + " holds no integer");
        };
    }

    static double doubleValue(ByteBuf buf, int at, int type) {
        return type == ColumnType.FLOAT ? Float.intBitsToFloat(buf.getIntLE(at)) : buf.getDoubleLE(at);
    }

    /** Length 0, 4, 7 or 11, then year (2 bytes), month, day, hour, minute, second, microseconds (4 bytes). */
    private static long dateTime(ByteBuf buf, int at) {
        int length = buf.getUnsignedByte(at);
        if (length == 0) {
            return 0;
        }
        int year = buf.getUnsignedShortLE(at + 1);
        int month = buf.getUnsignedByte(at + 3);
        int day = buf.getUnsignedByte(at + 4);
        if (length < 7) {
            return DateTimes.pack(year, month, day, 0, 0, 0, 0);
        }
        return DateTimes.pack(year, month, day, buf.getUnsignedByte(at + 5), buf.getUnsignedByte(at + 6),
                buf.getUnsignedByte(at + 7), length < 11 ? 0 : buf.getUnsignedIntLE(at + 8));
    }

    /** Length 0, 8 or 12, then sign, days (4 bytes), hours, minutes, seconds, microseconds (4 bytes). */
    private static long time(ByteBuf buf, int at) {
        int length = buf.getUnsignedByte(at);
        if (length == 0) {
            return 0;
        }
        return DateTimes.time(buf.getByte(at + 1) == 1, buf.getUnsignedIntLE(at + 2), buf.getUnsignedByte(at + 6),
                buf.getUnsignedByte(at + 7), buf.getUnsignedByte(at + 8),
                length < 12 ? 0 : buf.getUnsignedIntLE(at + 9));
    }
}
