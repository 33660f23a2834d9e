package io.strata.backend.jdbc;

import io.strata.backend.result.ResultSink;
import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import io.strata.protocol.ServerStatus;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Runs one COM_QUERY text over JDBC and streams every result it produces into a {@link ResultSink}: result sets
 * row by row (the driver streams them too, by fetch size), update counts with last insert id, the server's own
 * status flags and warning count, and backend errors with their own code, SQLSTATE and message.
 *
 * <p>Blocking: call it on a virtual thread, never on an event loop.
 */
public final class JdbcExecutor {

    /** Rows the driver reads at a time: results stream instead of filling the heap. */
    static final int FETCH_SIZE = 256;

    private JdbcExecutor() {
    }

    /**
     * Runs the statements of one COM_QUERY one after the other, as the server runs a text of several: their
     * results follow each other, and the first error ends them; returns false when one did (the sink was told).
     * One by one, because the driver reads all results of a multi-statement text before it answers: the status
     * flags of each would be lost, and with a failing statement the results before it too.
     *
     * @throws SQLException when the connection itself failed (SQLSTATE class 08): the caller must drop it
     */
    public static boolean execute(Statement statement, List<String> statements, ResultSink sink, int textCollationId,
                                  int maxBytesPerChar) throws SQLException, InterruptedException {
        try {
            statement.setFetchSize(FETCH_SIZE);
            for (String sql : statements) {
                results(statement, statement.execute(sql, Statement.RETURN_GENERATED_KEYS), sink, textCollationId,
                        maxBytesPerChar, false);
            }
            sink.finish();
            return true;
        } catch (SQLException e) {
            return statementError(e, sink);
        }
    }

    /**
     * Streams every result of an executed statement into the sink, the first being a result set or not; the
     * caller says {@link ResultSink#finish()} once no statement follows.
     */
    static void results(Statement statement, boolean isResultSet, ResultSink sink, int textCollationId,
                        int maxBytesPerChar, boolean binary) throws SQLException, InterruptedException {
        Connection connection = statement.getConnection();
        while (true) {
            if (isResultSet) {
                try (ResultSet rs = statement.getResultSet()) {
                    List<ColumnMetadata> columns = JdbcColumns.describe(rs.getMetaData(), textCollationId,
                            maxBytesPerChar);
                    sink.columns(columns, statusFlags(connection));
                    rows(rs, columns, sink, binary, Long.MAX_VALUE);
                    sink.endOfRows(statusFlags(connection), warnings(connection));
                }
            } else {
                sink.update(statement.getLargeUpdateCount(), lastInsertId(statement), statusFlags(connection),
                        warnings(connection));
            }
            isResultSet = statement.getMoreResults(Statement.CLOSE_CURRENT_RESULT);
            if (!isResultSet && statement.getLargeUpdateCount() == -1) {
                return;
            }
        }
    }

    /**
     * A statement's own error goes to the sink (returns false); a failed connection (SQLSTATE class 08) is thrown
     * for the caller to drop it.
     */
    public static boolean statementError(SQLException e, ResultSink sink) throws SQLException {
        if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
            throw e;
        }
        sink.error(e.getErrorCode(), e.getSQLState() == null ? "HY000" : e.getSQLState(), message(e));
        return false;
    }

    /** Up to {@code limit} rows into the sink; returns whether the result set ended. */
    static boolean rows(ResultSet rs, List<ColumnMetadata> columns, ResultSink sink, boolean binary, long limit)
            throws SQLException, InterruptedException {
        Object[] cells = new Object[columns.size()];
        for (long row = 0; row < limit; row++) {
            if (!rs.next()) {
                return true;
            }
            for (int i = 0; i < cells.length; i++) {
                ColumnMetadata column = columns.get(i);
                cells[i] = binary ? BinaryCells.read(rs, i + 1, column) : textCell(rs, i + 1, column);
            }
            sink.row(cells);
        }
        return false;
    }

    /** A value as the text protocol has it: bytes for a binary column, else its text. */
    static Object textCell(ResultSet rs, int index, ColumnMetadata column) throws SQLException {
        return column.binaryValue() ? rs.getBytes(index) : text(rs.getString(index), column);
    }

    /**
     * The server writes fractional seconds with exactly the column's decimals; the driver pads them to six.
     */
    static String text(String value, ColumnMetadata column) {
        if (value == null) {
            return null;
        }
        int type = column.type();
        if (type != ColumnType.DATETIME && type != ColumnType.TIMESTAMP && type != ColumnType.TIME) {
            return value;
        }
        int dot = value.lastIndexOf('.');
        if (dot < 0) {
            return value;
        }
        int decimals = Math.min(column.decimals(), 6);
        return decimals == 0 ? value.substring(0, dot) : value.substring(0, Math.min(value.length(),
                dot + 1 + decimals));
    }

    private static long lastInsertId(Statement statement) throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            long id = 0;
            while (keys.next()) {
                id = keys.getLong(1);
            }
            return id;
        }
    }

    /**
     * The server status flags MariaDB Connector/J last saw, without MORE_RESULTS_EXISTS: the driver may have read
     * ahead, so the sink sets that flag itself once it knows whether another result follows.
     */
    public static int statusFlags(Connection connection) throws SQLException {
        return connection.unwrap(org.mariadb.jdbc.Connection.class).getContext().getServerStatus()
                & ~ServerStatus.MORE_RESULTS_EXISTS;
    }

    public static int warnings(Connection connection) throws SQLException {
        return connection.unwrap(org.mariadb.jdbc.Connection.class).getContext().getWarning();
    }

    /** MariaDB Connector/J prefixes messages with "(conn=N) "; the client should see the server's own words. */
    public static String message(SQLException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.startsWith("(conn=")) {
            int end = message.indexOf(") ");
            if (end > 0) {
                message = message.substring(end + 2);
            }
        }
        return message;
    }
}
