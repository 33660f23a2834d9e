package io.strata.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a configuration directory once at startup. Every value is checked here, so the first mistake stops the
 * load with a {@link ConfigException} naming the file (as the path was given), the key and what was expected.
 */
public final class ConfigLoader {

    static final String SERVER_FILE = "server.yaml";
    static final String DATABASE_FILES = "config-*.yaml";

    private static final List<String> SERVER_FILE_KEYS = List.of("server", "users", "mode");
    private static final List<String> SERVER_KEYS =
            List.of("host", "port", "authPlugin", "maxAllowedPacket", "workerThreads", "executor", "tls",
                    "metrics", "slowLog", "digests", "maxConnections", "idleTimeout", "handshakeTimeout",
                    "shutdownTimeout", "packetMemory", "watchConfig", "proxyProtocol", "socket", "socketMode");
    private static final List<String> USER_KEYS = List.of("name", "password", "databases", "admin", "maxConnections");
    private static final List<String> DATABASE_FILE_KEYS = List.of("databaseName", "dataSources", "rules",
            "exposeSchemas");
    private static final Set<String> CONNECTION_KEYS = Set.of("url", "username", "password");
    private static final String JDBC_URL = "a JDBC URL like jdbc:mariadb://host:3306/schema";

    private ConfigLoader() {
    }

    /**
     * Loads {@code confDir/server.yaml} and every {@code confDir/config-*.yaml}, the latter in file name order.
     *
     * @throws ConfigException when a file is missing or invalid, when there is no {@code config-*.yaml}, or when two
     *                         of them declare the same {@code databaseName}
     */
    public static StrataConfig load(Path confDir) {
        ServerConfig server = loadServer(confDir.resolve(SERVER_FILE));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>();
        Map<String, Path> declaredIn = new HashMap<>();
        for (Path file : databaseFiles(confDir)) {
            DatabaseConfig database = loadDatabase(file);
            Path previous = declaredIn.putIfAbsent(database.databaseName(), file);
            if (previous != null) {
                throw new ConfigException(file.toString(), "databaseName", "a name not already used by " + previous,
                        database.databaseName());
            }
            databases.put(database.databaseName(), database);
        }
        return new StrataConfig(server, databases);
    }

    public static ServerConfig loadServer(Path file) {
        YamlMap root = read(file);
        root.allowOnly(SERVER_FILE_KEYS);
        YamlMap server = root.optionalMap("server", "a mapping like { host: 0.0.0.0, port: 3307 }");
        server.allowOnly(SERVER_KEYS);
        return new ServerConfig(
                server.string("host", ServerConfig.DEFAULT_HOST),
                server.integer("port", ServerConfig.DEFAULT_PORT, 1, 65535),
                users(root),
                server.oneOf("authPlugin", ServerConfig.AUTH_PLUGINS, ServerConfig.NATIVE_PASSWORD),
                // MySQL itself accepts max_allowed_packet from 1 KiB to 1 GiB.
                server.longInteger("maxAllowedPacket", ServerConfig.DEFAULT_MAX_ALLOWED_PACKET, 1024,
                        ServerConfig.DEFAULT_MAX_ALLOWED_PACKET),
                server.integer("workerThreads", ServerConfig.DEFAULT_WORKER_THREADS, 0, Integer.MAX_VALUE),
                server.oneOf("executor", ServerConfig.EXECUTORS, ServerConfig.RELAY),
                tls(server, file),
                metrics(server),
                slowLog(server),
                digests(server),
                new LimitsConfig(server.integer("maxConnections", 0, 0, Integer.MAX_VALUE),
                        server.longInteger("idleTimeout", 0, 0, Long.MAX_VALUE),
                        server.longInteger("handshakeTimeout", LimitsConfig.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, 1,
                                Long.MAX_VALUE),
                        server.longInteger("shutdownTimeout", LimitsConfig.DEFAULT_SHUTDOWN_TIMEOUT_MILLIS, 0,
                                Long.MAX_VALUE),
                        server.longInteger("packetMemory", 0, 0, Long.MAX_VALUE)),
                server.bool("watchConfig", false),
                proxyProtocol(server),
                socket(server));
    }

    /**
     * {@code mode} of a server.yaml, as ShardingSphere writes it: {@code { type: Cluster, repository: { type:
     * ZooKeeper, props: { namespace, server-lists, ... } } }}; Standalone when absent.
     */
    public static ModeConfig loadMode(Path serverFile) {
        YamlMap mode = read(serverFile).optionalMap("mode", "a mapping like { type: Cluster, repository: { type: "
                + "ZooKeeper, props: { server-lists: localhost:2181 } } }");
        mode.allowOnly(List.of("type", "repository"));
        if (mode.oneOf("type", List.of("Standalone", "Cluster"), "Standalone").equals("Standalone")) {
            if (mode.value("repository") != null) {
                throw mode.error("repository", "no repository (type is Standalone; a repository needs type: Cluster)",
                        mode.value("repository"));
            }
            return ModeConfig.STANDALONE;
        }
        YamlMap repository = mode.map("repository", "a mapping like { type: ZooKeeper, props: { server-lists: "
                + "localhost:2181 } }");
        repository.allowOnly(List.of("type", "props"));
        String type = repository.oneOf("type", List.of(ModeConfig.ZOOKEEPER, ModeConfig.ETCD), null);
        if (type == null) {
            throw repository.error("type", "one of " + ModeConfig.ZOOKEEPER + ", " + ModeConfig.ETCD, null);
        }
        YamlMap props = repository.map("props", "a mapping like { namespace: governance_ds, server-lists: "
                + "localhost:2181 }");
        props.allowOnly(List.of("namespace", "server-lists", "retryIntervalMilliseconds", "maxRetries",
                "timeToLiveSeconds", "operationTimeoutMilliseconds", "digest"));
        String servers = props.string("server-lists");
        if (!servers.matches("[^\\s,]+:\\d+(,[^\\s,]+:\\d+)*")) {
            throw props.error("server-lists", "host:port, or several separated by commas (like zk1:2181,zk2:2181)",
                    servers);
        }
        String namespace = props.string("namespace", ModeConfig.DEFAULT_NAMESPACE);
        if (!namespace.matches("[A-Za-z0-9_.-]+")) {
            throw props.error("namespace", "a name of letters, digits, _ . and - (like governance_ds)", namespace);
        }
        String digest = props.string("digest", null);
        if (digest != null && !digest.contains(":")) {
            throw props.error("digest", "user:password of ZooKeeper's digest scheme", "value hidden");
        }
        return new ModeConfig(true, type, namespace, servers,
                props.longInteger("retryIntervalMilliseconds", 500, 1, Long.MAX_VALUE),
                props.integer("maxRetries", 3, 0, 29),
                props.integer("timeToLiveSeconds", 60, 1, Integer.MAX_VALUE),
                props.longInteger("operationTimeoutMilliseconds", 500, 1, Long.MAX_VALUE), digest);
    }

    private static SocketConfig socket(YamlMap server) {
        String path = server.string("socket", null);
        String mode = server.string("socketMode", SocketConfig.DEFAULT_MODE);
        if (!mode.matches("0?[0-7]{3}")) {
            throw server.error("socketMode", "an octal file mode like 0777 or 0660", mode);
        }
        if (path != null && path.isBlank()) {
            throw server.error("socket", "the path of a Unix socket file, like /run/strata/strata.sock", path);
        }
        return new SocketConfig(path, mode);
    }

    private static ProxyProtocolConfig proxyProtocol(YamlMap server) {
        YamlMap proxy = server.optionalMap("proxyProtocol", "a mapping like { enabled: true, trustedNetworks: "
                + "[10.0.0.0/8] }");
        proxy.allowOnly(List.of("enabled", "trustedNetworks"));
        if (!proxy.bool("enabled", false)) {
            return ProxyProtocolConfig.DISABLED;
        }
        List<String> trusted = proxy.strings("trustedNetworks", List.of());
        if (trusted.isEmpty()) {
            throw proxy.error("trustedNetworks", "the addresses or CIDR blocks of the load balancers that send the "
                    + "header (a list like [10.0.0.0/8, 127.0.0.1])", proxy.value("trustedNetworks"));
        }
        for (int i = 0; i < trusted.size(); i++) {
            try {
                ClientAddress.parse(trusted.get(i));
            } catch (IllegalArgumentException e) {
                throw proxy.error("trustedNetworks[" + i + "]", "an address or CIDR block (" + e.getMessage() + ")",
                        trusted.get(i));
            }
        }
        return new ProxyProtocolConfig(true, trusted);
    }

    private static SlowLogConfig slowLog(YamlMap server) {
        YamlMap slowLog = server.optionalMap("slowLog", "a mapping like { enabled: true, threshold: 1000, file: "
                + SlowLogConfig.DEFAULT_FILE + " }");
        slowLog.allowOnly(List.of("enabled", "threshold", "file"));
        return new SlowLogConfig(slowLog.bool("enabled", false),
                slowLog.longInteger("threshold", SlowLogConfig.DEFAULT_THRESHOLD_MILLIS, 0, Long.MAX_VALUE),
                slowLog.string("file", SlowLogConfig.DEFAULT_FILE));
    }

    private static DigestsConfig digests(YamlMap server) {
        YamlMap digests = server.optionalMap("digests", "a mapping like { enabled: true, maxDigests: "
                + DigestsConfig.DEFAULT_MAX_DIGESTS + " }");
        digests.allowOnly(List.of("enabled", "maxDigests"));
        return new DigestsConfig(digests.bool("enabled", DigestsConfig.DEFAULT.enabled()),
                digests.integer("maxDigests", DigestsConfig.DEFAULT_MAX_DIGESTS, 1, Integer.MAX_VALUE));
    }

    private static MetricsConfig metrics(YamlMap server) {
        YamlMap metrics = server.optionalMap("metrics", "a mapping like { enabled: true, host: 0.0.0.0, port: "
                + MetricsConfig.DEFAULT_PORT + " }");
        metrics.allowOnly(List.of("enabled", "host", "port"));
        if (!metrics.bool("enabled", false)) {
            return MetricsConfig.DISABLED;
        }
        return MetricsConfig.on(metrics.string("host", MetricsConfig.DEFAULT_HOST),
                metrics.integer("port", MetricsConfig.DEFAULT_PORT, 1, 65535));
    }

    private static TlsConfig tls(YamlMap server, Path file) {
        YamlMap tls = server.optionalMap("tls", "a mapping like { enabled: true, certificate: cert.pem, "
                + "privateKey: key.pem }");
        tls.allowOnly(List.of("enabled", "certificate", "privateKey"));
        if (!tls.bool("enabled", false)) {
            return TlsConfig.DISABLED;
        }
        String certificate = tls.string("certificate", null);
        String privateKey = tls.string("privateKey", null);
        if ((certificate == null) != (privateKey == null)) {
            throw tls.error(certificate == null ? "certificate" : "privateKey",
                    "both certificate and privateKey, or neither (a self-signed certificate)", null);
        }
        if (certificate == null) {
            return TlsConfig.selfSigned();
        }
        Path dir = file.toAbsolutePath().getParent();
        for (String key : List.of("certificate", "privateKey")) {
            Path path = dir.resolve(tls.string(key));
            if (!java.nio.file.Files.isReadable(path)) {
                throw tls.error(key, "a readable PEM file (relative to " + dir + ")", path.toString());
            }
        }
        return new TlsConfig(true, dir.resolve(certificate).toString(), dir.resolve(privateKey).toString());
    }

    public static DatabaseConfig loadDatabase(Path file) {
        YamlMap root = read(file);
        root.allowOnly(DATABASE_FILE_KEYS);
        return new DatabaseConfig(root.string("databaseName"), dataSources(root), rules(root),
                root.bool("exposeSchemas", false));
    }

    private static List<UserConfig> users(YamlMap root) {
        List<UserConfig> users = new ArrayList<>();
        for (YamlMap entry : root.maps("users", "users like { name: root, password: root }", true)) {
            entry.allowOnly(USER_KEYS);
            UserConfig user = new UserConfig(entry.string("name"), entry.secret("password"),
                    entry.strings("databases", List.of(UserConfig.ALL_DATABASES)), entry.bool("admin", false),
                    entry.integer("maxConnections", 0, 0, Integer.MAX_VALUE));
            if (users.stream().anyMatch(other -> other.name().equals(user.name()))) {
                throw entry.error("name", "a name no other user has", user.name());
            }
            users.add(user);
        }
        return users;
    }

    private static Map<String, DataSourceConfig> dataSources(YamlMap root) {
        String expected = "at least one data source like ds_0: { url: ..., username: ..., password: ... }";
        YamlMap section = root.map("dataSources", expected);
        if (section.isEmpty()) {
            throw root.error("dataSources", expected, "{}");
        }
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        for (String name : section.keys()) {
            YamlMap entry = section.map(name, "a data source mapping with url, username and password");
            dataSources.put(name, dataSource(name, entry));
        }
        return dataSources;
    }

    private static DataSourceConfig dataSource(String name, YamlMap written) {
        YamlMap entry = ShardingSphereDataSource.read(written);
        JdbcUrl url = jdbcUrl(entry);
        String username = entry.string("username");
        String password = entry.secret("password");
        checkPoolNumbers(entry);
        return new DataSourceConfig(name, (String) entry.value("url"), username, password, url.host(), url.port(),
                url.schema(), entry.without(CONNECTION_KEYS), "");
    }

    private static JdbcUrl jdbcUrl(YamlMap entry) {
        if (!(entry.value("url") instanceof String url)) {
            throw entry.error("url", JDBC_URL, entry.value("url"));
        }
        JdbcUrl parsed;
        try {
            parsed = JdbcUrl.parse(url);
        } catch (IllegalArgumentException e) {
            throw entry.error("url", JDBC_URL, url, e);
        }
        try {
            BackendTls.ofUrl(url);
        } catch (IllegalArgumentException e) {
            throw entry.error("url", "TLS parameters as MariaDB Connector/J takes them: " + e.getMessage(), url, e);
        }
        return parsed;
    }

    // Only the pool settings Strata reads itself are checked; the rest are handed to HikariCP as written.
    private static void checkPoolNumbers(YamlMap entry) {
        entry.integer(DataSourceConfig.MAXIMUM_POOL_SIZE, 0, 1, Integer.MAX_VALUE);
        entry.integer(DataSourceConfig.MINIMUM_IDLE, 0, 0, Integer.MAX_VALUE);
        entry.longInteger(DataSourceConfig.CONNECTION_TIMEOUT, 0, 0, Long.MAX_VALUE);
        entry.longInteger(DataSourceConfig.IDLE_TIMEOUT, 0, 0, Long.MAX_VALUE);
        entry.longInteger(DataSourceConfig.MAX_LIFETIME, 0, 0, Long.MAX_VALUE);
        entry.longInteger(DataSourceConfig.LEAK_DETECTION_THRESHOLD, 0, 0, Long.MAX_VALUE);
    }

    private static List<RuleConfig> rules(YamlMap root) {
        List<RuleConfig> rules = new ArrayList<>();
        for (YamlMap entry : root.maps("rules", "rules like { type: ..., ... }", false)) {
            rules.add(new RuleConfig(entry.string("type"), entry.without(Set.of("type"))));
        }
        return rules;
    }

    private static List<Path> databaseFiles(Path confDir) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(confDir, DATABASE_FILES)) {
            stream.forEach(file -> {
                if (Files.isRegularFile(file)) {
                    files.add(file);
                }
            });
        } catch (IOException e) {
            throw new ConfigException(confDir.toString(), "", "a readable configuration directory", e.toString(), e);
        }
        if (files.isEmpty()) {
            throw new ConfigException(confDir.resolve(DATABASE_FILES).toString(), "",
                    "at least one database configuration file", null);
        }
        files.sort(Comparator.comparing(file -> file.getFileName().toString()));
        return files;
    }

    private static YamlMap read(Path file) {
        String name = file.toString();
        String text = readText(file);
        try {
            return YamlMap.root(name, newYaml().load(text));
        } catch (MarkedYAMLException e) {
            throw syntaxError(name, e);
        } catch (YAMLException e) {
            throw new ConfigException(name, "", "valid YAML", e.getMessage(), e);
        }
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), "", "a YAML file", null, e);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "", "a readable UTF-8 YAML file", e.toString(), e);
        }
    }

    // SafeConstructor builds plain maps, lists and scalars only: a config file must never instantiate classes.
    // Duplicate keys are refused because YAML would silently keep the last one.
    private static Yaml newYaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return new Yaml(new SafeConstructor(options));
    }

    // The offending line is not quoted: it may well hold a password.
    private static ConfigException syntaxError(String file, MarkedYAMLException e) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
        String where = mark == null ? "" : "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
        return new ConfigException(file, where, "valid YAML", problem, e);
    }
}
