package io.strata.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;
import io.strata.kernel.Outcome;
import io.strata.kernel.jdbc.JdbcSessionExecutor.StatementOptions;
import io.strata.protocol.ColumnType;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * A statement of an embedded session: each execute runs its text through the kernel, and holds its answer (rows, or
 * an update count and generated keys) until the next.
 */
class StrataStatement implements Statement {

    final StrataConnection connection;
    private StrataResultSet current;
    private long updateCount = -1;
    private List<Long> generatedKeys = List.of();
    /** An update's warnings, as the backend driver read them; null for none. */
    private SQLWarning warnings;
    private final List<String> batch = new ArrayList<>();
    private boolean closed;
    private boolean closeOnCompletion;
    private int fetchSize;
    private long maxRows;
    private int queryTimeout;

    StrataStatement(StrataConnection connection) {
        this.connection = connection;
    }

    /** Runs {@code statement} through the kernel; returns whether it answered with rows. */
    boolean run(io.strata.kernel.Statement statement) throws SQLException {
        checkOpen();
        closeCurrent();
        warnings = null;
        if (use(statement.sql())) {
            return false;
        }
        Outcome outcome = connection.run(statement, new StatementOptions(fetchSize, (int) Math.min(maxRows,
                Integer.MAX_VALUE), queryTimeout));
        switch (outcome) {
            case Outcome.Rows rows -> {
                current = new StrataResultSet(this, rows.rows());
                return true;
            }
            case Outcome.Update update -> {
                updateCount = update.update().affectedRows();
                generatedKeys = connection.generatedKeys();
                warnings = connection.statementWarnings();
                return false;
            }
            default -> throw new SQLException("unexpected answer from the kernel: " + outcome, "HY000");
        }
    }

    /** {@code USE db} switches the session's logical database, as the catalog does. */
    private boolean use(String sql) throws SQLException {
        String text = sql.strip();
        if (text.length() < 5 || !text.regionMatches(true, 0, "USE", 0, 3)
                || !Character.isWhitespace(text.charAt(3))) {
            return false;
        }
        String name = text.substring(4).strip();
        if (name.endsWith(";")) {
            name = name.substring(0, name.length() - 1).strip();
        }
        if (name.startsWith("`") && name.endsWith("`") && name.length() > 1) {
            name = name.substring(1, name.length() - 1).replace("``", "`");
        }
        connection.setCatalog(name);
        updateCount = 0;
        return true;
    }

    private void closeCurrent() {
        if (current != null) {
            current.close();
            current = null;
        }
        updateCount = -1;
        generatedKeys = List.of();
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("Cannot do an operation on a closed statement", "HY000");
        }
        connection.checkOpen();
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        return run(io.strata.kernel.Statement.text(sql)) ? current : empty();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return (int) executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        run(io.strata.kernel.Statement.text(sql));
        return Math.max(updateCount, 0);
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return run(io.strata.kernel.Statement.text(sql));
    }

    /** An executeQuery of a statement without rows answers an empty result set, as MariaDB Connector/J does. */
    ResultSet empty() {
        return new StrataResultSet(this, new Listed(List.of(), List.of()));
    }

    @Override
    public void close() {
        if (!closed) {
            closeCurrent();
            closed = true;
        }
    }

    @Override
    public int getMaxFieldSize() {
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) {
        // values are never cut
    }

    @Override
    public int getMaxRows() {
        return (int) Math.min(maxRows, Integer.MAX_VALUE);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() {
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        if (max < 0) {
            throw new SQLException("max rows cannot be negative", "22023");
        }
        maxRows = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) {
        // statements go to the backends as written
    }

    @Override
    public int getQueryTimeout() {
        return queryTimeout;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        if (seconds < 0) {
            throw new SQLException("query timeout cannot be negative", "22023");
        }
        queryTimeout = seconds;
    }

    @Override
    public void cancel() throws SQLException {
        checkOpen();
        connection.cancel();
    }

    /**
     * The last statement's warnings: an update's, or those of a result set of one data source (its statement's, read
     * by the backend driver, which asks the server only when it counted some). A merged result's are not gathered.
     */
    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return current != null ? current.statementWarnings() : warnings;
    }

    @Override
    public void clearWarnings() {
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw Unsupported.method("Statement.setCursorName");
    }

    @Override
    public ResultSet getResultSet() {
        return current;
    }

    @Override
    public int getUpdateCount() {
        return (int) getLargeUpdateCount();
    }

    @Override
    public long getLargeUpdateCount() {
        return current != null ? -1 : updateCount;
    }

    @Override
    public boolean getMoreResults() {
        closeCurrent();
        return false;
    }

    @Override
    public boolean getMoreResults(int current) {
        return getMoreResults();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        if (direction != ResultSet.FETCH_FORWARD) {
            throw Unsupported.method("Statement.setFetchDirection other than FETCH_FORWARD");
        }
    }

    @Override
    public int getFetchDirection() {
        return ResultSet.FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        if (rows < 0) {
            throw new SQLException("fetch size cannot be negative", "22023");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() {
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() {
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() {
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        batch.add(sql);
    }

    @Override
    public void clearBatch() {
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        return Arrays.stream(counts).mapToInt(c -> (int) c).toArray();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        List<String> statements = new ArrayList<>(batch);
        batch.clear();
        long[] counts = new long[statements.size()];
        List<Long> keys = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            try {
                run(io.strata.kernel.Statement.text(statements.get(i)));
                counts[i] = Math.max(updateCount, 0);
                keys.addAll(generatedKeys);
            } catch (SQLException e) {
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(),
                        Arrays.copyOf(counts, i), e);
            }
        }
        generatedKeys = keys;
        return counts;
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    /**
     * The keys the last execute generated, as MariaDB Connector/J gives them: one column {@code insert_id}, a row for
     * each (a multi-row INSERT's auto-increment keys follow its first one).
     */
    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        List<Long> keys = new ArrayList<>(generatedKeys);
        if (keys.size() == 1 && updateCount > 1) {
            long first = keys.get(0);
            for (long n = 1; n < updateCount; n++) {
                keys.add(first + n);
            }
        }
        ColumnMetadata column = new ColumnMetadata("", "", "", "insert_id", "", ColumnType.BINARY_COLLATION, 20,
                ColumnType.LONGLONG, ColumnType.FLAG_UNSIGNED | ColumnType.FLAG_BINARY, 0, null, null, false);
        List<Object[]> rows = keys.stream().map(k -> new Object[]{k}).toList();
        return new StrataResultSet(this, new Listed(List.of(column), rows));
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return execute(sql);
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void setPoolable(boolean poolable) {
    }

    @Override
    public boolean isPoolable() {
        return false;
    }

    @Override
    public void closeOnCompletion() {
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() {
        return closeOnCompletion;
    }

    @Override
    public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException {
        return Statement.super.enquoteIdentifier(identifier, alwaysQuote).replace('"', '`');
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    /** Rows Strata made itself (generated keys, metadata answers), held in memory. */
    static final class Listed implements QueryResult {
        private final List<ColumnMetadata> columns;
        private final Iterator<Object[]> rows;

        Listed(List<ColumnMetadata> columns, List<Object[]> rows) {
            this.columns = columns;
            this.rows = rows.iterator();
        }

        @Override
        public List<ColumnMetadata> columns() {
            return columns;
        }

        @Override
        public Row next() {
            return rows.hasNext() ? new Row.Cells(rows.next()) : null;
        }

        @Override
        public int statusFlags() {
            return 0;
        }

        @Override
        public int warnings() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
