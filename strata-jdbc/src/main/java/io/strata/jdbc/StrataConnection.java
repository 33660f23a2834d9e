package io.strata.jdbc;

import io.strata.kernel.KernelSession;
import io.strata.kernel.Outcome;
import io.strata.kernel.Session;
import io.strata.kernel.SessionThread;
import io.strata.kernel.Statement;
import io.strata.kernel.jdbc.HandOff;
import io.strata.kernel.jdbc.JdbcSessionExecutor;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * A session of an embedded Strata: statements run through the kernel (rules, route, execute, merge, digests, slow
 * log, process list) on the application's thread, with no MySQL packets between the application and Strata.
 * Transactions are the proxy's: with auto-commit off, the session keeps a connection on each data source it touches
 * until {@link #commit} or {@link #rollback}, which end the transaction on all of them.
 *
 * <p>Like every JDBC connection, for one thread at a time.
 */
public final class StrataConnection implements Connection {

    /** What an embedded session tells the kernel it speaks: the protocol's 4.1 features, utf8mb4. */
    private static final int CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_TRANSACTIONS
            | Capabilities.CLIENT_DEPRECATE_EOF;
    private static final int UTF8MB4_GENERAL_CI = 45;

    private final EmbeddedStrata strata;
    private final Session session;
    private final HandOff handOff = new HandOff();
    private final JdbcSessionExecutor executor = new JdbcSessionExecutor(handOff);
    private final SessionThread thread;
    private final KernelSession kernelSession;
    private volatile boolean closed;

    StrataConnection(EmbeddedStrata strata, String user, String database) {
        this.strata = strata;
        this.session = new Session(strata.kernel().sessions().nextId(), null, new Session.Client() {
            @Override
            public void close() {
                closeQuietly();
            }

            @Override
            public void stopAtBoundary() {
                closeQuietly();
            }
        });
        this.thread = SessionThread.callers(strata.timers());
        session.login(user, CAPABILITIES, 0, UTF8MB4_GENERAL_CI);
        session.state().use(database, null);
        session.state().running(executor::cancel);
        strata.kernel().sessions().add(session);
        this.kernelSession = new KernelSession(strata.kernel(), session, thread, executor);
    }

    /**
     * Runs one statement through the kernel on this thread and returns its outcome; a failure is thrown as the
     * server's error would be by MariaDB Connector/J.
     */
    Outcome run(Statement statement, JdbcSessionExecutor.StatementOptions options) throws SQLException {
        checkOpen();
        executor.options(options);
        var answer = kernelSession.execute(statement);
        handOff.runPending();
        Outcome outcome = answer.join();
        if (outcome instanceof Outcome.Failure failure) {
            throw exception(failure.error());
        }
        return outcome;
    }

    /** Stops the statement the session runs now (Statement.cancel, from another thread). */
    void cancel() {
        executor.cancel();
    }

    /** The keys the last statement generated. */
    java.util.List<Long> generatedKeys() {
        return executor.generatedKeys();
    }

    SQLWarning statementWarnings() {
        return executor.warnings();
    }

    static SQLException exception(ErrPacket error) {
        return new SQLException(error.message(), error.sqlState(), error.errorCode());
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("Connection is closed", "08003");
        }
    }

    EmbeddedStrata strata() {
        return strata;
    }

    /** The data sources of the session's logical database, in the order its file declares them. */
    java.util.List<String> dataSources() {
        return java.util.List.copyOf(strata.database(database()).dataSources().keySet());
    }

    /** A pooled backend connection of one of them, for the caller to close (metadata questions). */
    java.sql.Connection backend(String dataSource) throws SQLException {
        return strata.kernel().runtime().jdbc().get(database(), dataSource, true).getConnection();
    }

    String url() {
        return strata.url();
    }

    String user() {
        return session.user();
    }

    /** The session's logical database. */
    String database() {
        return session.state().database();
    }

    @Override
    public java.sql.Statement createStatement() throws SQLException {
        checkOpen();
        return new StrataStatement(this);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        return new StrataPreparedStatement(this, sql);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw Unsupported.method("Connection.prepareCall (stored procedures: run CALL through a Statement)");
    }

    @Override
    public String nativeSQL(String sql) {
        return sql;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        inSession(() -> executor.connections().autocommit(autoCommit));
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return executor.connections().autocommit();
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        inSession(() -> executor.connections().commit());
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        inSession(() -> executor.connections().rollback());
    }

    /** A change of the session's transaction, made as a stage of the session (a timer may not race it). */
    private void inSession(SqlAction action) throws SQLException {
        SQLException[] failed = new SQLException[1];
        thread.execute(() -> {
            try {
                action.run();
            } catch (SQLException e) {
                failed[0] = e;
            }
            int flags = executor.connections().statusFlags();
            session.state().statusFlags(flags);
        });
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    @FunctionalInterface
    private interface SqlAction {
        void run() throws SQLException;
    }

    @Override
    public void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        executor.close();
        kernelSession.close();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new StrataDatabaseMetaData(this);
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        executor.connections().readOnly(readOnly);
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return executor.connections().readOnly();
    }

    /** The catalog is the logical database, as MariaDB Connector/J's catalog is the server's database. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        if (catalog == null || catalog.equals(database())) {
            return;
        }
        if (strata.database(catalog) == null) {
            throw exception(ErrorCode.BAD_DB.packet(catalog));
        }
        thread.execute(() -> session.state().use(catalog, null));
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return database();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        executor.connections().isolation(level);
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        int level = executor.connections().isolation();
        return level >= 0 ? level : TRANSACTION_REPEATABLE_READ;
    }

    /** The last update's warnings (as Connector/J's connection answers its last statement's). */
    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return executor.warnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        executor.clearWarnings();
    }

    @Override
    public java.sql.Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        forwardOnlyReadOnly(resultSetType, resultSetConcurrency);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        forwardOnlyReadOnly(resultSetType, resultSetConcurrency);
        return prepareStatement(sql);
    }

    private static void forwardOnlyReadOnly(int type, int concurrency) throws SQLException {
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw Unsupported.method("updatable result sets (ResultSet.CONCUR_UPDATABLE)");
        }
        if (type != ResultSet.TYPE_FORWARD_ONLY && type != ResultSet.TYPE_SCROLL_INSENSITIVE) {
            throw Unsupported.method("ResultSet.TYPE_SCROLL_SENSITIVE");
        }
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        return prepareCall(sql);
    }

    @Override
    public Map<String, Class<?>> getTypeMap() {
        return Map.of();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        throw Unsupported.method("Connection.setTypeMap");
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw Unsupported.method("Connection.setHoldability(CLOSE_CURSORS_AT_COMMIT)");
        }
    }

    @Override
    public int getHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw Unsupported.method("Connection.setSavepoint (run SAVEPOINT through a Statement)");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw Unsupported.method("Connection.setSavepoint (run SAVEPOINT through a Statement)");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw Unsupported.method("Connection.rollback(Savepoint)");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw Unsupported.method("Connection.releaseSavepoint");
    }

    @Override
    public java.sql.Statement createStatement(int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        return createStatement(resultSetType, resultSetConcurrency);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        return prepareStatement(sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        return prepareCall(sql);
    }

    /** Generated keys are always kept: JDBC's flag only says whether the application reads them. */
    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public Clob createClob() throws SQLException {
        throw Unsupported.method("Connection.createClob");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw Unsupported.method("Connection.createBlob");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw Unsupported.method("Connection.createNClob");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw Unsupported.method("Connection.createSQLXML");
    }

    /** Whether the session can run a statement: open, and its first data source answers within the time. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw new SQLException("timeout must not be negative", "22023");
        }
        if (closed || strata.isClosed()) {
            return false;
        }
        try (java.sql.Statement probe = createStatement()) {
            probe.setQueryTimeout(timeout);
            probe.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        // kept nowhere, as MariaDB Connector/J keeps it nowhere the server sees
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        // as above
    }

    @Override
    public String getClientInfo(String name) {
        return null;
    }

    @Override
    public Properties getClientInfo() {
        return new Properties();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw Unsupported.method("Connection.createArrayOf");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw Unsupported.method("Connection.createStruct");
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        setCatalog(schema);
    }

    /** Null, as MariaDB Connector/J's (the database is the catalog). */
    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void abort(Executor executor) {
        closeQuietly();
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) {
        // the backend connections keep their data sources' own timeouts
    }

    @Override
    public int getNetworkTimeout() {
        return 0;
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
}
