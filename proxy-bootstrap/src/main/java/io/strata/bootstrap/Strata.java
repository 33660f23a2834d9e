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
import io.strata.backend.health.HealthMonitor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
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
    private final Backends backends;
    private final JdbcDataSources jdbc;
    private final FrontendServer server;
    private final HealthMonitor monitor;
    private final MetricsEndpoint metrics;
    private final SlowLog slowLog;
    private final SessionRegistry sessions;
    private final long shutdownTimeoutMillis;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private Strata(EventLoopGroup boss, EventLoopGroup workers, Backends backends, JdbcDataSources jdbc,
                   FrontendServer server, HealthMonitor monitor, MetricsEndpoint metrics, SlowLog slowLog,
                   SessionRegistry sessions, long shutdownTimeoutMillis) {
        this.sessions = sessions;
        this.shutdownTimeoutMillis = shutdownTimeoutMillis;
        this.monitor = monitor;
        this.slowLog = slowLog;
        this.metrics = metrics;
        this.boss = boss;
        this.workers = workers;
        this.backends = backends;
        this.jdbc = jdbc;
        this.server = server;
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

    public Backends backends() {
        return backends;
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
        if (metrics != null) {
            metrics.close();
        }
        monitor.close();
        backends.close();
        if (jdbc != null) {
            jdbc.close();
        }
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        if (slowLog != null) {
            slowLog.close(); // after the sessions: the statements they finish are written too
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
            StrataConfig resolved = config != null ? config : ConfigLoader.load(confDir != null ? confDir
                    : Path.of("conf"));
            if (port != null) {
                resolved = new StrataConfig(resolved.server().withPort(port), resolved.databases());
            }
            Startup.warnOfMistypedHashes(resolved);
            HealthRegistry health = new HealthRegistry();
            Map<String, RuleChain> chains = Startup.ruleChains(resolved, health);
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
            try {
                jdbc = resolved.server().jdbcExecutor()
                        ? new JdbcDataSources(resolved, metrics == null ? null : metrics.hikariTracker()) : null;
                probeBackendVersion(backends);
                Startup.findSingleTables(resolved, chains);
                SlowLogConfig slow = resolved.server().slowLog();
                slowLog = slow.enabled() ? new SlowLog(Path.of(slow.file()), slow.thresholdMillis()) : null;
                DigestsConfig digests = resolved.server().digests();
                Kernel kernel = new Kernel(new StrataRuntime(resolved, chains, backends, jdbc, health,
                        new Mirrors(backends)), digests.enabled() ? new DigestTable(digests.maxDigests()) : null,
                        slowLog);
                FrontendContext context = new FrontendContext(kernel, new Authenticator(resolved.server()),
                        Tls.serverContext(resolved.server().tls()), new FrontendStats());
                if (metrics != null) {
                    metrics.start(context);
                    LOG.info("Metrics at http://{}:{}/metrics", metricsConfig.host(), metrics.port());
                }
                FrontendServer server = FrontendServer.bind(context, boss, workers, clientLoops);
                LOG.info("Strata listening on {}:{} ({} transport, {} executor) for logical databases {}",
                        resolved.server().host(), server.port(), Transports.nativeEpoll() ? "epoll" : "nio",
                        resolved.server().executor(), resolved.databases().keySet());
                // Checks start before clients are served, so replicas prove themselves before they get reads.
                JdbcDataSources jdbcPools = jdbc;
                HealthMonitor monitor = HealthMonitor.start(resolved, health, (database, dataSource, patience, why) -> {
                    backends.abortUnanswered(database, dataSource, patience, why);
                    if (jdbcPools != null) {
                        jdbcPools.abortReads(database, dataSource, patience);
                    }
                });
                Startup.warnOfMissingBroadcastTablesLater(resolved, chains);
                return new Strata(boss, workers, backends, jdbc, server, monitor, metrics, slowLog,
                        context.sessions(), resolved.server().limits().shutdownTimeoutMillis());
            } catch (Exception e) {
                // A failed start leaves nothing running: no port bound, no thread left behind.
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
