package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.strata.backend.jdbc.PreparedExecutor;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * What the JDBC executor keeps of one prepared statement between commands: its text as JDBC runs it, the sql_mode it
 * was prepared in, the long data sent for the next execute (COM_STMT_SEND_LONG_DATA, by parameter), and its open
 * cursor. Used by one command at a time, on the client's loop or the virtual thread running the command.
 */
final class JdbcStatement {

    private final String sql;
    private final String sqlMode;
    private final Map<Integer, ByteArrayOutputStream> longData = new HashMap<>();
    private volatile PreparedExecutor.Cursor cursor;

    /** @param sqlMode the session's sql_mode when it prepared the statement (null: the server's own) */
    JdbcStatement(String sql, String sqlMode) {
        this.sql = sql;
        this.sqlMode = sqlMode;
    }

    String sql() {
        return sql;
    }

    /** The sql_mode the statement was prepared in, which it keeps (null: the server's own). */
    String sqlMode() {
        return sqlMode;
    }

    /** Appends a piece of a parameter's value (the pieces of one parameter arrive in order). */
    void longData(int param, ByteBuf piece) {
        ByteArrayOutputStream value = longData.computeIfAbsent(param, p -> new ByteArrayOutputStream());
        byte[] bytes = new byte[piece.readableBytes()];
        piece.getBytes(piece.readerIndex(), bytes);
        value.writeBytes(bytes);
    }

    /** The long data sent since the last execute or reset, which it consumes (as the server does). */
    Map<Integer, byte[]> takeLongData() {
        if (longData.isEmpty()) {
            return Map.of();
        }
        Map<Integer, byte[]> values = new HashMap<>();
        longData.forEach((param, value) -> values.put(param, value.toByteArray()));
        longData.clear();
        return values;
    }

    PreparedExecutor.Cursor cursor() {
        return cursor;
    }

    /** Sets the open cursor (null: none) and returns the one before. */
    PreparedExecutor.Cursor cursor(PreparedExecutor.Cursor next) {
        PreparedExecutor.Cursor previous = cursor;
        cursor = next;
        return previous;
    }
}
