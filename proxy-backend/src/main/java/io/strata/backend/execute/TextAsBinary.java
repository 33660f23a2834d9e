package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.ForwardingQueryResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;
import io.strata.protocol.ColumnType;
import io.strata.protocol.MySQLBuf;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A result set of text-protocol rows as an execute's client reads it: each row becomes cells the frontend writes
 * in the binary protocol (numbers parsed, dates and times as their text, everything else as its bytes). For the
 * units a rule rewrote, which run as text statements while the client executed a prepared one.
 */
final class TextAsBinary extends ForwardingQueryResult {

    TextAsBinary(QueryResult text) {
        super(text);
    }

    @Override
    public Row next() throws InterruptedException {
        Row row = rows.next();
        if (!(row instanceof Row.Packet packet) || packet.binary()) {
            return row;
        }
        try {
            return new Row.Cells(cells(packet.payload(), rows.columns()));
        } finally {
            packet.payload().release();
        }
    }

    /** A text row's values: NULL is 0xFB, every other value a length-encoded string. */
    static Object[] cells(ByteBuf payload, List<ColumnMetadata> columns) {
        byte[][] text = MySQLBuf.readTextRow(payload, columns.size());
        Object[] cells = new Object[text.length];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = text[i] == null ? null : value(text[i], columns.get(i).type());
        }
        return cells;
    }

    private static Object value(byte[] bytes, int type) {
        return switch (type) {
            case ColumnType.TINY, ColumnType.SHORT, ColumnType.YEAR, ColumnType.INT24, ColumnType.LONG,
                 ColumnType.LONGLONG -> new BigInteger(ascii(bytes)).longValue(); // unsigned BIGINT: its 64 bits
            case ColumnType.FLOAT -> Float.parseFloat(ascii(bytes));
            case ColumnType.DOUBLE -> Double.parseDouble(ascii(bytes));
            case ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP, ColumnType.TIME -> ascii(bytes);
            default -> bytes;
        };
    }

    private static String ascii(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
