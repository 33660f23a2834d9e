package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import io.strata.protocol.MySQLBuf;
import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.SortKey;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Columns, rows and merges written the short way, for tests that make their own. */
final class TestRows {

    private static final int UTF8MB4_GENERAL_CI = 45;

    private TestRows() {
    }

    static ColumnMetadata column(String name, int type, int flags, int decimals) {
        return new ColumnMetadata("shop", "t", "t", name, name, ColumnType.BINARY_COLLATION, 20, type, flags,
                decimals, null, null, false);
    }

    static ColumnMetadata column(String name, int type) {
        return column(name, type, 0, 0);
    }

    static ColumnMetadata string(String name) {
        return new ColumnMetadata("shop", "t", "t", name, name, UTF8MB4_GENERAL_CI, 80, ColumnType.VAR_STRING, 0, 0,
                null, null, false);
    }

    /** A WEIGHT_STRING(...) column, as the server describes it. */
    static ColumnMetadata weight(String name) {
        return new ColumnMetadata("", "", "", "weight_string(" + name + ")", "", ColumnType.BINARY_COLLATION, 20,
                ColumnType.VAR_STRING, ColumnType.FLAG_BINARY, 39, null, null, true);
    }

    /** A text-protocol row in hex: each value's text as a length-encoded string, NULL as 0xFB. */
    static String text(Object... values) {
        ByteBuf out = Unpooled.buffer();
        for (Object value : values) {
            if (value == null) {
                out.writeByte(0xFB);
            } else {
                MySQLBuf.writeBytesLenenc(out, value instanceof byte[] bytes ? bytes
                        : value.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
        return ByteBufUtil.hexDump(out);
    }

    /** A binary-protocol row in hex, for integer, DOUBLE and string columns. */
    static String binary(List<ColumnMetadata> columns, Object... values) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(0);
        out.writeZero((values.length + 9) / 8);
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value == null) {
                int bit = i + 2;
                out.setByte(1 + bit / 8, out.getByte(1 + bit / 8) | 1 << bit % 8);
                continue;
            }
            switch (columns.get(i).type()) {
                case ColumnType.LONG -> out.writeIntLE(((Number) value).intValue());
                case ColumnType.LONGLONG -> out.writeLongLE(((Number) value).longValue());
                case ColumnType.DOUBLE -> out.writeLongLE(Double.doubleToRawLongBits(((Number) value).doubleValue()));
                default -> MySQLBuf.writeBytesLenenc(out, value instanceof byte[] bytes ? bytes
                        : value.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
        return ByteBufUtil.hexDump(out);
    }

    static SortKey asc(int column) {
        return new SortKey(column, false, -1);
    }

    static SortKey desc(int column) {
        return new SortKey(column, true, -1);
    }

    /** A string column ordered by its weight column. */
    static SortKey byWeight(int column, int weightColumn) {
        return new SortKey(column, false, weightColumn);
    }

    /** A merge of sorted units, nothing else: ORDER BY pushed to every unit, with or without LIMIT. */
    static QueryMerge orderBy(int visibleColumns, List<SortKey> order, long offset, long limit) {
        return new QueryMerge(visibleColumns, order, false, List.of(), false, List.of(), null, false, List.of(),
                offset, limit);
    }
}
