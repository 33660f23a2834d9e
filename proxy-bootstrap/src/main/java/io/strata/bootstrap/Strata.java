package io.strata.bootstrap;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.strata.backend.Backends;
import io.strata.backend.execute.Mirrors;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.ClientLoops;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.backend.connection.Transports;
import io.strata.bootstrap.metrics.MetricsEndpoint;
import io.strata.config.ConfigException;
import io.strata.config.ConfigLoader;
import io.strata.config.DigestsConfig;
import io.strata.config.MetricsConfig;
import io.strata.config.SlowLogConfig;
import io.strata.config.ModeConfig;
import io.strata.config.StrataConfig;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.FrontendStats;
import io.strata.kernel.digest.DigestTable;
import io.strata.kernel.slowlog.SlowLog;
import io.strata.frontend.Authenticator;
import io.strata.frontend.netty.FrontendServer;
import io.strata.frontend.netty.Tls;
import io.strata.kernel.Session;
import io.strata.kernel.Kernel;
import io.strata.kernel.SessionRegistry;
import io.strata.kernel.Startup;
import io.strata.kernel.StrataRuntime;
import io.strata.protocol.Capabilities;
import io.strata.rule.RuleChain;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sharding.WorkerIds;
import io.strata.backend.health.HealthMonitor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.strata.bootstrap.cluster.ClusterMember;
import io.strata.frontend.command.MemberAdministration;
import io.strata.bootstrap.reload.ConfigReloader;
import io.strata.bootstrap.reload.RestartOnly;
import io.strata.bootstrap.reload.ConfigWatcher;
import io.strata.bootstrap.metrics.ReloadMeters;
import io.strata.kernel.Reloader;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A running Strata server, and the embedding API: build it from a conf folder or from configuration records, start
 * it, and close it.
 *
 * <pre>{@code
 * try (Strata strata = Strata.builder().confDir(Path.of("conf")).port(0).start()) {
 *     int port = strata.port();   // connect any MySQL client here
 * }
 * }</pre>
 */
public final class Strata implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Strata.class);
    private static final long VERSION_PROBE_SECONDS = 5;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Kernel kernel;
    private final FrontendServer server;
    private final AtomicReference<HealthMonitor> monitor;
    private final MetricsEndpoint metrics;
    private final ConfigReloader reloader;
    private final ConfigWatcher watcher;
    /** This process as a cluster member; null when it runs standalone. */
    private final ClusterMember member;
    private final long shutdownTimeoutMillis;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private Strata(EventLoopGroup boss, EventLoopGroup workers, Kernel kernel, FrontendServer server,
                   AtomicReference<HealthMonitor> monitor, MetricsEndpoint metrics, ConfigReloader reloader,
                   ConfigWatcher watcher, ClusterMember member, long shutdownTimeoutMillis) {
        this.member = member;
        this.kernel = kernel;
        this.shutdownTimeoutMillis = shutdownTimeoutMillis;
        this.monitor = monitor;
        this.metrics = metrics;
        this.boss = boss;
        this.workers = workers;
        this.server = server;
        this.reloader = reloader;
        this.watcher = watcher;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port clients connect to (the actual one when the configuration asked for port 0). */
    public int port() {
        return server.port();
    }

    /** The port of the Prometheus endpoint (the actual one for port 0), or -1 when server.metrics is off. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /** The native backend pools of the running configuration. */
    public Backends backends() {
        return kernel.runtime().backends();
    }

    /**
     * Reads the conf folder again and swaps the configuration in between statements (as RELOAD STRATA CONFIG and
     * SIGHUP do). A cluster member publishes the folder as the cluster's next version instead, which every member
     * applies.
     *
     * @return the version now running; fails with the configuration's error when refused (the running one stays)
     * @throws IllegalStateException when the server was built from records, not from a conf folder
     */
    public CompletableFuture<Reloader.Version> reload(String trigger) {
        if (reloader == null) {
            throw new IllegalStateException("this Strata was built from configuration records: there is no conf "
                    + "folder to reload");
        }
        return kernel.reloader().reload(trigger);
    }

    /**
     * A graceful stop (SIGTERM, {@code bin/stop.sh}): no new connections; every session closes at its next statement
     * boundary outside a transaction, so running statements are answered and open transactions may commit, for up to
     * {@code server.shutdownTimeout}; then whatever is left is closed, as {@link #close} does.
     */
    public void stop() {
        if (closed.get()) {
            return;
        }
        server.close();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(shutdownTimeoutMillis);
        SessionRegistry sessions = kernel.sessions();
        for (Session session : sessions.all()) {
            session.client().stopAtBoundary();
        }
        while (sessions.size() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (sessions.size() > 0) {
            LOG.warn("{} sessions still busy or in a transaction after server.shutdownTimeout ({} ms): closed",
                    sessions.size(), shutdownTimeoutMillis);
        }
        close();
    }

    /**
     * Stops at once: sessions are closed wherever they are (see {@link #stop} for the graceful way). A second call
     * (after {@link #stop}, or a try-with-resources around it) does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.close();
        if (watcher != null) {
            watcher.close();
        }
        if (member != null) {
            member.close(); // leaves the member list at once
        }
        if (reloader != null) {
            reloader.close(); // no reload from now on; pools still draining close
        }
        if (metrics != null) {
            metrics.close();
        }
        monitor.get().close();
        StrataRuntime runtime = kernel.runtime();
        runtime.backends().close();
        if (runtime.jdbc() != null) {
            runtime.jdbc().close();
        }
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        if (kernel.slowLog() != null) {
            kernel.slowLog().close(); // after the sessions: the statements they finish are written too
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        LOG.info("Strata stopped");
    }

    /** Configuration comes from a conf folder ({@link #confDir}) or as records ({@link #config}). */
    public static final class Builder {
        private StrataConfig config;
        private Path confDir;
        private Integer port;

        public Builder confDir(Path confDir) {
            this.confDir = confDir;
            return this;
        }

        public Builder config(StrataConfig config) {
            this.config = config;
            return this;
        }

        /** Overrides server.yaml's port; 0 picks a free one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * Binds the port and returns the running server.
         *
         * @throws io.strata.config.ConfigException when the configuration is wrong
         */
        public Strata start() {
            Path dir = confDir != null ? confDir : Path.of("conf");
            StrataConfig filed = config != null ? config : ConfigLoader.load(dir);
            ModeConfig mode = config != null ? ModeConfig.STANDALONE : ConfigLoader.loadMode(dir.resolve("server.yaml"));
            // a member runs the cluster's configuration, with its own listeners and loops
            ClusterMember member = mode.cluster() ? ClusterMember.connect(mode, dir) : null;
            StrataConfig running;
            try {
                running = member == null ? filed
                        : RestartOnly.withLocal(member.startingConfig(filed), filed.server());
            } catch (RuntimeException e) {
                member.close();
                throw e;
            }
            StrataConfig resolved = port == null ? running
                    : new StrataConfig(running.server().withPort(port), running.databases());
            Startup.warnOfMistypedHashes(resolved);
            HealthRegistry health = new HealthRegistry();
            WorkerIds workerIds = member == null ? WorkerIds.CONFIGURED : member.workerIds();
            Map<String, RuleChain> chains = Startup.ruleChains(resolved, health, workerIds);
            int threads = resolved.server().eventLoops();
            EventLoopGroup boss = Transports.eventLoopGroup(1, new DefaultThreadFactory("strata-accept"));
            ClientLoops clientLoops = new ClientLoops(Runtime.getRuntime().availableProcessors(), boss);
            EventLoopGroup workers = Transports.eventLoopGroup(threads, new DefaultThreadFactory("strata-io"),
                    clientLoops);
            Backends backends = new Backends(resolved, workers);
            MetricsConfig metricsConfig = resolved.server().metrics();
            MetricsEndpoint metrics = metricsConfig.enabled() ? MetricsEndpoint.create(metricsConfig) : null;
            JdbcDataSources jdbc = null;
            SlowLog slowLog = null;
            ConfigReloader reloader = null;
            try {
                jdbc = resolved.server().jdbcExecutor()
                        ? new JdbcDataSources(resolved, metrics == null ? null : metrics.hikariTracker()) : null;
                probeBackendVersion(backends);
                Startup.readTables(resolved, chains);
                SlowLogConfig slow = resolved.server().slowLog();
                slowLog = slow.enabled() ? new SlowLog(Path.of(slow.file()), slow.thresholdMillis()) : null;
                DigestsConfig digests = resolved.server().digests();
                StrataRuntime runtime = new StrataRuntime(resolved, chains, backends, jdbc, health,
                        new Mirrors(backends));
                Kernel kernel = new Kernel(runtime, digests.enabled() ? new DigestTable(digests.maxDigests()) : null,
                        slowLog);
                if (member != null) {
                    member.numberSessions(kernel);
                }
                Authenticator authenticator = new Authenticator(resolved.server());
                FrontendContext context = new FrontendContext(kernel, authenticator,
                        Tls.serverContext(resolved.server().tls()), new FrontendStats());
                // Checks start before clients are served, so replicas prove themselves before they get reads.
                AtomicReference<HealthMonitor> monitor = new AtomicReference<>(startMonitor(runtime));
                if (config == null) {
                    reloader = new ConfigReloader(dir, filed, kernel,
                            authenticator, workers, metrics == null ? null : metrics.hikariTracker(),
                            next -> monitor.getAndSet(startMonitor(next)).close(), workerIds);
                    kernel.reloader(reloader);
                    if (member != null) {
                        reloader.startedAs(member.version(), member.source());
                    }
                }
                if (metrics != null) {
                    metrics.start(context);
                    if (reloader != null) {
                        ReloadMeters.bind(metrics.registry(), reloader);
                    }
                    LOG.info("Metrics at http://{}:{}/metrics", metricsConfig.host(), metrics.port());
                }
                FrontendServer server = FrontendServer.bind(context, boss, workers, clientLoops);
                LOG.info("Strata listening on {}:{} ({} transport, {} executor) for logical databases {}",
                        resolved.server().host(), server.port(), Transports.nativeEpoll() ? "epoll" : "nio",
                        resolved.server().executor(), resolved.databases().keySet());
                Startup.warnOfMissingBroadcastTablesLater(resolved, chains);
                if (member != null) {
                    member.join(kernel, reloader, resolved.server().host(), server.port(),
                            new MemberAdministration(context));
                }
                // in a cluster, a reload publishes this member's files: the watcher and SIGHUP go through the kernel's
                ConfigWatcher watcher = reloader == null ? null : new ConfigWatcher(dir, kernel.reloader(),
                        () -> kernel.runtime().config().server().watchConfig());
                return new Strata(boss, workers, kernel, server, monitor, metrics, reloader, watcher, member,
                        resolved.server().limits().shutdownTimeoutMillis());
            } catch (Exception e) {
                // A failed start leaves nothing running: no port bound, no thread left behind.
                if (member != null) {
                    member.close();
                }
                if (reloader != null) {
                    reloader.close();
                }
                if (metrics != null) {
                    metrics.close();
                }
                if (jdbc != null) {
                    jdbc.close();
                }
                if (slowLog != null) {
                    slowLog.close();
                }
                backends.close();
                workers.shutdownGracefully();
                boss.shutdownGracefully();
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while starting", e);
                }
                if (e instanceof RuntimeException runtime) {
                    throw runtime;
                }
                // Netty rethrows a failed bind's BindException unchecked-style
                throw new IllegalStateException("cannot listen on " + resolved.server().host() + ":"
                        + resolved.server().port() + ": " + e.getMessage(), e);
            }
        }

        /** The health checks of a runtime; one that finds a replica unreachable aborts reads that wait on it. */
        private static HealthMonitor startMonitor(StrataRuntime runtime) {
            Backends backends = runtime.backends();
            JdbcDataSources jdbcPools = runtime.jdbc();
            return HealthMonitor.start(runtime.config(), runtime.health(), (database, dataSource, patience, why) -> {
                backends.abortUnanswered(database, dataSource, patience, why);
                if (jdbcPools != null) {
                    jdbcPools.abortReads(database, dataSource, patience);
                }
            });
        }

        /**
         * One connection to the first data source tells the backend's version, which clients then see in the
         * greeting. A backend that is down does not stop the start: clients get a clear error per statement until
         * it is back.
         */
        private static void probeBackendVersion(Backends backends) {
            BackendPool first = backends.pools().values().stream().findFirst().orElseThrow();
            try {
                backends.connector().connect(first.config(), Capabilities.CLIENT_DEPRECATE_EOF)
                        .get(VERSION_PROBE_SECONDS, TimeUnit.SECONDS).close();
            } catch (Exception e) {
                LOG.warn("backend {} is not reachable now ({}); Strata starts anyway and serves errors for it "
                        + "until it is back", first.config().describe(), e.getCause() != null
                        ? e.getCause().getMessage() : e.toString());
            } 
        }
    }
}
