package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.strata.backend.result.ForwardingQueryResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;
import io.strata.protocol.MySQLBuf;
import io.strata.rule.RenamedTable;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A result set that names an actual table, shown with the table's logical name: a first column holding the actual
 * name (SHOW INDEX's and SHOW CREATE TABLE's {@code Table}), and a second holding a CREATE TABLE statement of it
 * (SHOW CREATE TABLE's), have the logical name instead, and an index named for the actual table
 * ({@code order_index_t_order_0}) the name the logical table knows ({@code order_index}), in SHOW INDEX's Key_name and
 * the CREATE TABLE statement's keys. Nothing else in the rows changes, so a column that happens to share a name keeps
 * it. Names compare as UTF-8 bytes.
 */
public final class RenamedTableResult extends ForwardingQueryResult {

    private final byte[] actual;
    private final byte[] logical;

    public RenamedTableResult(QueryResult rows, RenamedTable table) {
        super(rows);
        this.actual = table.actual().getBytes(StandardCharsets.UTF_8);
        this.logical = table.logical().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Row next() throws InterruptedException {
        Row row = rows.next();
        // the answering unit ran a text statement of its own (the actual table's name in it): its rows are text
        if (row instanceof Row.Cells cells) {
            return renamed(cells); // a JDBC unit's values
        }
        return row instanceof Row.Packet packet && !packet.binary() ? renamed(packet) : row;
    }

    /** The first three values (the only ones renamed) as UTF-8 bytes, renamed, and back in their own form. */
    private Row renamed(Row.Cells row) {
        Object[] values = row.values();
        byte[][] cells = new byte[Math.min(values.length, 3)][];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = values[i] instanceof String text ? text.getBytes(StandardCharsets.UTF_8)
                    : values[i] instanceof byte[] bytes ? bytes : null;
        }
        if (!rename(cells)) {
            return row;
        }
        Object[] out = values.clone();
        for (int i = 0; i < cells.length; i++) {
            if (values[i] instanceof String) {
                out[i] = new String(cells[i], StandardCharsets.UTF_8);
            } else if (values[i] instanceof byte[]) {
                out[i] = cells[i];
            }
        }
        return new Row.Cells(out);
    }

    private Row renamed(Row.Packet packet) {
        byte[][] cells = MySQLBuf.readTextRow(packet.payload(), columns().size());
        if (!rename(cells)) {
            return packet;
        }
        ByteBuf out = packet.payload().alloc().buffer(packet.payload().readableBytes() + logical.length * 2);
        for (byte[] cell : cells) {
            if (cell == null) {
                out.writeByte(0xFB);
            } else {
                MySQLBuf.writeBytesLenenc(out, cell);
            }
        }
        packet.payload().release();
        return new Row.Packet(out, false);
    }

    /** Renames in place; whether anything changed. */
    private boolean rename(byte[][] cells) {
        boolean changed = false;
        if (cells.length > 0 && Arrays.equals(cells[0], actual)) {
            cells[0] = logical;
            changed = true;
            // SHOW INDEX's Key_name: the index as the logical table knows it
            byte[] index = cells.length > 2 && cells[2] != null ? logicalIndex(cells[2]) : null;
            if (index != null) {
                cells[2] = index;
            }
        }
        byte[] statement = cells.length > 1 && cells[1] != null ? createTable(cells[1]) : null;
        if (statement != null) {
            cells[1] = indexesOf(statement);
            changed = true;
        }
        return changed;
    }

    /**
     * An index name of the actual table as the logical table knows it ({@code order_index_t_order_0} is
     * {@code order_index}: ShardingSphere's naming, which Strata's DDL follows), or null for another name.
     */
    private byte[] logicalIndex(byte[] name) {
        int keep = name.length - actual.length - 1;
        if (keep <= 0 || name[keep] != '_' || !Arrays.equals(name, keep + 1, name.length, actual, 0, actual.length)) {
            return null;
        }
        return Arrays.copyOf(name, keep);
    }

    /** A CREATE TABLE statement with each index ({@code KEY `name`}) named as the logical table knows it. */
    private byte[] indexesOf(byte[] statement) {
        String text = new String(statement, StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        for (int at = text.indexOf("KEY `"); at >= 0; at = text.indexOf("KEY `", at + 5)) {
            int start = at + 5;
            int end = text.indexOf('`', start);
            byte[] logicalName = end < 0 ? null
                    : logicalIndex(text.substring(start, end).getBytes(StandardCharsets.UTF_8));
            if (logicalName != null) {
                out.append(text, copied, start).append(new String(logicalName, StandardCharsets.UTF_8));
                copied = end;
            }
        }
        return copied == 0 ? statement : out.append(text.substring(copied)).toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    private static final byte[] CREATE_TABLE = "CREATE TABLE ".getBytes(StandardCharsets.US_ASCII);

    /**
     * A CREATE TABLE statement of the actual table with the logical name in its place, or null when the cell is not
     * one. The name is quoted as {@code sql_quote_show_create} and ANSI_QUOTES have it: in backquotes, double quotes
     * or none.
     */
    private byte[] createTable(byte[] cell) {
        int at = CREATE_TABLE.length;
        if (cell.length <= at + actual.length || !Arrays.equals(cell, 0, at, CREATE_TABLE, 0, at)) {
            return null;
        }
        int quote = cell[at] == '`' || cell[at] == '"' ? 1 : 0;
        int end = at + quote + actual.length;
        if (end + quote >= cell.length || !Arrays.equals(cell, at + quote, end, actual, 0, actual.length)
                || quote == 1 && cell[end] != cell[at] || quote == 0 && cell[end] != ' ' && cell[end] != '(') {
            return null;
        }
        byte[] renamed = new byte[cell.length - actual.length + logical.length];
        System.arraycopy(cell, 0, renamed, 0, at + quote);
        System.arraycopy(logical, 0, renamed, at + quote, logical.length);
        System.arraycopy(cell, end, renamed, at + quote + logical.length, cell.length - end);
        return renamed;
    }
}
