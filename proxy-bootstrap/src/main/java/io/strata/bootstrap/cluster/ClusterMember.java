package io.strata.bootstrap.cluster;

import io.strata.bootstrap.reload.ConfigChanges;
import io.strata.bootstrap.reload.ConfigReloader;
import io.strata.bootstrap.reload.RestartOnly;
import io.strata.config.ConfigLoader;
import io.strata.config.ModeConfig;
import io.strata.config.StrataConfig;
import io.strata.kernel.Cluster;
import io.strata.kernel.Kernel;
import io.strata.kernel.Reloader;
import io.strata.kernel.Startup;
import io.strata.rule.health.HealthRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * This process as a member of a cluster (mode: Cluster). The registry holds the members' shared configuration as
 * numbered versions ({@link ConfigBundle}); the first member of an empty namespace publishes its files as version 1,
 * and afterwards the registry is the truth: a member whose files differ says so and runs the cluster's. A reload
 * here (RELOAD STRATA CONFIG, SIGHUP, a watched file) publishes this member's files as the next version, after
 * checking them whole; every member, this one included, applies each new version through the reload path and records
 * the version it runs beside its name, which the publication waits for (bounded) and SHOW STRATA CLUSTER lists.
 */
public final class ClusterMember implements Cluster, Reloader, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);
    static final String CONFIG = "/config";
    static final String MEMBERS = "/members";
    /** One child per data source disabled cluster-wide, named {@code database:dataSource}. */
    static final String DISABLED = "/disabled";
    /** Requests of one member to others (a process list, a KILL), one child each; answers under {@link #REPLIES}. */
    static final String REQUESTS = "/requests";
    static final String REPLIES = "/replies";
    /** How long a process list waits for the other members, and a KILL for the member holding the session. */
    static final long PROCESSES_WAIT_MILLIS = 2_000;
    static final long KILL_WAIT_MILLIS = 5_000;
    /** How long a publication waits for every member to run it before answering with the ones that lag. */
    static final long PUBLISH_WAIT_MILLIS = 10_000;

    private final ModeConfig mode;
    private final Registry registry;
    private final Path confDir;
    private final Path cacheDir;
    private final Instant upSince = Instant.now();
    private final ExecutorService publisher = Executors.newSingleThreadExecutor(Thread.ofVirtual()
            .name("strata-cluster-publish").factory());
    private final Object versions = new Object();
    private volatile ConfigReloader reloader;
    private volatile Kernel kernel;
    private volatile String id;
    private volatile int running;
    /** The newest version being applied here (guarded by {@code versions}); {@link #running} when none is. */
    private int applying;
    private volatile String state = "ONLINE";
    private volatile List<String> localDifferences = List.of();
    private final WorkerIdLease lease;
    private volatile Cluster.Administration administration;
    /** Requests this member has answered (or left to others), until they are removed. */
    private final java.util.Set<String> seenRequests = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Runs requests to and from other members, which wait on the registry: never on its own thread. */
    private final ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();

    private ClusterMember(ModeConfig mode, Registry registry, Path confDir, Path cacheDir) {
        this.mode = mode;
        this.registry = registry;
        this.lease = new WorkerIdLease(registry, mode.timeToLiveSeconds());
        this.confDir = confDir;
        this.cacheDir = cacheDir;
    }

    /**
     * Connects to the registry {@code mode} names.
     *
     * @throws IllegalStateException when the registry cannot be reached
     */
    public static ClusterMember connect(ModeConfig mode, Path confDir) {
        Path cache;
        try {
            cache = Files.createTempDirectory("strata-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a folder for the cluster's configuration", e);
        }
        Registry registry = ModeConfig.ETCD.equals(mode.repositoryType()) ? EtcdRegistry.connect(mode)
                : ZooKeeperRegistry.connect(mode);
        return new ClusterMember(mode, registry, confDir, cache);
    }

    /**
     * The shared configuration to start with: the cluster's newest version, or, in an empty namespace, this
     * member's files, published as version 1. Differences between this member's files and the cluster's version are
     * logged (and shown by SHOW STRATA CONFIG), never applied.
     *
     * @param filed this member's files as loaded
     */
    public StrataConfig startingConfig(StrataConfig filed) {
        String owner = advertised(filed.server().host()) + " (pid " + ProcessHandle.current().pid() + ")";
        lease.take(owner);
        registry.onConnection(reachable -> {
            if (reachable) {
                lease.take(owner);
                if (kernel != null && lease.id() >= 0) {
                    kernel.sessions().memberId(lease.id());
                }
            } else {
                lease.registryLost();
            }
        });
        Optional<Registry.Entry> entry = registry.get(CONFIG);
        if (entry.isEmpty()) {
            ConfigBundle first = ConfigBundle.read(confDir, 1, "the first member's files (" + confDir + ")");
            if (registry.create(CONFIG, first.bytes())) {
                LOG.info("cluster {}: an empty namespace; this member's configuration is published as version 1",
                        mode.describe());
            }
            entry = registry.get(CONFIG);
        }
        ConfigBundle bundle = ConfigBundle.parse(entry.orElseThrow().data());
        StrataConfig shared = bundle.load(cacheDir);
        running = bundle.version();
        compareWithFiles(RestartOnly.withLocal(shared, filed.server()), filed);
        return shared;
    }

    /**
     * Gives the kernel's sessions connection ids carrying this member's worker id, so ids are unique cluster-wide and
     * a KILL finds its member: called as soon as the kernel exists, before any client connects.
     */
    public void numberSessions(Kernel kernel) {
        this.kernel = kernel;
        if (lease.id() >= 0) {
            kernel.sessions().memberId(lease.id());
        }
    }

    /** Where this member's SNOWFLAKE generators take their worker ids: its lease. */
    public io.strata.rule.sharding.WorkerIds workerIds() {
        return lease;
    }

    /** Where the configuration came from, for SHOW STRATA CONFIG. */
    public String source() {
        return mode.describe() + " " + CONFIG;
    }

    /** The version this member runs. */
    public int version() {
        return running;
    }

    /**
     * Starts taking part: registers this member (as {@code host:port}), applies every version published from now
     * on, and answers the kernel's reloads and SHOW STRATA CLUSTER.
     */
    public void join(Kernel kernel, ConfigReloader reloader, String host, int port,
                     Cluster.Administration administration) {
        numberSessions(kernel);
        this.reloader = reloader;
        this.administration = administration;
        this.id = advertised(host) + ":" + port;
        announce();
        registry.onConnection(reachable -> {
            state = reachable ? "ONLINE" : "REGISTRY LOST";
            if (reachable) {
                LOG.info("cluster {}: the registry is back; catching up", mode.describe());
                announce();
                configChanged();
                followSwitches();
            } else {
                LOG.warn("cluster {}: the registry is unreachable; serving with configuration version {} until it "
                        + "is back", mode.describe(), running);
            }
        });
        registry.watch(CONFIG, this::configChanged);
        registry.watch(DISABLED, this::followSwitches);
        registry.watch(REQUESTS, () -> exchanges.execute(this::answerRequests));
        kernel.cluster(this);
        kernel.reloader(this);
        LOG.info("cluster {}: member {} runs configuration version {}", mode.describe(), id, running);
        configChanged(); // a version published between the start's read and the watch
        followSwitches();
    }

    /** Applies the registry's newest version when it is newer than the one running (on the reload thread). */
    private void configChanged() {
        ConfigBundle bundle;
        try {
            Optional<Registry.Entry> entry = registry.get(CONFIG);
            if (entry.isEmpty()) {
                return;
            }
            bundle = ConfigBundle.parse(entry.get().data());
        } catch (RuntimeException e) {
            LOG.warn("cluster {}: cannot read the configuration: {}", mode.describe(), e.getMessage());
            return;
        }
        synchronized (versions) {
            if (bundle.version() <= Math.max(running, applying)) {
                return; // running, or on its way (a watch and the publisher may both ask)
            }
            applying = bundle.version();
        }
        StrataConfig shared;
        try {
            shared = bundle.load(cacheDir);
        } catch (RuntimeException e) {
            LOG.error("cluster {}: configuration version {} cannot be loaded here, version {} stays: {}",
                    mode.describe(), bundle.version(), running, e.getMessage());
            return;
        }
        reloader.applyShared(shared, bundle.version(), source(), "cluster version " + bundle.version()
                + " published by " + bundle.publishedBy()).whenComplete((version, error) -> {
                    synchronized (versions) {
                        applying = running; // a refused version may be asked again
                    }
                    if (error == null) {
                        synchronized (versions) {
                            running = Math.max(running, bundle.version());
                            applying = running;
                        }
                        compareWithLocalFiles();
                        followSwitches(); // a data source the new version added may be disabled already
                    }
                    announce(); // not on the publisher: a publication waits there for this very entry
                });
    }

    /**
     * Publishes this member's files as the next version, once they pass the checks of a start; waits up to
     * {@link #PUBLISH_WAIT_MILLIS} for every member to run it.
     */
    @Override
    public CompletableFuture<Version> reload(String trigger) {
        return CompletableFuture.supplyAsync(() -> publish(trigger), publisher);
    }

    private Version publish(String trigger) {
        StrataConfig local = ConfigLoader.load(confDir);
        Startup.ruleChains(local, new HealthRegistry()); // refuses what a reload would refuse, before anyone sees it
        Registry.Entry entry = registry.get(CONFIG).orElseThrow(() -> new IllegalStateException(
                "the registry holds no configuration under " + source()));
        ConfigBundle published = ConfigBundle.parse(entry.data());
        ConfigBundle next = ConfigBundle.read(confDir, published.version() + 1, id + " (" + trigger + ")");
        if (next.sameFiles(published)) {
            LOG.info("cluster {}: {} publishes nothing: the files are the cluster's version {}", mode.describe(),
                    trigger, published.version());
            awaitMembers(published.version());
            return reloader.current();
        }
        if (!registry.replace(CONFIG, next.bytes(), entry.version())) {
            throw new IllegalStateException("another member published a configuration meanwhile (now version "
                    + registry.get(CONFIG).map(e -> ConfigBundle.parse(e.data()).version()).orElse(0)
                    + "); check it with SHOW STRATA CONFIG and publish again");
        }
        LOG.info("cluster {}: {} published configuration version {}", mode.describe(), trigger, next.version());
        configChanged(); // this member runs what it published without waiting for its own watch
        awaitMembers(next.version());
        Version current = reloader.current();
        if (current.number() < next.version() && current.lastRefused() != null) {
            throw new IllegalStateException("version " + next.version() + " is published but this member refused "
                    + "it: " + current.lastRefused());
        }
        if (current.number() < next.version()) {
            // still applying here too: the answer names the version published, and this member among those lagging
            return new Version(next.version(), Instant.now(), source(), trigger,
                    List.of("version " + next.version() + " published"), current.pendingRestart(), null);
        }
        return current;
    }

    /** Waits until every member runs {@code version} or newer, or the bound passes (the answer then shows who lags). */
    private void awaitMembers(int version) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PUBLISH_WAIT_MILLIS);
        while (System.nanoTime() < deadline) {
            if (members().stream().allMatch(m -> m.version() >= version)) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.warn("cluster {}: after {} ms some members do not run version {} yet: {}", mode.describe(),
                PUBLISH_WAIT_MILLIS, version, members().stream().filter(m -> m.version() < version)
                        .map(m -> m.id() + " (version " + m.version() + ")").toList());
    }

    @Override
    public void switchDataSource(String database, String dataSource, boolean disabled) {
        if (!"ONLINE".equals(state)) {
            throw new IllegalStateException("the registry " + mode.describe() + " is unreachable: a switch for the "
                    + "whole cluster cannot be recorded; try again when it is back");
        }
        String path = DISABLED + "/" + database + ":" + dataSource;
        if (disabled) {
            registry.create(path, new byte[0]);
        } else {
            registry.delete(path);
        }
        LOG.info("cluster {}: data source {}.{} {} on every member", mode.describe(), database, dataSource,
                disabled ? "disabled" : "enabled");
    }

    /** Makes the running configuration's data sources disabled exactly as the registry lists them. */
    private void followSwitches() {
        java.util.Set<String> disabled;
        try {
            disabled = java.util.Set.copyOf(registry.children(DISABLED));
        } catch (RuntimeException e) {
            LOG.warn("cluster {}: cannot read the disabled data sources: {}", mode.describe(), e.getMessage());
            return;
        }
        var runtime = kernel.runtime();
        runtime.config().databases().forEach((database, config) -> config.dataSources().keySet().forEach(name ->
                runtime.health().status(database, name).disabled(disabled.contains(database + ":" + name))));
    }

    @Override
    public CompletableFuture<List<List<Object>>> otherMembersProcesses(String user, boolean admin) {
        return CompletableFuture.supplyAsync(() -> {
            long others = members().stream().filter(m -> !m.self()).count();
            if (others == 0) {
                return List.of();
            }
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("kind", "processes");
            request.put("from", id);
            request.put("user", user);
            request.put("admin", admin);
            List<List<Object>> rows = new ArrayList<>();
            for (Map<?, ?> reply : exchange(request, others, PROCESSES_WAIT_MILLIS)) {
                for (Object row : (List<?>) reply.get("rows")) {
                    rows.add(processRow((List<?>) row));
                }
            }
            return rows;
        }, exchanges);
    }

    @Override
    public CompletableFuture<Boolean> killElsewhere(long sessionId, boolean queryOnly, String user, boolean admin) {
        return CompletableFuture.supplyAsync(() -> {
            int worker = (int) (sessionId >>> io.strata.kernel.SessionRegistry.LOCAL_ID_BITS);
            Optional<Member> holder = members().stream().filter(m -> !m.self() && m.workerId() == worker)
                    .findFirst();
            if (holder.isEmpty()) {
                return false;
            }
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("kind", "kill");
            request.put("from", id);
            request.put("target", holder.get().id());
            request.put("id", sessionId);
            request.put("queryOnly", queryOnly);
            request.put("user", user);
            request.put("admin", admin);
            List<Map<?, ?>> replies = exchange(request, 1, KILL_WAIT_MILLIS);
            if (replies.isEmpty()) {
                throw new io.strata.protocol.MySQLException(new io.strata.protocol.ErrPacket(1094, "HY000",
                        "Member " + holder.get().id() + " holding thread id " + sessionId + " did not answer the "
                                + "KILL within " + KILL_WAIT_MILLIS + " ms"));
            }
            Map<?, ?> reply = replies.getFirst();
            if (reply.get("code") instanceof Number code) {
                throw new io.strata.protocol.MySQLException(new io.strata.protocol.ErrPacket(code.intValue(),
                        (String) reply.get("sqlState"), (String) reply.get("message")));
            }
            return true;
        }, exchanges);
    }

    /**
     * Writes a request for other members and waits up to {@code waitMillis} for {@code expected} replies; the
     * request and its replies are removed after.
     */
    private List<Map<?, ?>> exchange(Map<String, Object> request, long expected, long waitMillis) {
        String name = request.get("kind") + "-" + java.util.UUID.randomUUID();
        List<Map<?, ?>> replies = new ArrayList<>();
        registry.create(REQUESTS + "/" + name, yaml().dump(request).getBytes(StandardCharsets.UTF_8));
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
            List<String> answered = registry.children(REPLIES + "/" + name);
            while (answered.size() < expected && System.nanoTime() < deadline) {
                Thread.sleep(10);
                answered = registry.children(REPLIES + "/" + name);
            }
            for (String member : answered) {
                registry.get(REPLIES + "/" + name + "/" + member).ifPresent(entry -> replies.add(
                        yaml().load(new String(entry.data(), StandardCharsets.UTF_8))));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            registry.delete(REQUESTS + "/" + name);
            registry.delete(REPLIES + "/" + name);
        }
        return replies;
    }

    /** Answers the requests of other members meant for this one, each once. */
    private void answerRequests() {
        List<String> names;
        try {
            names = registry.children(REQUESTS);
        } catch (RuntimeException e) {
            return;
        }
        seenRequests.retainAll(names);
        for (String name : names) {
            if (seenRequests.add(name)) {
                registry.get(REQUESTS + "/" + name).ifPresent(entry -> answer(name,
                        yaml().load(new String(entry.data(), StandardCharsets.UTF_8))));
            }
        }
    }

    private void answer(String name, Map<?, ?> request) {
        if (id.equals(request.get("from"))) {
            return;
        }
        String user = (String) request.get("user");
        boolean admin = Boolean.TRUE.equals(request.get("admin"));
        Map<String, Object> reply = new LinkedHashMap<>();
        if ("processes".equals(request.get("kind"))) {
            reply.put("rows", administration.processes(user, admin));
        } else if ("kill".equals(request.get("kind")) && id.equals(request.get("target"))) {
            try {
                administration.kill(((Number) request.get("id")).longValue(),
                        Boolean.TRUE.equals(request.get("queryOnly")), user, admin).join();
                reply.put("done", true);
            } catch (RuntimeException e) {
                io.strata.protocol.ErrPacket err = io.strata.protocol.MySQLException.toErrPacket(e);
                reply.put("code", err.errorCode());
                reply.put("sqlState", err.sqlState());
                reply.put("message", err.message());
            }
        } else {
            return;
        }
        try {
            registry.create(REPLIES + "/" + name + "/" + id, yaml().dump(reply).getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            LOG.debug("cluster {}: cannot answer request {}: {}", mode.describe(), name, e.getMessage());
        }
    }

    /** A process list row as it came through YAML: ids and seconds as longs again. */
    private static List<Object> processRow(List<?> row) {
        List<Object> copy = new ArrayList<>(row);
        for (int column : new int[] {0, 5}) {
            if (copy.get(column) instanceof Number number) {
                copy.set(column, number.longValue());
            }
        }
        return copy;
    }

    @Override
    public Version current() {
        return reloader.current();
    }

    @Override
    public List<String> draining() {
        return reloader.draining();
    }

    @Override
    public String registry() {
        return mode.describe();
    }

    @Override
    public List<Member> members() {
        List<Member> members = new ArrayList<>();
        try {
            for (String name : registry.children(MEMBERS)) {
                registry.get(MEMBERS + "/" + name).ifPresent(entry -> members.add(member(name, entry.data())));
            }
        } catch (RuntimeException e) {
            return List.of(new Member(id, running, upSince, "REGISTRY LOST (this member only: " + e.getMessage()
                    + ")", lease.id(), true));
        }
        members.sort(Comparator.comparing(Member::id));
        return members;
    }

    @Override
    public List<String> localDifferences() {
        return localDifferences;
    }

    private Member member(String name, byte[] data) {
        Map<?, ?> fields = yaml().load(new String(data, StandardCharsets.UTF_8));
        return new Member(name, ((Number) fields.get("version")).intValue(),
                Instant.parse((String) fields.get("upSince")), (String) fields.get("state"),
                fields.get("workerId") instanceof Number worker ? worker.intValue() : -1, name.equals(id));
    }

    /** Writes this member's entry: the version it runs, since when it is up, its state. */
    private void announce() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("version", running);
        fields.put("upSince", upSince.toString());
        fields.put("state", state);
        fields.put("workerId", lease.id());
        try {
            registry.announce(MEMBERS + "/" + id, yaml().dump(fields).getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            LOG.warn("cluster {}: cannot register member {}: {}", mode.describe(), id, e.getMessage());
        }
    }

    private void compareWithLocalFiles() {
        try {
            StrataConfig filed = ConfigLoader.load(confDir);
            compareWithFiles(RestartOnly.withLocal(kernel.runtime().config(), filed.server()), filed);
        } catch (RuntimeException e) {
            localDifferences = List.of("this member's files do not load: " + e.getMessage());
        }
    }

    private void compareWithFiles(StrataConfig cluster, StrataConfig filed) {
        List<String> differences = ConfigChanges.between(cluster, filed);
        localDifferences = differences;
        if (!differences.isEmpty()) {
            LOG.warn("cluster {}: this member's files ({}) differ from the cluster's configuration version {}, which "
                    + "it runs; RELOAD STRATA CONFIG here would publish them: {}", mode.describe(), confDir,
                    running, String.join("; ", differences));
        }
    }

    private static String advertised(String host) {
        if (!host.equals("0.0.0.0") && !host.equals("::")) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return host;
        }
    }

    private static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }

    /** Leaves the cluster at once: this member's entry goes with its session. */
    @Override
    public void close() {
        publisher.shutdownNow();
        exchanges.shutdownNow();
        registry.close();
        try (var files = Files.walk(cacheDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.debug("cannot remove {}: {}", cacheDir, e.getMessage());
        }
    }
}
