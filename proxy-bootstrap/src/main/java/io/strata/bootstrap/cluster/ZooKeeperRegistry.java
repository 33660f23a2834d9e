package io.strata.bootstrap.cluster;

import io.strata.config.ModeConfig;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The registry on ZooKeeper, through Apache Curator: its retry policy, its session (a member's values are
 * ephemeral nodes that vanish with it), {@link PersistentNode} to write them again after a session is lost, and
 * {@link CuratorCache} for change notifications. Settings as ShardingSphere reads them.
 */
final class ZooKeeperRegistry implements Registry {

    private final CuratorFramework client;
    private final Map<String, PersistentNode> announced = new ConcurrentHashMap<>();
    private final List<CuratorCache> caches = new CopyOnWriteArrayList<>();

    private ZooKeeperRegistry(CuratorFramework client) {
        this.client = client;
    }

    /**
     * Connects, waiting up to the retry policy's span (at least 5 s).
     *
     * @throws IllegalStateException naming the servers when none answers in time
     */
    static ZooKeeperRegistry connect(ModeConfig mode) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(mode.serverLists())
                .namespace(mode.namespace())
                .retryPolicy(new ExponentialBackoffRetry((int) mode.retryIntervalMillis(), mode.maxRetries(),
                        (int) (mode.retryIntervalMillis() * Math.max(1, mode.maxRetries()))))
                .sessionTimeoutMs(mode.timeToLiveSeconds() * 1000)
                .connectionTimeoutMs((int) mode.operationTimeoutMillis())
                // server-lists is the list, as in ShardingSphere: not replaced by the ensemble's own view of itself
                .ensembleTracker(false);
        if (mode.digest() != null) {
            builder.authorization("digest", mode.digest().getBytes(StandardCharsets.UTF_8)).aclProvider(
                    new ACLProvider() {
                        @Override
                        public List<ACL> getDefaultAcl() {
                            return ZooDefs.Ids.CREATOR_ALL_ACL;
                        }

                        @Override
                        public List<ACL> getAclForPath(String path) {
                            return ZooDefs.Ids.CREATOR_ALL_ACL;
                        }
                    });
        }
        CuratorFramework client = builder.build();
        client.start();
        long waitMillis = Math.max(5000, mode.retryIntervalMillis() * Math.max(1, mode.maxRetries()));
        try {
            if (!client.blockUntilConnected((int) waitMillis, TimeUnit.MILLISECONDS)) {
                client.close();
                throw new IllegalStateException("cannot reach the registry " + mode.describe() + " within "
                        + waitMillis + " ms (server.yaml mode.repository.props.server-lists)");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting to " + mode.describe(), e);
        }
        return new ZooKeeperRegistry(client);
    }

    @Override
    public Optional<Entry> get(String path) {
        try {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return Optional.of(new Entry(data, stat.getVersion()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw failed("read " + path, e);
        }
    }

    @Override
    public boolean create(String path, byte[] data) {
        try {
            client.create().creatingParentContainersIfNeeded().forPath(path, data);
            return true;
        } catch (KeeperException.NodeExistsException e) {
            return false;
        } catch (Exception e) {
            throw failed("create " + path, e);
        }
    }

    @Override
    public boolean replace(String path, byte[] data, long expectedVersion) {
        try {
            client.setData().withVersion((int) expectedVersion).forPath(path, data);
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            return false;
        } catch (Exception e) {
            throw failed("write " + path, e);
        }
    }

    @Override
    public void announce(String path, byte[] data) {
        PersistentNode node = announced.computeIfAbsent(path, p -> {
            PersistentNode created = new PersistentNode(client, CreateMode.EPHEMERAL, false, p, data);
            created.start();
            return created;
        });
        try {
            if (!node.waitForInitialCreate(5, TimeUnit.SECONDS)) {
                return; // written when the registry (or the expiry of this member's previous session) allows
            }
            node.setData(data);
        } catch (Exception e) {
            throw failed("announce " + path, e);
        }
    }

    @Override
    public void delete(String path) {
        try {
            client.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            // gone already
        } catch (Exception e) {
            throw failed("delete " + path, e);
        }
    }

    @Override
    public boolean claim(String path, byte[] data) {
        try {
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
            return true;
        } catch (KeeperException.NodeExistsException e) {
            try {
                Stat stat = client.checkExists().forPath(path);
                return stat != null
                        && stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId();
            } catch (Exception again) {
                throw failed("claim " + path, again);
            }
        } catch (Exception e) {
            throw failed("claim " + path, e);
        }
    }

    @Override
    public List<String> children(String path) {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw failed("list " + path, e);
        }
    }

    @Override
    public void watch(String path, Runnable onChange) {
        CuratorCache cache = CuratorCache.build(client, path);
        cache.listenable().addListener((type, before, after) -> onChange.run());
        caches.add(cache);
        cache.start();
    }

    @Override
    public void onConnection(Consumer<Boolean> reachable) {
        client.getConnectionStateListenable().addListener((c, state) -> {
            if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
                reachable.accept(false);
            } else if (state == ConnectionState.RECONNECTED) {
                reachable.accept(true);
            }
        });
    }

    private static IllegalStateException failed(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException("the registry (ZooKeeper) could not " + what + ": " + e, e);
    }

    @Override
    public void close() {
        caches.forEach(CuratorCache::close);
        announced.values().forEach(node -> {
            try {
                node.close();
            } catch (Exception e) {
                // the session's end removes it anyway
            }
        });
        client.close();
    }
}
