package io.strata.config;

import static io.strata.config.ConfigFiles.assertRejected;
import static io.strata.config.ConfigFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server.yaml's mode: standalone, or a cluster sharing its configuration through ZooKeeper (ShardingSphere's keys). */
class ModeConfigLoadingTest {

    private static final String USERS = "users:\n  - { name: root, password: root }\n";

    @TempDir
    Path dir;

    @Test
    void noModeIsStandalone() {
        assertEquals(ModeConfig.STANDALONE, ConfigLoader.loadMode(write(dir, "server.yaml", USERS)));
    }

    @Test
    void readsShardingSpheresClusterBlockAsWritten() {
        Path file = write(dir, "server.yaml", """
                mode:
                  type: Cluster
                  repository:
                    type: ZooKeeper
                    props:
                      namespace: orders_proxy
                      server-lists: zk1:2181,zk2:2181,zk3:2181
                      retryIntervalMilliseconds: 200
                      maxRetries: 5
                      timeToLiveSeconds: 30
                      operationTimeoutMilliseconds: 1000
                      digest: strata:secret
                """ + USERS);

        assertEquals(new ModeConfig(true, "ZooKeeper", "orders_proxy", "zk1:2181,zk2:2181,zk3:2181", 200, 5, 30, 1000,
                "strata:secret"), ConfigLoader.loadMode(file));
        ConfigLoader.loadServer(file); // the server's own keys load beside it
    }

    @Test
    void fillsShardingSpheresDefaults() {
        Path file = write(dir, "server.yaml", """
                mode: { type: Cluster, repository: { type: ZooKeeper, props: { server-lists: "localhost:2181" } } }
                """ + USERS);

        assertEquals(new ModeConfig(true, "ZooKeeper", "governance_ds", "localhost:2181", 500, 3, 60, 500, null),
                ConfigLoader.loadMode(file));
    }

    @Test
    void refusesWhatItCannotUseNamingTheKey() {
        assertRejected(dir, "server.yaml", "mode: { type: cluster }\n" + USERS, ConfigLoader::loadMode,
                "mode.type", "one of Standalone, Cluster");
        assertRejected(dir, "server.yaml", "mode: { type: Cluster }\n" + USERS, ConfigLoader::loadMode,
                "mode.repository", "a mapping like { type: ZooKeeper");
        assertRejected(dir, "server.yaml", "mode: { type: Cluster, repository: { type: Consul, props: {} } }\n"
                + USERS, ConfigLoader::loadMode, "mode.repository.type", "one of ZooKeeper, etcd");
        assertRejected(dir, "server.yaml", "mode: { type: Cluster, repository: { type: ZooKeeper, props: "
                + "{ server-lists: zk1 } } }\n" + USERS, ConfigLoader::loadMode, "mode.repository.props.server-lists",
                "host:port, or several separated by commas");
        assertRejected(dir, "server.yaml", "mode: { type: Cluster, repository: { type: ZooKeeper, props: "
                + "{ server-lists: \"zk:2181\", serverLists: x } } }\n" + USERS, ConfigLoader::loadMode,
                "serverLists", "server-lists");
        assertRejected(dir, "server.yaml", "mode: { type: Standalone, repository: { type: ZooKeeper } }\n" + USERS,
                ConfigLoader::loadMode, "mode.repository", "type is Standalone");
    }
}
