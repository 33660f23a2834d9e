package io.strata.bootstrap.cluster;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.strata.config.ModeConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The registry on etcd, through jetcd: keys under {@code /<namespace>}, compare-and-set by a key's modification
 * revision, a member's values attached to one lease of {@code timeToLiveSeconds} that this member keeps alive (they
 * vanish with it), and prefix watches. The lease's keep-alive doubles as the reachability check: when it fails the
 * registry is lost; when a keep-alive or a new lease succeeds again it is back, and the member's values are written
 * again under the lease that holds now. {@code digest} ({@code user:password}) is etcd's own authentication.
 */
final class EtcdRegistry implements Registry {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdRegistry.class);

    private final Client client;
    private final String root;
    private final long timeoutMillis;
    private final long ttlSeconds;
    private final Map<String, byte[]> announced = new ConcurrentHashMap<>();
    private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
    private final List<Watch.Watcher> watchers = new CopyOnWriteArrayList<>();
    /** What is watched, so that the watches can be made again when etcd is back. */
    private final Map<String, List<Runnable>> watched = new ConcurrentHashMap<>();
    private final ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("strata-etcd-lease").factory());
    /** Runs watch callbacks: never on jetcd's (Vert.x) event loop, where a callback's own registry call would wait for ever. */
    private final java.util.concurrent.ExecutorService events = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("strata-etcd-events").factory());
    private volatile long lease;
    private volatile boolean lost;

    private EtcdRegistry(Client client, ModeConfig mode) {
        this.client = client;
        this.root = "/" + mode.namespace();
        this.timeoutMillis = Math.max(2000, mode.operationTimeoutMillis() * (mode.maxRetries() + 1));
        this.ttlSeconds = mode.timeToLiveSeconds();
    }

    /**
     * Connects and takes this member's lease, waiting up to the retry policy's span (at least 5 s).
     *
     * @throws IllegalStateException naming the servers when none answers in time
     */
    static EtcdRegistry connect(ModeConfig mode) {
        ClientBuilder builder = Client.builder()
                .endpoints(java.util.Arrays.stream(mode.serverLists().split(","))
                        .map(server -> server.contains("://") ? server : "http://" + server).toArray(String[]::new))
                .retryDelay(mode.retryIntervalMillis())
                .retryMaxAttempts(mode.maxRetries());
        if (mode.digest() != null) {
            int colon = mode.digest().indexOf(':');
            builder.user(bytes(mode.digest().substring(0, colon)))
                    .password(bytes(mode.digest().substring(colon + 1)));
        }
        Client client = builder.build();
        EtcdRegistry registry = new EtcdRegistry(client, mode);
        long waitMillis = Math.max(5000, mode.retryIntervalMillis() * Math.max(1, mode.maxRetries()));
        try {
            registry.lease = client.getLeaseClient().grant(mode.timeToLiveSeconds())
                    .get(waitMillis, TimeUnit.MILLISECONDS).getID();
        } catch (Exception e) {
            registry.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("cannot reach the registry " + mode.describe() + " within " + waitMillis
                    + " ms (server.yaml mode.repository.props.server-lists): " + e.getMessage(), e);
        }
        long period = Math.max(500, TimeUnit.SECONDS.toMillis(mode.timeToLiveSeconds()) / 3);
        registry.keepAlive.scheduleWithFixedDelay(registry::keepLeaseAlive, period, period, TimeUnit.MILLISECONDS);
        return registry;
    }

    /** Renews the lease, or takes a new one when it expired; tells the listeners when reachability changes. */
    private void keepLeaseAlive() {
        try {
            long current = lease;
            boolean renewed = current != 0 && client.getLeaseClient().keepAliveOnce(current)
                    .get(timeoutMillis, TimeUnit.MILLISECONDS).getTTL() > 0;
            if (!renewed) {
                lease = client.getLeaseClient().grant(ttlSeconds).get(timeoutMillis, TimeUnit.MILLISECONDS).getID();
                LOG.warn("etcd: this member's lease had expired; its values are written again under a new one");
                announced.forEach(this::putWithLease);
            }
            if (lost) {
                lost = false;
                announced.forEach(this::putWithLease);
                watchAgain();
                listeners.forEach(listener -> listener.accept(true));
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                return;
            }
            if (!lost) {
                lost = true;
                listeners.forEach(listener -> listener.accept(false));
            }
        }
    }

    @Override
    public Optional<Entry> get(String path) {
        GetResponse response = await(client.getKVClient().get(key(path)), "read " + path);
        if (response.getKvs().isEmpty()) {
            return Optional.empty();
        }
        KeyValue value = response.getKvs().getFirst();
        return Optional.of(new Entry(value.getValue().getBytes(), value.getModRevision()));
    }

    @Override
    public boolean create(String path, byte[] data) {
        ByteSequence key = key(path);
        return await(client.getKVClient().txn().If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, ByteSequence.from(data), PutOption.DEFAULT)).commit(), "create " + path)
                .isSucceeded();
    }

    @Override
    public boolean replace(String path, byte[] data, long expectedVersion) {
        ByteSequence key = key(path);
        return await(client.getKVClient().txn().If(new Cmp(key, Cmp.Op.EQUAL,
                        CmpTarget.modRevision(expectedVersion)))
                .Then(Op.put(key, ByteSequence.from(data), PutOption.DEFAULT)).commit(), "write " + path)
                .isSucceeded();
    }

    @Override
    public void delete(String path) {
        await(client.getKVClient().delete(key(path)), "delete " + path);
        await(client.getKVClient().delete(key(path + "/"), DeleteOption.builder().isPrefix(true).build()),
                "delete " + path);
    }

    @Override
    public boolean claim(String path, byte[] data) {
        ByteSequence key = key(path);
        long holding = lease;
        boolean taken = await(client.getKVClient().txn().If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, ByteSequence.from(data), PutOption.builder().withLeaseId(holding).build()))
                .commit(), "claim " + path).isSucceeded();
        if (taken) {
            return true;
        }
        GetResponse response = await(client.getKVClient().get(key), "claim " + path);
        return !response.getKvs().isEmpty() && response.getKvs().getFirst().getLease() == holding;
    }

    @Override
    public void announce(String path, byte[] data) {
        announced.put(path, data);
        putWithLease(path, data);
    }

    private void putWithLease(String path, byte[] data) {
        await(client.getKVClient().put(key(path), ByteSequence.from(data),
                PutOption.builder().withLeaseId(lease).build()), "announce " + path);
    }

    @Override
    public List<String> children(String path) {
        String prefix = root + path + "/";
        GetResponse response = await(client.getKVClient().get(bytes(prefix),
                GetOption.builder().isPrefix(true).withKeysOnly(true).build()), "list " + path);
        Set<String> names = new LinkedHashSet<>();
        for (KeyValue value : response.getKvs()) {
            String rest = value.getKey().toString(StandardCharsets.UTF_8).substring(prefix.length());
            int slash = rest.indexOf('/');
            names.add(slash < 0 ? rest : rest.substring(0, slash));
        }
        return new ArrayList<>(names);
    }

    @Override
    public void watch(String path, Runnable onChange) {
        watched.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>()).add(onChange);
        startWatching(path, onChange);
    }

    private void startWatching(String path, Runnable onChange) {
        watchers.add(client.getWatchClient().watch(key(path), WatchOption.builder().isPrefix(true).build(),
                Watch.listener(response -> events.execute(onChange), error -> LOG.debug("etcd watch of {}: {}", path,
                        error.getMessage()))));
    }

    /**
     * etcd is back: every watch is made anew. A watch's stream may have ended while etcd was gone, and a change
     * published just after its return would then reach no member; the listeners read what changed meanwhile.
     */
    private void watchAgain() {
        List<Watch.Watcher> old = List.copyOf(watchers);
        watchers.removeAll(old);
        old.forEach(Watch.Watcher::close);
        watched.forEach((path, callbacks) -> callbacks.forEach(callback -> startWatching(path, callback)));
    }

    @Override
    public void onConnection(Consumer<Boolean> reachable) {
        listeners.add(reachable);
    }

    private ByteSequence key(String path) {
        return bytes(root + path);
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    private <T> T await(CompletableFuture<T> operation, String what) {
        try {
            return operation.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the registry (etcd) could not " + what + ": " + e, e);
        }
    }

    @Override
    public void close() {
        keepAlive.shutdownNow();
        events.shutdownNow();
        watchers.forEach(Watch.Watcher::close);
        long held = lease;
        if (held != 0) {
            try {
                // this member's values go now, not after the time to live
                client.getLeaseClient().revoke(held).get(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.debug("etcd: revoking the lease: {}", e.getMessage());
            }
        }
        client.close();
    }
}
