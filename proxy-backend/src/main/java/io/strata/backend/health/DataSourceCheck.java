package io.strata.backend.health;

import io.strata.backend.jdbc.ServerConnections;
import io.strata.config.DataSourceConfig;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.GtidPosition;
import io.strata.rule.health.HealthRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;

/**
 * One check of one data source over its own JDBC connection (kept open between checks, opened again after a
 * failure). A primary reports its GTID position; a replica its replication threads, lag and applied position.
 */
final class DataSourceCheck implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DataSourceCheck.class);

    private final DataSourceConfig dataSource;
    private final HealthRegistry.Watch watch;
    private final DataSourceStatus status;
    private final HealthMonitor.OnUnreachable onUnreachable;
    private Connection connection;
    private boolean mariaDb;
    /** What the log said last, so it speaks only of changes. */
    private Boolean loggedInRotation;
    /** Its monitor stopped (a stop, or a reload that started the next one): a check cut short says nothing. */
    private volatile boolean retired;

    DataSourceCheck(DataSourceConfig dataSource, HealthRegistry.Watch watch, HealthMonitor.OnUnreachable onUnreachable) {
        this.dataSource = dataSource;
        this.watch = watch;
        this.status = watch.status();
        this.onUnreachable = onUnreachable;
    }

    String name() {
        return status.database() + "/" + status.name();
    }

    void run() {
        try {
            if (watch.role() == HealthRegistry.Role.PRIMARY) {
                checkPrimary();
            } else {
                checkReplica();
            }
        } catch (SQLException | IllegalArgumentException e) {
            close();
            if (retired) {
                // its connection was closed under it: the status, which a reload's next checks share, stays
                return;
            }
            status.down("unreachable: " + e.getMessage(), status.lagSeconds());
            if (watch.role() == HealthRegistry.Role.REPLICA) {
                // Reads already waiting on it may wait for ever (a hung server keeps its sockets open): they go elsewhere.
                onUnreachable.replica(status.database(), status.name(), watch.check().timeoutMillis(),
                        "the health check finds the replica unreachable");
            }
        }
        if (loggedInRotation == null || loggedInRotation != status.inRotation()) {
            loggedInRotation = status.inRotation();
            if (status.inRotation()) {
                LOG.info("{} ({}) is in rotation: {}", name(), watch.role(), status.reason());
            } else {
                LOG.warn("{} ({}) left the rotation: {}", name(), watch.role(), status.reason());
            }
        }
    }

    private void checkPrimary() throws SQLException {
        Connection c = connection();
        long started = System.nanoTime();
        GtidPosition position = position(c, mariaDb ? "@@global.gtid_binlog_pos" : "@@global.gtid_executed");
        status.recordPosition(started, position);
        status.up("primary reachable", null, position);
    }

    private void checkReplica() throws SQLException {
        Connection c = connection();
        try (Statement statement = c.createStatement(); ResultSet rows = replicaStatus(statement)) {
            if (!rows.next()) {
                status.down("not replicating (SHOW SLAVE STATUS is empty)", null);
                return;
            }
            String io = column(rows, "Slave_IO_Running", "Replica_IO_Running");
            String sql = column(rows, "Slave_SQL_Running", "Replica_SQL_Running");
            String lagText = column(rows, "Seconds_Behind_Master", "Seconds_Behind_Source");
            Long lag = lagText == null ? null : Long.valueOf(lagText);
            GtidPosition position = position(c, mariaDb ? "@@global.gtid_slave_pos" : "@@global.gtid_executed");
            long max = watch.check().maxReplicationLagSeconds();
            // A replica whose IO thread reconnects still serves while its lag is known and small: the server
            // reports the lag as unknown (NULL) once it has applied everything it has and cannot reach its primary.
            if (!"Yes".equalsIgnoreCase(sql)) {
                status.down("replication stopped (SQL thread: " + sql + ")", lag);
            } else if (lag == null) {
                status.down("replication lag unknown (IO thread: " + io + ")", null);
            } else if (lag > max) {
                status.down("lag " + lag + " s > maxReplicationLag " + max + " s", lag);
            } else {
                status.up("replicating, lag " + lag + " s", lag, position);
            }
        }
    }

    /** MariaDB and MySQL before 8.0.22 know SHOW SLAVE STATUS; MySQL 8.0.22 and later prefer SHOW REPLICA STATUS. */
    private ResultSet replicaStatus(Statement statement) throws SQLException {
        if (mariaDb) {
            return statement.executeQuery("SHOW SLAVE STATUS");
        }
        try {
            return statement.executeQuery("SHOW REPLICA STATUS");
        } catch (SQLSyntaxErrorException e) {
            return statement.executeQuery("SHOW SLAVE STATUS");
        }
    }

    private static String column(ResultSet rows, String name, String newName) throws SQLException {
        try {
            return rows.getString(name);
        } catch (SQLException e) {
            return rows.getString(newName); // MySQL 8.0.22 renamed them
        }
    }

    private static GtidPosition position(Connection c, String variable) throws SQLException {
        try (Statement statement = c.createStatement(); ResultSet rows = statement.executeQuery("SELECT " + variable)) {
            rows.next();
            return GtidPosition.parse(rows.getString(1));
        }
    }

    private Connection connection() throws SQLException {
        if (connection != null && !connection.isClosed()) {
            return connection;
        }
        boolean own = watch.check().username() == null;
        connection = ServerConnections.open(dataSource, own ? dataSource.username() : watch.check().username(),
                own ? dataSource.password() : watch.check().password(), watch.check().timeoutMillis());
        mariaDb = connection.getMetaData().getDatabaseProductVersion().contains("MariaDB");
        return connection;
    }

    /** The monitor stops: a check running now ends without a verdict. */
    void retire() {
        retired = true;
        close();
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("closing the health check connection of {}: {}", name(), e.getMessage());
            }
            connection = null;
        }
    }
}
