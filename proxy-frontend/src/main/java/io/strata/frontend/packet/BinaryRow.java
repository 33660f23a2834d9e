package io.strata.frontend.packet;

import io.netty.buffer.ByteBuf;
import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.nio.charset.Charset;
import java.util.List;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_binary_resultset.html">
 * ProtocolBinary::ResultsetRow</a>: header 0x00, a NULL bitmap offset by two bits, then each non-NULL value in its
 * column type's binary form. Integers and floats are written at their type's width, dates and times as the
 * shortest form holding their fields (as the server does), everything else as a length-encoded string.
 */
public final class BinaryRow {

    private BinaryRow() {
    }

    /**
     * @param cells a Number for integer and floating-point columns, the text of a date or time, else raw bytes or
     *              text for the client's character set; null is SQL NULL
     */
    public static void write(ByteBuf out, Object[] cells, List<ColumnMetadata> columns, Charset charset) {
        out.writeByte(0x00);
        int bitmap = out.writerIndex();
        out.writeZero((cells.length + 9) / 8);
        for (int i = 0; i < cells.length; i++) {
            Object cell = cells[i];
            if (cell == null) {
                int bit = i + 2;
                out.setByte(bitmap + bit / 8, out.getByte(bitmap + bit / 8) | 1 << (bit % 8));
                continue;
            }
            switch (columns.get(i).type()) {
                case ColumnType.TINY -> out.writeByte(((Number) cell).intValue());
                case ColumnType.SHORT, ColumnType.YEAR -> out.writeShortLE(((Number) cell).intValue());
                case ColumnType.INT24, ColumnType.LONG -> out.writeIntLE(((Number) cell).intValue());
                case ColumnType.LONGLONG -> out.writeLongLE(((Number) cell).longValue());
                case ColumnType.FLOAT -> out.writeIntLE(Float.floatToRawIntBits(((Number) cell).floatValue()));
                case ColumnType.DOUBLE -> out.writeLongLE(Double.doubleToRawLongBits(((Number) cell).doubleValue()));
                case ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP -> dateTime(out, cell.toString());
                case ColumnType.TIME -> time(out, cell.toString());
                default -> TextRow.writeCell(out, cell, charset);
            }
        }
    }

    /** "YYYY-MM-DD[ hh:mm:ss[.ffffff]]" as length 0, 4, 7 or 11 and the fields. */
    static void dateTime(ByteBuf out, String text) {
        int[] f = fields(text, 7);
        int length = f[6] != 0 ? 11 : f[3] != 0 || f[4] != 0 || f[5] != 0 ? 7
                : f[0] != 0 || f[1] != 0 || f[2] != 0 ? 4 : 0;
        out.writeByte(length);
        if (length >= 4) {
            out.writeShortLE(f[0]).writeByte(f[1]).writeByte(f[2]);
        }
        if (length >= 7) {
            out.writeByte(f[3]).writeByte(f[4]).writeByte(f[5]);
        }
        if (length == 11) {
            out.writeIntLE(f[6]);
        }
    }

    /** "[-]hhh:mm:ss[.ffffff]" as length 0, 8 or 12, sign, days, and the fields. */
    static void time(ByteBuf out, String text) {
        boolean negative = text.startsWith("-");
        int[] f = fields(negative ? text.substring(1) : text, 4);
        int days = f[0] / 24;
        int hours = f[0] % 24;
        int length = f[3] != 0 ? 12 : days != 0 || hours != 0 || f[1] != 0 || f[2] != 0 ? 8 : 0;
        out.writeByte(length);
        if (length >= 8) {
            out.writeByte(negative ? 1 : 0).writeIntLE(days).writeByte(hours).writeByte(f[1]).writeByte(f[2]);
        }
        if (length == 12) {
            out.writeIntLE(f[3]);
        }
    }

    /** The numbers of a date or time text in order; the last one, after a '.', as microseconds. */
    private static int[] fields(String text, int count) {
        int[] fields = new int[count];
        int field = 0;
        int digits = 0;
        boolean fraction = false;
        for (int i = 0; i < text.length() && field < count; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (!fraction || digits < 6) {
                    fields[field] = fields[field] * 10 + (c - '0');
                    digits++;
                }
            } else {
                if (fraction) {
                    break;
                }
                field++;
                digits = 0;
                fraction = c == '.';
                if (fraction) {
                    field = count - 1;
                }
            }
        }
        if (fraction) {
            for (; digits < 6; digits++) {
                fields[count - 1] *= 10;
            }
        }
        return fields;
    }
}
