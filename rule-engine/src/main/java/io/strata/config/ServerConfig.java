package io.strata.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The MySQL endpoint Strata listens on and the users allowed in.
 *
 * <p>The port is not range-checked here: {@link ConfigLoader} rejects anything outside 1..65535 in a file, while
 * code and tests may still ask for port 0 to bind an ephemeral port.
 *
 * @param maxAllowedPacket largest packet accepted from a client, in bytes
 * @param workerThreads    event loops (Netty I/O threads); 0: one per CPU the JVM may use ({@link #eventLoops()})
 * @param tls              TLS towards clients ({@link TlsConfig#DISABLED} when off)
 * @param executor         how statements reach the backends: {@code relay} (native connections, the backend's own
 *                         packets relayed) or {@code jdbc} (HikariCP and MariaDB Connector/J on virtual threads)
 * @param metrics          the Prometheus endpoint ({@link MetricsConfig#DISABLED} when off)
 * @param slowLog          the slow query log ({@link SlowLogConfig#DISABLED} when off)
 * @param digests          query digests ({@link DigestsConfig#DEFAULT}: off)
 * @param limits           connection limits and timeouts ({@link LimitsConfig#DEFAULT}: none, 10 s to log in)
 * @param watchConfig      whether a change to the configuration folder's files is reloaded by itself
 * @param proxyProtocol    the PROXY protocol on the listener ({@link ProxyProtocolConfig#DISABLED} when off)
 * @param socket           a Unix domain socket beside the TCP port ({@link SocketConfig#NONE} when none)
 */
public record ServerConfig(String host, int port, List<UserConfig> users, String authPlugin, long maxAllowedPacket,
                           int workerThreads, String executor, TlsConfig tls, MetricsConfig metrics,
                           SlowLogConfig slowLog, DigestsConfig digests, LimitsConfig limits,
                           boolean watchConfig, ProxyProtocolConfig proxyProtocol, SocketConfig socket) {

    public static final String RELAY = "relay";
    public static final String JDBC = "jdbc";
    public static final List<String> EXECUTORS = List.of(RELAY, JDBC);

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 3307;
    public static final String NATIVE_PASSWORD = "mysql_native_password";
    public static final String CACHING_SHA2_PASSWORD = "caching_sha2_password";
    public static final List<String> AUTH_PLUGINS = List.of(NATIVE_PASSWORD, CACHING_SHA2_PASSWORD);
    /** MySQL's own ceiling for max_allowed_packet: 1 GiB. */
    public static final long DEFAULT_MAX_ALLOWED_PACKET = 1L << 30;
    public static final int DEFAULT_WORKER_THREADS = 0;

    /**
     * The event loops to run: {@code workerThreads}, or one per CPU the JVM may use (container limits included).
     * A client and its backend connections share one loop and no loop ever blocks, so one loop per core is all the
     * cores can run; more (Netty's own default is two per core) only adds threads woken for the same work. Measured
     * on 2 cores at 4 and 64 clients: 2 loops served at least what 4 did per CPU-second (README, Performance).
     */
    public int eventLoops() {
        return workerThreads > 0 ? workerThreads : Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    public ServerConfig {
        Objects.requireNonNull(host, "host");
        users = List.copyOf(users);
        if (!AUTH_PLUGINS.contains(authPlugin)) {
            throw new IllegalArgumentException("authPlugin must be one of " + AUTH_PLUGINS + ", got " + authPlugin);
        }
        tls = tls == null ? TlsConfig.DISABLED : tls;
        metrics = metrics == null ? MetricsConfig.DISABLED : metrics;
        slowLog = slowLog == null ? SlowLogConfig.DISABLED : slowLog;
        digests = digests == null ? DigestsConfig.DEFAULT : digests;
        limits = limits == null ? LimitsConfig.DEFAULT : limits;
        proxyProtocol = proxyProtocol == null ? ProxyProtocolConfig.DISABLED : proxyProtocol;
        socket = socket == null ? SocketConfig.NONE : socket;
        if (!EXECUTORS.contains(executor)) {
            throw new IllegalArgumentException("executor must be one of " + EXECUTORS + ", got " + executor);
        }
    }

    /** The configuration's files are not watched. */
    public ServerConfig(String host, int port, List<UserConfig> users, String authPlugin, long maxAllowedPacket,
                        int workerThreads, String executor, TlsConfig tls, MetricsConfig metrics,
                        SlowLogConfig slowLog, DigestsConfig digests, LimitsConfig limits) {
        this(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls, metrics, slowLog, digests,
                limits, false, ProxyProtocolConfig.DISABLED, SocketConfig.NONE);
    }

    public ServerConfig(String host, int port, List<UserConfig> users, String authPlugin, long maxAllowedPacket,
                        int workerThreads) {
        this(host, port, users, authPlugin, maxAllowedPacket, workerThreads, RELAY, TlsConfig.DISABLED,
                MetricsConfig.DISABLED, null, null, null);
    }

    public ServerConfig(String host, int port, List<UserConfig> users, String authPlugin, long maxAllowedPacket,
                        int workerThreads, String executor) {
        this(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, TlsConfig.DISABLED,
                MetricsConfig.DISABLED, null, null, null);
    }

    public static ServerConfig defaults(List<UserConfig> users) {
        return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, users, NATIVE_PASSWORD, DEFAULT_MAX_ALLOWED_PACKET,
                DEFAULT_WORKER_THREADS);
    }

    public ServerConfig withPort(int port) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withExecutor(String executor) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withMaxAllowedPacket(long maxAllowedPacket) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withTls(TlsConfig tls) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withMetrics(MetricsConfig metrics) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withSlowLog(SlowLogConfig slowLog) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withDigests(DigestsConfig digests) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withLimits(LimitsConfig limits) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withProxyProtocol(ProxyProtocolConfig proxyProtocol) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withSocket(SocketConfig socket) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public ServerConfig withUsers(List<UserConfig> users) {
        return new ServerConfig(host, port, users, authPlugin, maxAllowedPacket, workerThreads, executor, tls,
                metrics, slowLog, digests, limits, watchConfig, proxyProtocol, socket);
    }

    public boolean jdbcExecutor() {
        return JDBC.equals(executor);
    }

    /** The user with exactly this name; MySQL user names are case-sensitive. */
    public Optional<UserConfig> user(String name) {
        return users.stream().filter(user -> user.name().equals(name)).findFirst();
    }
}
