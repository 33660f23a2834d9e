package io.strata.backend.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads a result cell for a binary-protocol row: numbers as they are stored (a Long for every integer type, a Float,
 * a Double, so their exact bits survive), dates and times as the driver's text of them (the frontend writes their
 * fields), everything else as text or raw bytes as in text rows.
 */
public final class BinaryCells {

    private BinaryCells() {
    }

    public static Object read(ResultSet rs, int index, ColumnMetadata column) throws SQLException {
        Object value = switch (column.type()) {
            case ColumnType.TINY, ColumnType.SHORT, ColumnType.YEAR, ColumnType.INT24, ColumnType.LONG ->
                    rs.getLong(index);
            case ColumnType.LONGLONG -> (column.flags() & ColumnType.FLAG_UNSIGNED) != 0
                    ? unsigned(rs.getString(index)) : (Object) rs.getLong(index);
            case ColumnType.FLOAT -> rs.getFloat(index);
            case ColumnType.DOUBLE -> rs.getDouble(index);
            case ColumnType.NULL -> null;
            default -> column.binaryValue() ? rs.getBytes(index) : rs.getString(index);
        };
        return rs.wasNull() ? null : value;
    }

    /** BIGINT UNSIGNED above Long.MAX_VALUE: the same 8 bytes, read as a signed long. */
    private static Long unsigned(String text) {
        return text == null ? null : Long.parseUnsignedLong(text);
    }
}
