package io.strata.backend.deadlock;

import io.strata.backend.jdbc.ServerConnections;
import io.strata.config.DataSourceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One server's InnoDB lock waits, read over a JDBC connection of its own (kept between reads, opened again after a
 * failure), and KILL QUERY there. MariaDB and MySQL 5.7 list waits in information_schema.INNODB_LOCK_WAITS; MySQL 8
 * dropped that table for performance_schema, read through the sys schema's view. Reading INNODB_TRX needs the
 * PROCESS privilege: without it the server is left out of the check, and the log says so once.
 */
final class ServerLocks implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerLocks.class);
    private static final int TIMEOUT_MILLIS = 2000;
    private static final String INNODB_WAITS = """
            SELECT r.trx_mysql_thread_id, r.trx_id, UNIX_TIMESTAMP(r.trx_started), b.trx_mysql_thread_id, b.trx_id,
                   UNIX_TIMESTAMP(b.trx_started)
            FROM information_schema.INNODB_LOCK_WAITS w
            JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id
            JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id""";
    private static final String SYS_WAITS = """
            SELECT waiting_pid, waiting_trx_id, UNIX_TIMESTAMP(waiting_trx_started), blocking_pid, blocking_trx_id,
                   UNIX_TIMESTAMP(blocking_trx_started)
            FROM sys.innodb_lock_waits""";

    private final String server;
    private final DataSourceConfig dataSource;
    private Connection connection;
    private String query = INNODB_WAITS;
    /** Why the server cannot be read (logged once), or null. */
    private String unreadable;

    ServerLocks(String server, DataSourceConfig dataSource) {
        this.server = server;
        this.dataSource = dataSource;
    }

    String server() {
        return server;
    }

    /** The lock waits now; none when the server cannot be read (which is logged when it starts or stops). */
    List<LockWait> waits() {
        try {
            List<LockWait> waits = read();
            if (unreadable != null) {
                LOG.info("deadlock check: reading lock waits on {} again", server);
                unreadable = null;
            }
            return waits;
        } catch (SQLException e) {
            close();
            String why = e.getMessage();
            if (unreadable == null) {
                LOG.warn("deadlock check: cannot read lock waits on {} (data source {}), so cycles of waits across "
                        + "data sources that pass through it are not broken (innodb_lock_wait_timeout ends them): {}",
                        server, dataSource.name(), why);
            }
            unreadable = why;
            return List.of();
        }
    }

    private List<LockWait> read() throws SQLException {
        try (Statement statement = connection().createStatement();
             ResultSet rows = statement.executeQuery(query)) {
            List<LockWait> waits = new ArrayList<>();
            while (rows.next()) {
                waits.add(new LockWait(server, rows.getLong(1), rows.getString(2), rows.getLong(3), rows.getLong(4),
                        rows.getString(5), rows.getLong(6)));
            }
            return waits;
        } catch (SQLException e) {
            if (e.getErrorCode() == 1109 && query == INNODB_WAITS) { // unknown table: MySQL 8
                query = SYS_WAITS;
                return read();
            }
            throw e;
        }
    }

    /** Ends the statement the connection {@code thread} runs; its client gets ER_QUERY_INTERRUPTED. */
    void killQuery(long thread) throws SQLException {
        try (Statement statement = connection().createStatement()) {
            statement.execute("KILL QUERY " + thread);
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    private Connection connection() throws SQLException {
        if (connection != null) {
            return connection;
        }
        connection = ServerConnections.open(dataSource, dataSource.username(), dataSource.password(), TIMEOUT_MILLIS);
        return connection;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("deadlock check: closing the connection to {}: {}", server, e.getMessage());
            }
            connection = null;
        }
    }
}
