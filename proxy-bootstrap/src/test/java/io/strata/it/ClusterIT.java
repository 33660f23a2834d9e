package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.ReplicatedMariaDb;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cluster mode on real ZooKeeper servers in the JVM (Curator's curator-test): members share one configuration
 * through the registry, a publication reaches every member before RELOAD STRATA CONFIG answers, a member's own
 * differing files are reported and not applied, a member that loses the registry serves on and catches up. What each
 * member runs is read as its clients see it: which schema of the test's MariaDB a marker query reaches.
 */
class ClusterIT {

    private static final List<String> SCHEMAS = List.of("cluster_a", "cluster_b", "cluster_c");
    /** A SHARDING rule over cluster_a and cluster_b whose keys the members generate. */
    private static final String KEYED = """
            - type: SHARDING
              tables:
                t_key:
                  actualDataNodes: ds_${0..1}.t_key
                  databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: mod2 } }
                  keyGenerateStrategy: { column: id, keyGeneratorName: snowflake }
              shardingAlgorithms:
                mod2: { type: MOD, props: { sharding-count: 2 } }
              keyGenerators:
                snowflake: { type: SNOWFLAKE, props: { worker-id: 7 } }
            """;

    @TempDir
    Path dir;
    private final List<AutoCloseable> running = new ArrayList<>();

    @BeforeAll
    static void schemas() throws SQLException {
        for (String schema : SCHEMAS) {
            Backend.execute("CREATE DATABASE IF NOT EXISTS " + schema,
                    "CREATE TABLE IF NOT EXISTS " + schema + ".marker (id INT PRIMARY KEY, v VARCHAR(20))",
                    "REPLACE INTO " + schema + ".marker VALUES (1, '" + schema + "')",
                    "CREATE TABLE IF NOT EXISTS " + schema + ".t_key (id BIGINT PRIMARY KEY, member VARCHAR(30))",
                    "TRUNCATE TABLE " + schema + ".t_key");
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : running.reversed()) {
            closeable.close();
        }
    }

    @Test
    void membersShareOneConfigurationAndEveryMemberRunsAPublishedVersionBeforeTheAnswer() throws Exception {
        TestingServer zk = started(new TestingServer());
        String registry = zk.getConnectString();
        Path conf1 = member("m1", registry, "cluster_a");
        Path conf2 = member("m2", registry, "cluster_b"); // differs: the cluster's version wins, and it says so
        Path conf3 = member("m3", registry, "cluster_a");
        Strata m1 = start(conf1);
        Strata m2 = start(conf2);
        Strata m3 = start(conf3);
        try (Connection c1 = connect(m1); Statement s1 = c1.createStatement();
             Connection c2 = connect(m2); Statement s2 = c2.createStatement();
             Connection c3 = connect(m3); Statement s3 = c3.createStatement()) {
            assertEquals("cluster_a", marker(s2), "the registry's configuration, not the member's own files");
            assertTrue(configStatus(s2).get("local_files").contains("config-app.yaml: dataSources changed [ds_0]"),
                    configStatus(s2).get("local_files"));
            assertEquals("the same as the cluster's", configStatus(s3).get("local_files"));
            assertEquals("1", configStatus(s3).get("version"));

            List<List<String>> members = cluster(s3);
            assertEquals(List.of(memberId(m1), memberId(m2), memberId(m3)).stream().sorted().toList(),
                    members.stream().map(m -> m.get(0)).toList());
            assertTrue(members.stream().allMatch(m -> m.get(1).equals("1") && m.get(3).equals("ONLINE")), members
                    .toString());
            assertEquals(List.of(memberId(m3)), members.stream().filter(m -> m.get(5).equals("yes"))
                    .map(m -> m.get(0)).toList());
            assertEquals(3, members.stream().map(m -> m.get(4)).distinct().count(), "three worker ids: " + members);

            // m1 publishes: every member runs version 2 when the statement answers
            writeApp(conf1, "cluster_c");
            assertEquals(List.of("2 config-app.yaml: dataSources changed [ds_0] now"), reload(s1));
            assertEquals("cluster_c", marker(s1));
            assertEquals("cluster_c", marker(s2));
            assertEquals("cluster_c", marker(s3));
            Map<String, String> status = configStatus(s3);
            assertEquals("2", status.get("version"));
            assertTrue(status.get("loaded_by").startsWith("cluster version 2 published by " + memberId(m1)),
                    status.get("loaded_by"));
            assertTrue(cluster(s2).stream().allMatch(m -> m.get(1).equals("2")));

            // a mistake in m3's files is refused whole before any member sees it
            Files.writeString(conf3.resolve("config-app.yaml"), Files.readString(conf3.resolve("config-app.yaml"))
                    .replace("rules:", "rulez:"));
            SQLException refused = assertThrows(SQLException.class, () -> s3.executeQuery("RELOAD STRATA CONFIG"));
            assertEquals(1105, refused.getErrorCode());
            assertTrue(refused.getMessage().contains("rulez"), refused.getMessage());
            assertTrue(cluster(s1).stream().allMatch(m -> m.get(1).equals("2")), "nothing was published");
            assertEquals("cluster_c", marker(s2));

            // a member that stops leaves the list at once
            m3.close();
            assertEquals(List.of(memberId(m1), memberId(m2)).stream().sorted().toList(),
                    cluster(s1).stream().map(m -> m.get(0)).toList());
        }
    }

    /**
     * Three ZooKeeper servers; m1 knows only the first. While that one is down m1 serves on with what it has, m2
     * publishes (its answer names m1 as lagging), and once it is back m1 catches up by itself.
     */
    @Test
    void aMemberThatLosesTheRegistryServesOnAndCatchesUpWhenItReturns() throws Exception {
        TestingCluster zk = started(new TestingCluster(3));
        zk.start();
        List<InstanceSpec> servers = new ArrayList<>(zk.getInstances());
        InstanceSpec first = servers.getFirst();
        String others = servers.subList(1, 3).stream().map(InstanceSpec::getConnectString)
                .reduce((a, b) -> a + "," + b).orElseThrow();
        Path conf1 = member("m1", first.getConnectString(), "cluster_a", 20);
        Path conf2 = member("m2", others, "cluster_a", 20);
        writeApp(conf1, Map.of("ds_0", "cluster_a", "ds_1", "cluster_b"), KEYED);
        writeApp(conf2, Map.of("ds_0", "cluster_a", "ds_1", "cluster_b"), KEYED);
        Strata m1 = start(conf1);
        Strata m2 = start(conf2);
        try (Connection c1 = connect(m1); Statement s1 = c1.createStatement();
             Connection c2 = connect(m2); Statement s2 = c2.createStatement()) {
            assertEquals(2, cluster(s2).size());
            zk.killServer(first);
            await(() -> cluster(s1).getFirst().get(3).startsWith("REGISTRY LOST"), "m1 sees the registry gone");
            assertEquals("cluster_a", marker(s1), "m1 serves on");

            writeApp(conf2, Map.of("ds_0", "cluster_b", "ds_1", "cluster_b"), KEYED);
            List<String> answer = reload(s2);
            assertTrue(answer.contains("2 member " + memberId(m1) + " still runs version 1 not yet"),
                    answer.toString());
            assertEquals("cluster_b", marker(s2));
            assertEquals("cluster_a", marker(s1));
            // its worker id lease is trusted for half the session's time to live (10 s here), then keys are refused
            SQLException refused = awaitFailure(() -> s1.executeUpdate("INSERT INTO t_key (member) VALUES ('m1')"));
            assertTrue(refused.getMessage().contains("may be leased to another member"), refused.getMessage());

            zk.restartServer(first);
            await(() -> "2".equals(configStatus(s1).get("version")), "m1 catches up");
            assertEquals("cluster_b", marker(s1));
            assertEquals(1, s1.executeUpdate("INSERT INTO t_key (member) VALUES ('m1')"), "keys again");
            await(() -> cluster(s2).stream().allMatch(m -> m.get(1).equals("2") && m.get(3).equals("ONLINE")),
                    "m1 reports version 2 again");
        }
    }

    /**
     * Three members insert into a sharded table at once, each generating SNOWFLAKE keys: no key repeats (read on
     * the servers), and each member's keys carry its own leased worker id, not the worker-id prop they share.
     */
    @Test
    void membersGenerateKeysWithDistinctLeasedWorkerIds() throws Exception {
        Backend.execute("TRUNCATE TABLE cluster_a.t_key", "TRUNCATE TABLE cluster_b.t_key");
        TestingServer zk = started(new TestingServer());
        List<Strata> members = new ArrayList<>();
        for (String name : List.of("k1", "k2", "k3")) {
            Path conf = member(name, zk.getConnectString(), "cluster_a");
            writeApp(conf, Map.of("ds_0", "cluster_a", "ds_1", "cluster_b"), KEYED);
            members.add(start(conf));
        }
        List<Thread> writers = new ArrayList<>();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (Strata member : members) {
            writers.add(Thread.ofPlatform().start(() -> {
                try (Connection c = connect(member); Statement s = c.createStatement()) {
                    for (int i = 0; i < 300; i++) {
                        s.executeUpdate("INSERT INTO t_key (member) VALUES ('" + memberId(member) + "')");
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        for (Thread writer : writers) {
            writer.join();
        }
        assertEquals(List.of(), errors);
        Map<String, java.util.Set<Long>> workersByMember = new LinkedHashMap<>();
        java.util.Set<Long> keys = new java.util.HashSet<>();
        int rows = 0;
        for (String schema : List.of("cluster_a", "cluster_b")) {
            try (Connection direct = Backend.direct(); Statement st = direct.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, member FROM " + schema + ".t_key")) {
                while (rs.next()) {
                    rows++;
                    keys.add(rs.getLong(1));
                    workersByMember.computeIfAbsent(rs.getString(2), m -> new java.util.HashSet<>())
                            .add((rs.getLong(1) >> 12) & 1023);
                }
            }
        }
        assertEquals(900, rows);
        assertEquals(900, keys.size(), "no key repeats");
        assertEquals(3, workersByMember.size());
        assertTrue(workersByMember.values().stream().allMatch(w -> w.size() == 1), workersByMember.toString());
        assertEquals(3, workersByMember.values().stream().map(w -> w.iterator().next()).distinct().count(),
                "each member its own worker id: " + workersByMember);
        assertTrue(workersByMember.values().stream().noneMatch(w -> w.contains(7L)), "the prop's 7 is not used");
    }

    /**
     * A replica disabled on one member leaves every member's read rotation, a member started later included, until
     * it is enabled on another. Which server answered a read is read from the server itself (its port).
     */
    @Test
    void disablingAReplicaOnOneMemberDisablesItOnAll() throws Exception {
        TestingServer zk = started(new TestingServer());
        ReplicatedMariaDb group = started(ReplicatedMariaDb.start(0, 0, 1, "cluster_rw", "strata", "strata"));
        group.primary().createDatabase("cluster_rw", "checker", "checker");
        String rw = """
                databaseName: app
                dataSources:
                  primary: { url: "%s", username: strata, password: strata, maximumPoolSize: 4 }
                  replica_0: { url: "%s", username: strata, password: strata, maximumPoolSize: 4 }
                rules:
                  - type: READWRITE_SPLITTING
                    groups: [ { name: rw, writeDataSource: primary, readDataSources: [replica_0], readYourWrites: false } ]
                    healthCheck: { interval: 200, timeout: 1000 }
                """.formatted(group.primary().jdbcUrl("cluster_rw"), group.replicas().getFirst().jdbcUrl("cluster_rw"));
        List<Path> confs = new ArrayList<>();
        for (String name : List.of("r1", "r2", "r3")) {
            Path conf = member(name, zk.getConnectString(), "cluster_a");
            Files.writeString(conf.resolve("config-app.yaml"), rw);
            confs.add(conf);
        }
        Strata m1 = start(confs.get(0));
        Strata m2 = start(confs.get(1));
        long primary = group.primary().port();
        long replica = group.replicas().getFirst().port();
        try (Connection c1 = connect(m1); Statement s1 = c1.createStatement();
             Connection c2 = connect(m2); Statement s2 = c2.createStatement()) {
            await(() -> port(s2) == replica, "m2 reads from the replica once it is checked");

            s1.execute("ALTER STRATA DATA SOURCE app.replica_0 DISABLE");
            assertEquals(primary, port(s1), "this member at once");
            await(() -> port(s2) == primary, "the other member follows");
            Strata m3 = start(confs.get(2));
            try (Connection c3 = connect(m3); Statement s3 = c3.createStatement()) {
                Thread.sleep(1000); // the checks have found the replica healthy: only the switch keeps it out
                for (int i = 0; i < 5; i++) {
                    assertEquals(primary, port(s3), "a member started later follows it too");
                }
                s3.execute("ALTER STRATA DATA SOURCE app.replica_0 ENABLE");
                await(() -> port(s1) == replica && port(s2) == replica && port(s3) == replica, "enabled on all");
            }
        }
    }

    /**
     * SHOW PROCESSLIST on one member lists the sessions of all, with ids unique across them; KILL QUERY and KILL on
     * one member reach the session another member holds; a user who is no administrator sees and kills only the
     * user's own sessions, wherever they are.
     */
    @Test
    void theProcessListAndKillSpanTheMembers() throws Exception {
        TestingServer zk = started(new TestingServer());
        Strata m1 = start(member("p1", zk.getConnectString(), "cluster_a"));
        Strata m2 = start(member("p2", zk.getConnectString(), "cluster_a"));
        try (Connection admin = connect(m1); Statement s1 = admin.createStatement();
             Connection sleeper = connect(m2); Statement slow = sleeper.createStatement();
             Connection app = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + m2.port()
                     + "/app?user=app&password=app"); Statement appStatement = app.createStatement()) {
            long sleeperId = connectionId(slow);
            long adminId = connectionId(s1);
            assertTrue(sleeperId != adminId);
            var sleeping = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try (ResultSet rs = slow.executeQuery("SELECT SLEEP(30)")) {
                    rs.next();
                    return rs.getLong(1);
                } catch (SQLException e) {
                    return (long) -e.getErrorCode();
                }
            });
            await(() -> processes(s1).getOrDefault(sleeperId, "").equals("SELECT SLEEP(30)"),
                    "m1 lists m2's running statement");
            Map<Long, String> all = processes(s1);
            assertTrue(all.containsKey(adminId) && all.containsKey(connectionId(appStatement)), all.toString());

            long started = System.nanoTime();
            s1.execute("KILL QUERY " + sleeperId);
            assertEquals(-1317L, sleeping.get(10, java.util.concurrent.TimeUnit.SECONDS),
                    "ER_QUERY_INTERRUPTED: the server stopped the statement");
            assertTrue(System.nanoTime() - started < 10_000_000_000L);
            assertTrue(sleeper.isValid(2), "KILL QUERY leaves the connection");

            SQLException denied = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + m1.port()
                            + "/app?user=app&password=app").createStatement().execute("KILL " + sleeperId));
            assertEquals(1095, denied.getErrorCode(), denied.getMessage());
            assertEquals(1094, assertThrows(SQLException.class, () -> s1.execute("KILL 4194303999"))
                    .getErrorCode());

            s1.execute("KILL " + sleeperId);
            await(() -> !sleeper.isValid(1), "KILL closes the connection on m2");
            await(() -> !processes(s1).containsKey(sleeperId), "and it leaves the list");
        }
    }

    static long connectionId(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /** SHOW FULL PROCESSLIST: Info by Id. */
    static Map<Long, String> processes(Statement st) throws SQLException {
        Map<Long, String> rows = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery("SHOW FULL PROCESSLIST")) {
            while (rs.next()) {
                rows.put(rs.getLong("Id"), rs.getString("Info") == null ? "" : rs.getString("Info"));
            }
        }
        return rows;
    }

    static long port(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT @@port")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /**
     * A member process killed with SIGKILL (no goodbye to the registry) leaves the other members' list within its
     * session's time to live (10 s here), and its worker id is free for the next member.
     */
    @Test
    void aKilledMemberLeavesTheListWithinTheSessionTimeout() throws Exception {
        TestingServer zk = started(new TestingServer());
        Strata m1 = start(member("s1", zk.getConnectString(), "cluster_a"));
        Path conf2 = member("s2", zk.getConnectString(), "cluster_a");
        int port = Ports.free();
        Files.writeString(conf2.resolve("server.yaml"), Files.readString(conf2.resolve("server.yaml"))
                .replace("port: 3307", "port: " + port));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.strata.bootstrap.Main", "-c", conf2.toString())
                .redirectErrorStream(true).redirectOutput(conf2.resolve("strata.log").toFile()).start();
        try (Connection c1 = connect(m1); Statement s1 = c1.createStatement()) {
            await(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError("the member exited: " + Files.readString(conf2.resolve("strata.log")));
                }
                return cluster(s1).size() == 2;
            }, "the second member registered");
            String workerOfKilled = cluster(s1).stream().filter(m -> m.get(0).equals("127.0.0.1:" + port))
                    .findFirst().orElseThrow().get(4);
            process.destroyForcibly().waitFor();
            long killed = System.nanoTime();
            await(() -> cluster(s1).size() == 1, "the killed member leaves the list");
            assertTrue(System.nanoTime() - killed < 20_000_000_000L, "within the session timeout and a margin");
            Strata m3 = start(member("s3", zk.getConnectString(), "cluster_a"));
            assertEquals(workerOfKilled, cluster(s1).stream().filter(m -> m.get(0).equals(memberId(m3)))
                    .findFirst().orElseThrow().get(4), "the lowest free worker id is the killed member's");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void aRegistryThatCannotBeReachedStopsTheStartNamingIt() throws Exception {
        int nobody = Ports.free();
        Path conf = member("lonely", "127.0.0.1:" + nobody, "cluster_a");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> start(conf));
        assertTrue(e.getMessage().contains("cannot reach the registry ZooKeeper 127.0.0.1:" + nobody), e.getMessage());
    }

    private <T extends AutoCloseable> T started(T closeable) {
        running.add(closeable);
        return closeable;
    }

    private Strata start(Path conf) {
        return started(Strata.builder().confDir(conf).port(0).start());
    }

    /** A member's conf folder: a ds_0 in {@code schema}, registry props kept short for the test. */
    private Path member(String name, String registry, String schema) throws IOException {
        return member(name, registry, schema, 10);
    }

    private Path member(String name, String registry, String schema, int timeToLiveSeconds) throws IOException {
        return member(dir, "ZooKeeper", name, registry, schema, timeToLiveSeconds);
    }

    /** A member's conf folder under {@code dir}, on a registry of {@code repositoryType}. */
    static Path member(Path dir, String repositoryType, String name, String registry, String schema,
                       int timeToLiveSeconds) throws IOException {
        Path conf = Files.createDirectories(dir.resolve(name));
        Files.writeString(conf.resolve("server.yaml"), """
                mode:
                  type: Cluster
                  repository:
                    type: %s
                    props:
                      namespace: %s
                      server-lists: "%s"
                      retryIntervalMilliseconds: 100
                      maxRetries: 2
                      timeToLiveSeconds: %d
                      operationTimeoutMilliseconds: 1000
                server: { host: 127.0.0.1, port: 3307, executor: %s }
                users:
                  - { name: root, password: root, databases: ["*"], admin: true }
                  - { name: app, password: app, databases: [app] }
                """.formatted(repositoryType, "strata_it_" + dir.getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_"),
                registry, timeToLiveSeconds, StrataFixture.executor()));
        writeApp(conf, schema);
        return conf;
    }

    static void writeApp(Path conf, String schema) throws IOException {
        writeApp(conf, Map.of("ds_0", schema), "[]");
    }

    /** @param dataSources name to schema */
    static void writeApp(Path conf, Map<String, String> dataSources, String rules) throws IOException {
        StringBuilder yaml = new StringBuilder("databaseName: app\ndataSources:\n");
        new java.util.TreeMap<>(dataSources).forEach((name, schema) -> yaml.append("  ").append(name)
                .append(": { url: \"").append(Backend.server().jdbcUrl(schema))
                .append("\", username: strata, password: strata, maximumPoolSize: 4 }\n"));
        yaml.append(rules.equals("[]") ? "rules: []\n" : "rules:\n" + rules);
        Files.writeString(conf.resolve("config-app.yaml"), yaml.toString());
    }

    static String memberId(Strata member) {
        return "127.0.0.1:" + member.port();
    }

    static Connection connect(Strata strata) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + strata.port() + "/app?user=root"
                + "&password=root");
    }

    static String marker(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT v FROM marker WHERE id = 1")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** RELOAD STRATA CONFIG's rows, each as "version change applied". */
    static List<String> reload(Statement st) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("RELOAD STRATA CONFIG")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        return rows;
    }

    /** SHOW STRATA CLUSTER's rows: member, version, up_since, state, worker_id, this. */
    static List<List<String>> cluster(Statement st) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SHOW STRATA CLUSTER")) {
            while (rs.next()) {
                rows.add(java.util.Arrays.asList(rs.getString("member"), rs.getString("version"),
                        rs.getString("up_since"), rs.getString("state"), rs.getString("worker_id"),
                        rs.getString("this")));
            }
        }
        return rows;
    }

    interface Failing {
        void run() throws SQLException;
    }

    /** Runs {@code statement} until it fails (up to 30 s): the failure. */
    static SQLException awaitFailure(Failing statement) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                statement.run();
            } catch (SQLException e) {
                return e;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the statement never failed");
    }

    static Map<String, String> configStatus(Statement st) throws SQLException {
        Map<String, String> items = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery("SHOW STRATA CONFIG")) {
            while (rs.next()) {
                items.put(rs.getString("item"), rs.getString("value"));
            }
        }
        return items;
    }

    interface Check {
        boolean holds() throws Exception;
    }

    static void await(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (check.holds()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
