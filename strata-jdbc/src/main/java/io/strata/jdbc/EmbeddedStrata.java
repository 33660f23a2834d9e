package io.strata.jdbc;

import io.strata.backend.execute.Mirrors;
import io.strata.backend.health.HealthMonitor;
import io.strata.backend.jdbc.JdbcDataSources;
import io.strata.config.ConfigException;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import io.strata.kernel.Kernel;
import io.strata.kernel.Startup;
import io.strata.kernel.StrataRuntime;
import io.strata.kernel.digest.DigestTable;
import io.strata.kernel.slowlog.SlowLog;
import io.strata.protocol.ErrorCode;
import io.strata.rule.RuleChain;
import io.strata.rule.health.HealthRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Strata's kernel inside the application: the configuration's rule chains, HikariCP pools for its data sources,
 * their health checks, digests and the slow log, as the proxy starts them, but no listener. Every
 * {@link StrataConnection} of one URL or {@link StrataDataSource} is a session of the same instance.
 */
public final class EmbeddedStrata implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedStrata.class);

    private final StrataConfig config;
    private final String defaultDatabase;
    private final Kernel kernel;
    private final JdbcDataSources pools;
    private final HealthMonitor monitor;
    private final SlowLog slowLog;
    /** Runs query rules' time limits for every session. */
    private final ScheduledExecutorService timers;
    private volatile boolean closed;
    private String url = StrataDriver.PREFIX;

    private EmbeddedStrata(StrataConfig config, String defaultDatabase, Kernel kernel, JdbcDataSources pools,
                           HealthMonitor monitor, SlowLog slowLog, ScheduledExecutorService timers) {
        this.config = config;
        this.defaultDatabase = defaultDatabase;
        this.kernel = kernel;
        this.pools = pools;
        this.monitor = monitor;
        this.slowLog = slowLog;
        this.timers = timers;
    }

    /**
     * Starts Strata on {@code config}; sessions begin in {@code defaultDatabase} (null: the configuration's first
     * logical database).
     *
     * @throws ConfigException when the configuration is wrong, as the proxy would say at its start
     */
    public static EmbeddedStrata start(StrataConfig config, String defaultDatabase) {
        if (config.databases().isEmpty()) {
            throw new ConfigException("config-*.yaml", "databaseName", "at least one logical database", "none");
        }
        String database = defaultDatabase != null ? defaultDatabase : config.databases().keySet().iterator().next();
        Startup.warnOfMistypedHashes(config);
        HealthRegistry health = new HealthRegistry();
        Map<String, RuleChain> chains = Startup.ruleChains(config, health);
        JdbcDataSources pools = new JdbcDataSources(config);
        SlowLog slowLog = null;
        try {
            pools.probeServerVersion();
            Startup.readTables(config, chains);
            var slow = config.server().slowLog();
            slowLog = slow.enabled() ? new SlowLog(Path.of(slow.file()), slow.thresholdMillis()) : null;
            var digests = config.server().digests();
            Kernel kernel = new Kernel(new StrataRuntime(config, chains, null, pools, health, new Mirrors(pools)),
                    digests.enabled() ? new DigestTable(digests.maxDigests()) : null, slowLog);
            HealthMonitor monitor = HealthMonitor.start(config, health, (db, dataSource, patience, why) ->
                    pools.abortReads(db, dataSource, patience));
            Startup.warnOfMissingBroadcastTablesLater(config, chains);
            ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "strata-timers");
                thread.setDaemon(true);
                return thread;
            });
            LOG.info("Strata embedded for logical databases {}", config.databases().keySet());
            return new EmbeddedStrata(config, database, kernel, pools, monitor, slowLog, timers);
        } catch (RuntimeException e) {
            pools.close();
            if (slowLog != null) {
                slowLog.close();
            }
            throw e;
        }
    }

    /**
     * A new session, as {@code user} when given (checked against the configuration's users, as a proxy login
     * would be), else as the application itself.
     */
    public StrataConnection connect(String user, String password) throws SQLException {
        if (closed) {
            throw new SQLException("this Strata has been closed", "08003");
        }
        if (user != null && !config.server().users().isEmpty()) {
            check(user, password);
        }
        return new StrataConnection(this, user == null ? "embedded" : user, defaultDatabase);
    }

    private void check(String user, String password) throws SQLException {
        UserConfig found = config.server().users().stream().filter(u -> u.name().equals(user)).findFirst()
                .orElse(null);
        if (found == null || !matches(found, password == null ? "" : password)) {
            throw new SQLException(ErrorCode.ACCESS_DENIED.packet(user, "localhost", password == null
                    || password.isEmpty() ? "NO" : "YES").message(), "28000", ErrorCode.ACCESS_DENIED.code());
        }
        if (!found.mayUse(defaultDatabase)) {
            throw new SQLException(ErrorCode.DB_ACCESS_DENIED.packet(user, "localhost", defaultDatabase).message(),
                    "42000", ErrorCode.DB_ACCESS_DENIED.code());
        }
    }

    /** A clear-text password, or mysql_native_password's hash of it ("*" and SHA1(SHA1(password)) in hex). */
    private static boolean matches(UserConfig user, String password) {
        if (!user.passwordHashed()) {
            return MessageDigest.isEqual(user.password().getBytes(StandardCharsets.UTF_8),
                    password.getBytes(StandardCharsets.UTF_8));
        }
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] twice = sha1.digest(sha1.digest(password.getBytes(StandardCharsets.UTF_8)));
            return ("*" + HexFormat.of().withUpperCase().formatHex(twice)).equalsIgnoreCase(user.password());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    /** The URL it was started from, where it was (DatabaseMetaData.getURL). */
    String url() {
        return url;
    }

    EmbeddedStrata url(String startedFrom) {
        this.url = startedFrom;
        return this;
    }

    public Kernel kernel() {
        return kernel;
    }

    public StrataConfig config() {
        return config;
    }

    ScheduledExecutorService timers() {
        return timers;
    }

    /** The logical database's configuration, or null when there is none of that name. */
    DatabaseConfig database(String name) {
        return config.databases().get(name);
    }

    public boolean isClosed() {
        return closed;
    }

    /** Stops health checks and timers and closes the pools; sessions still open fail from now on. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        kernel.sessions().all().forEach(session -> session.client().close());
        monitor.close();
        timers.shutdownNow();
        pools.close();
        if (slowLog != null) {
            slowLog.close();
        }
    }

    /** The server configuration an embedded Strata runs with when there is no server.yaml beside its file. */
    static ServerConfig defaultServer() {
        return ServerConfig.defaults(java.util.List.of());
    }
}
