package io.strata.kernel.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.strata.backend.jdbc.UnitConnection;
import io.strata.protocol.ServerStatus;
import io.strata.rule.StatementContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backend connections of one embedded session and its transaction: outside a transaction each statement takes
 * a pooled connection and gives it back when its answer is read; inside one (autocommit off, or after BEGIN) the
 * session keeps the connection of every data source it touches until COMMIT or ROLLBACK, which run on each in the
 * order they were touched (the proxy's LOCAL transactions). Isolation and read-only apply to every connection taken.
 * The units of one statement on several data sources take their connections at once, from their own threads.
 */
public final class SessionConnections implements AutoCloseable {

    private final Map<HikariDataSource, Lease> held = new LinkedHashMap<>();
    /** The statements running now, which a cancel stops. */
    private final Set<Statement> running = ConcurrentHashMap.newKeySet();
    private boolean autocommit = true;
    /** BEGIN or START TRANSACTION opened a transaction that COMMIT or ROLLBACK ends. */
    private boolean begun;
    /**
     * A statement left state on its connections (a user variable, a session variable, a temporary table, a lock):
     * the session keeps them to its end, and they are reset before they go back to their pools.
     */
    private boolean pinned;
    private int isolation = -1;
    private boolean readOnly;

    /** Keeps every connection the session touches from now on, and those it holds, to its end. */
    public synchronized void pin() {
        pinned = true;
    }

    /** Whether the session is in a transaction: autocommit off, or after BEGIN. */
    public boolean inTransaction() {
        return !autocommit || begun;
    }

    public boolean autocommit() {
        return autocommit;
    }

    /** The server status the session's statements see: AUTOCOMMIT, and IN_TRANS while it holds a transaction. */
    public synchronized int statusFlags() {
        int flags = autocommit ? ServerStatus.AUTOCOMMIT : 0;
        return inTransaction() && !held.isEmpty() ? flags | ServerStatus.IN_TRANS : flags;
    }

    /** The data sources whose connections the session keeps, for routing to keep its statements there. */
    public synchronized Map<String, StatementContext.Hold> held() {
        if (held.isEmpty()) {
            return Map.of();
        }
        Map<String, StatementContext.Hold> holds = new LinkedHashMap<>();
        held.values().forEach(lease -> holds.put(lease.dataSource, StatementContext.Hold.STATE));
        return holds;
    }

    /** The connection a statement runs on: the one the session holds on {@code pool}, else one taken from it. */
    synchronized Lease take(HikariDataSource pool, String dataSource) throws SQLException {
        Lease kept = held.get(pool);
        if (kept != null) {
            return kept;
        }
        Connection connection = pool.getConnection();
        try {
            if (inTransaction()) {
                connection.setAutoCommit(false);
            }
            if (isolation >= 0) {
                connection.setTransactionIsolation(isolation);
            }
            if (readOnly) {
                connection.setReadOnly(true);
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        Lease lease = new Lease(pool, dataSource, connection, inTransaction() || pinned);
        if (lease.kept) {
            held.put(pool, lease);
        }
        return lease;
    }

    /** BEGIN: a transaction open before it commits first, as on the server. */
    public synchronized void begin() throws SQLException {
        if (begun) {
            commit();
        }
        begun = true;
        transactionOnHeld();
    }

    /** A transaction starts on the connections the session already holds (pinned ones). */
    private void transactionOnHeld() throws SQLException {
        for (Lease lease : held.values()) {
            if (lease.connection.getAutoCommit()) {
                lease.connection.setAutoCommit(false);
            }
        }
    }

    /** JDBC's setAutoCommit and {@code SET autocommit}: turning it on commits the transaction in progress. */
    public synchronized void autocommit(boolean on) throws SQLException {
        if (on && inTransaction()) {
            commit();
        }
        autocommit = on;
        if (!on) {
            transactionOnHeld();
        }
    }

    /** Commits on every data source the transaction touched, in order; the first failure is thrown after the rest. */
    public synchronized void commit() throws SQLException {
        end(true);
    }

    /** Rolls back on every data source the transaction touched. */
    public synchronized void rollback() throws SQLException {
        end(false);
    }

    public void isolation(int level) throws SQLException {
        isolation = level;
        for (Lease lease : held.values()) {
            lease.connection.setTransactionIsolation(level);
        }
    }

    public int isolation() {
        return isolation;
    }

    public void readOnly(boolean on) {
        readOnly = on;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /** Stops every statement running now on the session's connections (KILL QUERY on each). */
    public void cancelRunning() {
        for (Statement statement : running) {
            try {
                statement.cancel();
            } catch (SQLException e) {
                // it ended meanwhile, or its connection broke: nothing runs there to stop
            }
        }
    }

    /**
     * The session ends: a transaction still open rolls back, and every connection goes back, reset first when the
     * session was pinned to it (COM_RESET_CONNECTION: its variables, temporary tables and locks go).
     */
    @Override
    public synchronized void close() {
        try {
            end(false);
        } catch (SQLException e) {
            // the connections that failed are gone from their pools; nothing else to do
        }
        for (Lease lease : held.values()) {
            try {
                lease.connection.unwrap(org.mariadb.jdbc.Connection.class).reset();
            } catch (SQLException e) {
                lease.lost(); // what it holds cannot be cleared: it must not serve another session
            }
            lease.kept = false;
            lease.closeIfUnused();
        }
        held.clear();
    }

    /**
     * Commits or rolls back on every connection in a transaction, in the order the session touched them; the first
     * failure is thrown after the rest. They go back to their pools, unless the session is pinned to them.
     */
    private synchronized void end(boolean commit) throws SQLException {
        begun = false;
        SQLException first = null;
        List<Lease> leases = new ArrayList<>(held.values());
        if (!pinned) {
            held.clear();
        }
        for (Lease lease : leases) {
            try {
                if (!lease.connection.getAutoCommit()) {
                    if (commit) {
                        lease.connection.commit();
                    } else {
                        lease.connection.rollback();
                    }
                    if (pinned && autocommit) {
                        lease.connection.setAutoCommit(true);
                    }
                }
            } catch (SQLException e) {
                if (first == null) {
                    first = new SQLException(e.getMessage() + " (data source " + lease.dataSource + ")",
                            e.getSQLState(), e.getErrorCode(), e);
                }
                lease.lost();
            }
            if (!pinned) {
                lease.kept = false;
                lease.closeIfUnused();
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** A connection a statement runs on, counted by the answers still reading from it. */
    final class Lease implements UnitConnection {
        private final HikariDataSource pool;
        private final String dataSource;
        private final Connection connection;
        private boolean kept;
        private int open;
        private boolean closed;

        Lease(HikariDataSource pool, String dataSource, Connection connection, boolean kept) {
            this.pool = pool;
            this.dataSource = dataSource;
            this.connection = connection;
            this.kept = kept;
        }

        @Override
        public Connection connection() {
            return connection;
        }

        String dataSource() {
            return dataSource;
        }

        /** An answer starts reading from the connection. */
        @Override
        public synchronized void opened() {
            open++;
        }

        @Override
        public void running(Statement statement) {
            running.add(statement);
        }

        @Override
        public void stopped(Statement statement) {
            running.remove(statement);
        }

        /** An answer was read (or dropped): the connection goes back when nothing else reads from or keeps it. */
        @Override
        public synchronized void done() {
            open--;
            closeIfUnused();
        }

        /**
         * The connection broke: it leaves its pool for good (a transaction it held then fails at its end, which
         * says so).
         */
        @Override
        public void lost() {
            pool.evictConnection(connection);
        }

        private synchronized void closeIfUnused() {
            if (open <= 0 && !kept && !closed) {
                closed = true;
                try {
                    connection.close();
                } catch (SQLException e) {
                    // HikariCP closes a connection it cannot reset
                }
            }
        }
    }
}
