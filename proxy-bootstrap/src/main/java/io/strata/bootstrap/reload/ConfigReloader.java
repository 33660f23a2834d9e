package io.strata.bootstrap.reload;

import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import io.netty.channel.EventLoopGroup;
import io.strata.backend.Backends;
import io.strata.backend.execute.Mirrors;
import io.strata.backend.health.HealthMonitor;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.config.ConfigLoader;
import io.strata.config.DigestsConfig;
import io.strata.config.SlowLogConfig;
import io.strata.config.StrataConfig;
import io.strata.frontend.Authenticator;
import io.strata.kernel.Kernel;
import io.strata.kernel.Reloader;
import io.strata.kernel.Startup;
import io.strata.kernel.StrataRuntime;
import io.strata.kernel.digest.DigestTable;
import io.strata.kernel.slowlog.SlowLog;
import io.strata.rule.RuleChain;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sharding.WorkerIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Reloads a server's configuration folder: reads it, validates it whole (the same checks and messages as a start),
 * builds the new runtime beside the running one (data sources whose settings did not change keep their pools), and
 * swaps it in between statements. Old pools drain: connections sessions hold go back when their transaction ends,
 * and close there. Keys only a start applies ({@link RestartOnly}) keep their running values and are reported.
 * Reloads run one at a time, off the event loops.
 */
public final class ConfigReloader implements Reloader, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigReloader.class);

    private final Path confDir;
    private final Kernel kernel;
    private final Authenticator authenticator;
    private final EventLoopGroup workers;
    private final MetricsTrackerFactory hikariMetrics;
    private final Consumer<StrataRuntime> monitorRestart;
    private final Drains drains = new Drains();
    private final WorkerIds workerIds;
    private final ExecutorService one = Executors.newSingleThreadExecutor(Thread.ofVirtual()
            .name("strata-reload").factory());
    /** The configuration as its files said at the start, which the running restart-only keys came from. */
    private final StrataConfig filed;
    private volatile Version current;
    private volatile ReloadListener listener = ReloadListener.NONE;

    /** What hears of each reload, applied or refused (the metrics). */
    public interface ReloadListener {
        ReloadListener NONE = applied -> { };

        void reloaded(boolean applied);
    }

    /**
     * @param filed          the configuration the start read from {@code confDir} (before a port given on the
     *                       command line)
     * @param monitorRestart starts the health checks of a new runtime (and stops the old ones)
     * @param workerIds      where the new rules' SNOWFLAKE generators take their worker ids
     */
    public ConfigReloader(Path confDir, StrataConfig filed, Kernel kernel, Authenticator authenticator,
                          EventLoopGroup workers, MetricsTrackerFactory hikariMetrics,
                          Consumer<StrataRuntime> monitorRestart, WorkerIds workerIds) {
        this.workerIds = workerIds;
        this.confDir = confDir;
        this.filed = filed;
        this.kernel = kernel;
        this.authenticator = authenticator;
        this.workers = workers;
        this.hikariMetrics = hikariMetrics;
        this.monitorRestart = monitorRestart;
        this.current = new Version(1, Instant.now(), confDir.toAbsolutePath().normalize().toString(), "start",
                List.of(), List.of(), null);
    }

    /** A cluster member's start: the configuration it began with is the cluster's version, from the registry. */
    public void startedAs(int number, String source) {
        current = new Version(number, current.loadedAt(), source, "start", List.of(), List.of(), null);
    }

    public void listener(ReloadListener listener) {
        this.listener = listener;
    }

    @Override
    public Version current() {
        return current;
    }

    @Override
    public CompletableFuture<Version> reload(String trigger) {
        return CompletableFuture.supplyAsync(() -> reloadNow(trigger, () -> {
            StrataConfig read = ConfigLoader.load(confDir);
            return apply(trigger, RestartOnly.between(filed, read, kernel.runtime().config()),
                    current.number() + 1, current.number(), current.source());
        }), one);
    }

    /**
     * Applies a cluster's shared configuration (mode: Cluster) through the same path as a reload of the files: this
     * member keeps its own restart-only keys, and the version is the cluster's.
     *
     * @param source where it came from, for SHOW STRATA CONFIG
     */
    public CompletableFuture<Version> applyShared(StrataConfig shared, int number, String source, String trigger) {
        return CompletableFuture.supplyAsync(() -> reloadNow(trigger, () -> {
            StrataConfig next = RestartOnly.withLocal(shared, kernel.runtime().config().server());
            return apply(trigger, new RestartOnly(next, pendingOfLocalFiles()), number, number, source);
        }), one);
    }

    /** The restart-only keys this member's own files changed since the start (none while they do not load). */
    private List<String> pendingOfLocalFiles() {
        try {
            return RestartOnly.pending(filed, ConfigLoader.load(confDir));
        } catch (RuntimeException e) {
            return current.pendingRestart();
        }
    }

    private Version reloadNow(String trigger, java.util.function.Supplier<Version> applying) {
        try {
            Version applied = applying.get();
            listener.reloaded(true);
            return applied;
        } catch (RuntimeException e) {
            LOG.error("configuration reload ({}) refused, the running configuration stays: {}", trigger,
                    e.getMessage());
            current = current.refused(Instant.now() + " (" + trigger + "): " + e.getMessage());
            listener.reloaded(false);
            throw e;
        }
    }

    /**
     * @param number      the version it becomes when something changed
     * @param numberIfSame the version when nothing did (the files' reload keeps its number; a cluster's version is
     *                     the cluster's either way)
     */
    private Version apply(String trigger, RestartOnly restartOnly, int number, int numberIfSame, String source) {
        StrataRuntime running = kernel.runtime();
        StrataConfig next = restartOnly.effective();
        List<String> changes = ConfigChanges.between(running.config(), next);
        if (changes.isEmpty() && restartOnly.pending().equals(current.pendingRestart())) {
            LOG.info("configuration reload ({}): nothing changed", trigger);
            Version same = new Version(numberIfSame, current.loadedAt(), source, trigger, List.of(),
                    restartOnly.pending(), current.lastRefused());
            if (numberIfSame != current.number()) {
                current = same; // a cluster's version that changed nothing here is still the one this member runs
            }
            return same;
        }
        // Everything that can refuse the configuration runs before anything running is touched.
        HealthRegistry health = new HealthRegistry(running.health(),
                (database, dataSource) -> sameDataSource(running.config(), next, database, dataSource),
                (database, dataSource) -> next.databases().containsKey(database)
                        && next.databases().get(database).dataSources().containsKey(dataSource));
        Map<String, RuleChain> chains = Startup.ruleChains(next, health, workerIds);
        JdbcDataSources jdbc = running.jdbc() == null ? null
                : new JdbcDataSources(next, hikariMetrics, running.jdbc());
        Startup.readTables(next, chains);
        Backends backends = running.backends() == null ? null : new Backends(next, workers, running.backends());
        Mirrors mirrors = backends != null ? new Mirrors(backends) : new Mirrors(jdbc);
        StrataRuntime runtime = new StrataRuntime(next, chains, backends, jdbc, health, mirrors);

        statistics(running.config(), next);
        authenticator.reconfigure(next.server());
        kernel.swap(runtime);
        monitorRestart.accept(runtime);
        if (backends != null) {
            drains.nativePools(running.backends().retire(backends));
        }
        if (jdbc != null) {
            drains.hikariPools(running.jdbc().retire(jdbc));
        }
        Startup.warnOfMissingBroadcastTablesLater(next, chains);
        Version version = new Version(number, Instant.now(), source, trigger, changes, restartOnly.pending(), null);
        current = version;
        LOG.info("configuration version {} applied ({}): {}{}", version.number(), trigger,
                changes.isEmpty() ? "no live change" : String.join("; ", changes),
                restartOnly.pending().isEmpty() ? "" : "; applied at the next start: " + restartOnly.pending());
        return version;
    }

    private static boolean sameDataSource(StrataConfig before, StrataConfig after, String database,
                                          String dataSource) {
        var was = before.databases().get(database);
        var is = after.databases().get(database);
        return was != null && is != null && was.dataSources().containsKey(dataSource)
                && was.dataSources().get(dataSource).equals(is.dataSources().get(dataSource));
    }

    /** server.digests and server.slowLog as the new configuration has them; unchanged ones stay as they are. */
    private void statistics(StrataConfig before, StrataConfig after) {
        DigestsConfig digests = after.server().digests();
        SlowLogConfig slow = after.server().slowLog();
        boolean digestsChanged = !digests.equals(before.server().digests());
        boolean slowChanged = !slow.equals(before.server().slowLog());
        if (!digestsChanged && !slowChanged) {
            return;
        }
        DigestTable table = !digestsChanged ? kernel.digests()
                : digests.enabled() ? new DigestTable(digests.maxDigests()) : null;
        SlowLog old = kernel.slowLog();
        SlowLog log = !slowChanged ? old
                : slow.enabled() ? new SlowLog(Path.of(slow.file()), slow.thresholdMillis()) : null;
        kernel.statistics(table, log);
        if (slowChanged && old != null) {
            old.close();
        }
    }

    @Override
    public List<String> draining() {
        return drains.draining();
    }

    @Override
    public void close() {
        one.shutdownNow();
        drains.close();
    }
}
