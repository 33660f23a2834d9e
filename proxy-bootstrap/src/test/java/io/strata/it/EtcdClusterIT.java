package io.strata.it;

import io.strata.bootstrap.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.strata.it.ClusterIT.await;
import static io.strata.it.ClusterIT.cluster;
import static io.strata.it.ClusterIT.configStatus;
import static io.strata.it.ClusterIT.connect;
import static io.strata.it.ClusterIT.connectionId;
import static io.strata.it.ClusterIT.marker;
import static io.strata.it.ClusterIT.member;
import static io.strata.it.ClusterIT.memberId;
import static io.strata.it.ClusterIT.processes;
import static io.strata.it.ClusterIT.reload;
import static io.strata.it.ClusterIT.writeApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cluster mode on etcd (Debian's etcd-server, which {@code .ci/run} installs; without it the suite skips itself,
 * saying so): the same registry contract as on ZooKeeper, on a real etcd server started for the test. Members
 * publish and apply versions, lease distinct worker ids, list each other's sessions, leave at once when closed, and
 * serve on while etcd is stopped, catching up when it is back.
 */
class EtcdClusterIT {

    private static final Path ETCD = Path.of("/usr/bin/etcd");

    @TempDir
    Path dir;
    private final List<AutoCloseable> running = new ArrayList<>();
    private Process etcd;

    @BeforeAll
    static void schemas() throws SQLException {
        Assumptions.assumeTrue(Files.isExecutable(ETCD), "this suite runs a real etcd server: apt-get install "
                + "etcd-server (.ci/run does)");
        ClusterIT.schemas();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : running.reversed()) {
            closeable.close();
        }
        if (etcd != null) {
            etcd.destroyForcibly().waitFor();
        }
    }

    @Test
    void membersShareVersionsWorkerIdsAndTheProcessListThroughEtcd() throws Exception {
        String endpoint = startEtcd(Ports.free(), Ports.free());
        Path conf1 = member(dir, "etcd", "e1", endpoint, "cluster_a", 6);
        Path conf2 = member(dir, "etcd", "e2", endpoint, "cluster_b", 6);
        Strata m1 = start(conf1);
        Strata m2 = start(conf2);
        try (Connection c1 = connect(m1); Statement s1 = c1.createStatement();
             Connection c2 = connect(m2); Statement s2 = c2.createStatement()) {
            assertEquals("cluster_a", marker(s2), "the first member's files are version 1");
            assertTrue(configStatus(s2).get("local_files").contains("dataSources changed [ds_0]"));
            List<List<String>> members = cluster(s1);
            assertEquals(2, members.size(), members.toString());
            assertEquals(2, members.stream().map(m -> m.get(4)).distinct().count(), "two worker ids: " + members);

            writeApp(conf1, "cluster_c");
            assertEquals(List.of("2 config-app.yaml: dataSources changed [ds_0] now"), reload(s1));
            assertEquals("cluster_c", marker(s2), "m2 ran version 2 before the answer");

            long other = connectionId(s2);
            assertTrue(processes(s1).containsKey(other), "m1 lists m2's session");

            m2.close();
            assertEquals(List.of(memberId(m1)), cluster(s1).stream().map(m -> m.get(0)).toList(),
                    "a member that stops leaves at once");
        }
    }

    /** etcd stopped: the member serves on and says so; etcd back (same data): it is ONLINE again and catches up. */
    @Test
    void aMemberServesOnWithoutEtcdAndCatchesUpWhenItIsBack() throws Exception {
        int client = Ports.free();
        int peer = Ports.free();
        String endpoint = startEtcd(client, peer);
        Path conf1 = member(dir, "etcd", "f1", endpoint, "cluster_a", 6);
        Strata m1 = start(conf1);
        try (Connection c1 = connect(m1); Statement s1 = c1.createStatement()) {
            etcd.destroyForcibly().waitFor();
            await(() -> cluster(s1).getFirst().get(3).startsWith("REGISTRY LOST"), "m1 sees etcd gone");
            assertEquals("cluster_a", marker(s1), "m1 serves on");

            startEtcd(client, peer);
            await(() -> cluster(s1).stream().anyMatch(m -> m.get(0).equals(memberId(m1))
                    && m.get(3).equals("ONLINE")), "m1 registered again");
            writeApp(conf1, Map.of("ds_0", "cluster_b"), "[]");
            assertEquals("2", reload(s1).getFirst().split(" ")[0]);
            assertEquals("cluster_b", marker(s1));
        }
    }

    /** Starts etcd on these ports with its data in {@code dir/etcd} (kept across restarts); its client endpoint. */
    private String startEtcd(int client, int peer) throws Exception {
        Path data = dir.resolve("etcd");
        String clientUrl = "http://127.0.0.1:" + client;
        String peerUrl = "http://127.0.0.1:" + peer;
        etcd = new ProcessBuilder(ETCD.toString(), "--name", "strata-it", "--data-dir", data.toString(),
                "--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl,
                "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
                "--initial-cluster", "strata-it=" + peerUrl)
                .redirectErrorStream(true).redirectOutput(dir.resolve("etcd.log").toFile()).start();
        await(() -> {
            if (!etcd.isAlive()) {
                throw new AssertionError("etcd exited: " + Files.readString(dir.resolve("etcd.log")));
            }
            try (Socket probe = new Socket("127.0.0.1", client)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        }, "etcd listening");
        return "127.0.0.1:" + client;
    }

    private Strata start(Path conf) {
        Strata strata = Strata.builder().confDir(conf).port(0).start();
        running.add(strata);
        return strata;
    }
}
