package io.strata.backend.jdbc;

import io.strata.backend.result.StatementShape;
import io.strata.backend.result.ResultSink;
import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import io.strata.protocol.ServerStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The binary protocol over JDBC: statements are prepared on the server through MariaDB Connector/J (which caches
 * them per connection, so a statement is prepared once per pooled connection, not once per execute), parameters are
 * bound as the Java values the client's types decode to, and rows are read with their exact binary values.
 *
 * <p>Blocking: call it on a virtual thread, never on an event loop.
 */
public final class PreparedExecutor {

    private PreparedExecutor() {
    }

    /**
     * Prepares on the server; returns null when the server refused the statement (bad SQL), which the sink was told.
     *
     * @throws SQLException when the connection itself failed (SQLSTATE class 08): the caller must drop it
     */
    public static StatementShape prepare(Connection connection, String sql, int textCollationId, int maxBytesPerChar,
                                ResultSink sink) throws SQLException {
        try (PreparedStatement statement = serverPrepare(connection, sql)) {
            // Without the driver's own description (it defers a prepare the server refused) the standard metadata
            // prepares again, and its SQLException is the server's refusal for the client.
            Optional<List<List<ColumnMetadata>>> internal = DriverColumns.describePrepared(statement);
            List<List<ColumnMetadata>> described = internal.isPresent() ? internal.get()
                    : fromStandardMetadata(statement, textCollationId, maxBytesPerChar);
            return new StatementShape(inCharset(described.get(0), textCollationId, maxBytesPerChar),
                    inCharset(described.get(1), textCollationId, maxBytesPerChar),
                    JdbcExecutor.warnings(connection), JdbcExecutor.statusFlags(connection));
        } catch (SQLException e) {
            JdbcExecutor.statementError(e, sink);
            return null;
        }
    }

    /**
     * Runs a prepared statement with these parameter values; every result goes to the sink. With
     * {@code cursorRequested} and a result set, only its column definitions go, ended by CURSOR_EXISTS, and the
     * returned cursor holds the rows for COM_STMT_FETCH (the caller closes it); else returns null.
     *
     * @param values  one Java value per parameter (null for SQL NULL), bound with setObject
     * @param started told the running statement, to cancel it (KILL QUERY)
     * @throws SQLException when the connection itself failed (SQLSTATE class 08): the caller must drop it
     */
    public static Cursor execute(Connection connection, String sql, Object[] values, ResultSink sink,
                                 int textCollationId, int maxBytesPerChar, boolean cursorRequested,
                                 Consumer<Statement> started) throws SQLException, InterruptedException {
        PreparedStatement statement = null;
        try {
            statement = serverPrepare(connection, sql);
            started.accept(statement);
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    statement.setNull(i + 1, Types.NULL);
                } else {
                    statement.setObject(i + 1, values[i]);
                }
            }
            statement.setFetchSize(JdbcExecutor.FETCH_SIZE);
            boolean isResultSet = statement.execute();
            if (cursorRequested && isResultSet) {
                ResultSet rs = statement.getResultSet();
                List<ColumnMetadata> columns = JdbcColumns.describe(rs.getMetaData(), textCollationId,
                        maxBytesPerChar).stream().map(PreparedExecutor::asCursorColumn).toList();
                sink.cursorOpened(columns, JdbcExecutor.statusFlags(connection) | ServerStatus.CURSOR_EXISTS,
                        JdbcExecutor.warnings(connection));
                Cursor cursor = new Cursor(statement, rs, columns);
                statement = null; // the cursor's now
                return cursor;
            }
            JdbcExecutor.results(statement, isResultSet, sink, textCollationId, maxBytesPerChar, true);
            sink.finish();
            return null;
        } catch (SQLException e) {
            JdbcExecutor.statementError(e, sink);
            return null;
        } finally {
            if (statement != null) {
                statement.close(); // back to the driver's cache of prepared statements
            }
        }
    }

    /**
     * Puts the statement in the driver's per-connection cache prepared with the connection's variables made
     * {@code parsed} (another sql_mode than the session has now), then makes them {@code now} again. The server keeps
     * a statement's parse, so a session's later SET sql_mode must not change it. Returns false when the server
     * refused the statement, which the sink was told.
     *
     * @throws SQLException when the connection itself failed (SQLSTATE class 08): the caller must drop it
     */
    public static boolean prepareIn(Connection connection, String sql, JdbcSessionVariables variables,
                                    Map<String, String> parsed, Map<String, String> now, ResultSink sink)
            throws SQLException {
        variables.sync(connection, parsed);
        try (PreparedStatement cached = serverPrepare(connection, sql)) {
            cached.getMetaData(); // the driver defers a prepare it may send along with the execute
            return true; // closing gives it back to the driver's cache
        } catch (SQLException e) {
            JdbcExecutor.statementError(e, sink);
            return false;
        } finally {
            variables.sync(connection, now);
        }
    }

    /** The flags a column keeps in a temporary table (MariaDB's Field::make_new_field): no key flags. */
    private static final int CURSOR_FLAGS = ColumnType.FLAG_NOT_NULL | ColumnType.FLAG_BLOB | ColumnType.FLAG_UNSIGNED
            | ColumnType.FLAG_ZEROFILL | ColumnType.FLAG_BINARY | ColumnType.FLAG_ENUM | ColumnType.FLAG_SET
            | ColumnType.FLAG_NO_DEFAULT_VALUE;

    /**
     * A cursor's column as the server describes it: the server materializes a cursor's rows in a temporary table
     * and describes the columns of that.
     */
    private static ColumnMetadata asCursorColumn(ColumnMetadata c) {
        return c.withFlags(c.flags() & CURSOR_FLAGS);
    }

    /** Server-side prepare through the driver's per-connection cache, with generated keys for last insert id. */
    private static PreparedStatement serverPrepare(Connection connection, String sql) throws SQLException {
        return connection.unwrap(org.mariadb.jdbc.Connection.class).prepareInternal(sql,
                Statement.RETURN_GENERATED_KEYS, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, true);
    }

    private static List<ColumnMetadata> inCharset(List<ColumnMetadata> columns, int collationId, int maxBytes) {
        return columns.stream().map(c -> c.inCharset(collationId, maxBytes)).toList();
    }

    /** When the driver's internals are out of reach: result columns from JDBC, parameters as MariaDB shows them. */
    private static List<List<ColumnMetadata>> fromStandardMetadata(PreparedStatement statement, int collationId,
                                                                    int maxBytesPerChar) throws SQLException {
        ResultSetMetaData md = statement.getMetaData();
        List<ColumnMetadata> columns = md == null ? List.of() : JdbcColumns.describe(md, collationId, maxBytesPerChar);
        List<ColumnMetadata> params = new ArrayList<>();
        for (int i = statement.getParameterMetaData().getParameterCount(); i > 0; i--) {
            params.add(new ColumnMetadata("", "", "", "?", "", ColumnType.BINARY_COLLATION, 0,
                    ColumnType.NULL, ColumnType.FLAG_BINARY, 0, null, null, false));
        }
        return List.of(params, columns);
    }

    /** A result set held open between COM_STMT_FETCHes, on the connection the session keeps meanwhile. */
    public static final class Cursor implements AutoCloseable {

        private final PreparedStatement statement;
        private final ResultSet rs;
        private final List<ColumnMetadata> columns;

        private Cursor(PreparedStatement statement, ResultSet rs, List<ColumnMetadata> columns) {
            this.statement = statement;
            this.rs = rs;
            this.columns = columns;
        }

        public List<ColumnMetadata> columns() {
            return columns;
        }

        /**
         * Up to {@code rows} more rows, ended by CURSOR_EXISTS, or by LAST_ROW_SENT once the rows ran out (as the
         * server's own cursors say it). Returns whether they ran out; the cursor is then closed.
         */
        public boolean fetch(long rows, ResultSink sink) throws SQLException, InterruptedException {
            boolean ended;
            try {
                ended = JdbcExecutor.rows(rs, columns, sink, true, rows);
            } catch (SQLException e) {
                close();
                JdbcExecutor.statementError(e, sink); // a broken connection is thrown on
                return true;
            }
            Connection connection = statement.getConnection();
            int status = JdbcExecutor.statusFlags(connection);
            sink.endOfRows(status | (ended ? ServerStatus.LAST_ROW_SENT : ServerStatus.CURSOR_EXISTS),
                    JdbcExecutor.warnings(connection));
            sink.finish();
            if (ended) {
                close();
            }
            return ended;
        }

        @Override
        public void close() {
            try {
                rs.close();
                statement.close();
            } catch (SQLException e) {
                // the connection broke: whoever uses it next finds out
            }
        }
    }
}
