package io.strata.it;

import io.strata.bootstrap.Strata;
import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

import org.yaml.snakeyaml.Yaml;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A Strata server on a free port in front of the shared backend, with users {@code root}/{@code root} (every
 * database), {@code app}/{@code app} and {@code ops}/{@code ops} (only {@code it}; ops's password configured as its
 * hash), and the logical database {@code it}.
 */
final class StrataFixture implements AutoCloseable {

    /** MariaDB's {@code SELECT PASSWORD('ops')}: how server.yaml may hold a password. */
    static final String OPS_PASSWORD_HASH = "*617D70D9B08072FB88ED37E21D4B3F4F5843AC25";

    final Strata strata;

    private StrataFixture(Strata strata) {
        this.strata = strata;
    }

    static StrataFixture start() {
        return start(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of());
    }

    static StrataFixture start(String authPlugin, EmbeddedMariaDb backend, Map<String, Object> poolProps) {
        return start(authPlugin, backend, poolProps, "strata");
    }

    /** The default setup with server settings changed, e.g. {@code s -> s.withTls(TlsConfig.selfSigned())}. */
    static StrataFixture start(java.util.function.UnaryOperator<ServerConfig> change, String authPlugin) {
        StrataConfig config = config(authPlugin, Backend.server(), Map.of(), "strata");
        return new StrataFixture(Strata.builder().config(new StrataConfig(change.apply(config.server()),
                config.databases())).start());
    }

    /** @param backendUser the MariaDB user Strata logs in as (it must exist with password = name) */
    static StrataFixture start(String authPlugin, EmbeddedMariaDb backend, Map<String, Object> poolProps,
                               String backendUser) {
        return new StrataFixture(Strata.builder().config(config(authPlugin, backend, poolProps, backendUser))
                .start());
    }

    /**
     * The default setup with a second logical database, {@code name}, on the backend schema {@code schema} of the
     * same server (a data source of its own).
     */
    static StrataFixture withSecondDatabase(String name, String schema) {
        StrataConfig config = config(ServerConfig.NATIVE_PASSWORD, Backend.server(), Map.of(), "strata");
        DataSourceConfig ds = DataSourceConfig.of("ds_1", Backend.server().jdbcUrl(schema), "strata", "strata",
                Map.of("maximumPoolSize", 16, "connectionTimeout", 5000));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(config.databases());
        databases.put(name, new DatabaseConfig(name, Map.of("ds_1", ds), List.of()));
        return new StrataFixture(Strata.builder().config(new StrataConfig(config.server(), databases)).start());
    }

    /**
     * The default setup with a logical database {@code shop} over two servers: data source ds_0 is {@code schemaA} of
     * {@code a}, ds_1 is {@code schemaB} of {@code b}, with the rules of {@code rulesYaml} (a YAML list of rule blocks,
     * as in a config-*.yaml).
     */
    static StrataConfig shop(EmbeddedMariaDb a, String schemaA, EmbeddedMariaDb b, String schemaB, String rulesYaml) {
        StrataConfig defaults = config(ServerConfig.NATIVE_PASSWORD, a, Map.of(), "strata");
        Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
        dataSources.put("ds_0", DataSourceConfig.of("ds_0", a.jdbcUrl(schemaA), "strata", "strata",
                Map.of("maximumPoolSize", 8, "connectionTimeout", 3000)));
        dataSources.put("ds_1", DataSourceConfig.of("ds_1", b.jdbcUrl(schemaB), "strata", "strata",
                Map.of("maximumPoolSize", 8, "connectionTimeout", 3000)));
        Map<String, DatabaseConfig> databases = new LinkedHashMap<>(defaults.databases());
        databases.put("shop", new DatabaseConfig("shop", dataSources, rules(rulesYaml)));
        return new StrataConfig(defaults.server(), databases);
    }

    /** The rule blocks of a YAML list, as the {@code rules:} of a config-*.yaml holds them. */
    static List<RuleConfig> rules(String rulesYaml) {
        List<RuleConfig> rules = new ArrayList<>();
        for (Object rule : (List<?>) new Yaml().load(rulesYaml)) {
            Map<String, Object> props = new LinkedHashMap<>();
            ((Map<?, ?>) rule).forEach((k, v) -> props.put((String) k, v));
            rules.add(new RuleConfig((String) props.remove("type"), props));
        }
        return rules;
    }

    static StrataConfig config(String authPlugin, EmbeddedMariaDb backend, Map<String, Object> poolProps,
                               String backendUser) {
        ServerConfig server = new ServerConfig("127.0.0.1", 0, List.of(
                new UserConfig("root", "root", List.of("*"), true),
                new UserConfig("app", "app", List.of("it")),
                new UserConfig("ops", OPS_PASSWORD_HASH, List.of("it"))), authPlugin, 1L << 30, 2, executor());
        Map<String, Object> pool = new LinkedHashMap<>(Map.of("maximumPoolSize", 16, "connectionTimeout", 5000));
        pool.putAll(poolProps);
        DataSourceConfig ds = DataSourceConfig.of("ds_0", backend.jdbcUrl(Backend.SCHEMA), backendUser, backendUser,
                pool);
        DatabaseConfig it = new DatabaseConfig("it", Map.of("ds_0", ds), List.of());
        return new StrataConfig(server, Map.of("it", it));
    }

    /** The executor under test: the build runs the executor-neutral suites once per executor. */
    static String executor() {
        return System.getProperty("strata.it.executor", ServerConfig.RELAY);
    }

    int port() {
        return strata.port();
    }

    io.strata.backend.Backends backends() {
        return strata.backends();
    }

    Connection connect(Driver driver) throws SQLException {
        return connect(driver, "it", "root", "root", new Properties());
    }

    Connection connect(Driver driver, String database, String user, String password, Properties extra)
            throws SQLException {
        return driver.connect(port(), database, user, password, extra);
    }

    @Override
    public void close() {
        strata.close();
    }

    /**
     * Both drivers, each in the text protocol and with server-side prepared statements (the binary protocol): the
     * arguments of a test that takes {@code (Driver driver, boolean binary)}.
     */
    static Stream<Arguments> clients() {
        return Stream.of(Driver.values()).flatMap(d -> Stream.of(Arguments.of(d, false), Arguments.of(d, true)));
    }

    /**
     * The proxy's clients, then the embedded driver: the same rules in the test's JVM, with no wire protocol, so once.
     * Its driver argument is null, named EMBEDDED; the test connects it through its own {@code StrataDataSource}
     * over the proxy's configuration. A rule's suite is run through both hosts of the kernel this way.
     */
    static Stream<Arguments> clientsAndEmbedded() {
        return Stream.concat(clients(), Stream.of(Arguments.of(Named.of("EMBEDDED", null), false)));
    }

    /** A connection to {@code database} as root, in the text or the binary protocol. */
    static Connection connect(int port, String database, Driver driver, boolean binary) throws SQLException {
        return connect(port, database, driver, binary, "root");
    }

    /** As {@code user}, whose password is its name (Strata's root, or a backend's test user). */
    static Connection connect(int port, String database, Driver driver, boolean binary, String user)
            throws SQLException {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", String.valueOf(binary));
        return driver.connect(port, database, user, user, props);
    }

    /** The two client drivers every protocol test runs with. */
    enum Driver {
        MARIADB("jdbc:mariadb://127.0.0.1:%d/%s"),
        MYSQL("jdbc:mysql://127.0.0.1:%d/%s");

        private final String url;

        Driver(String url) {
            this.url = url;
        }

        Connection connect(int port, String database, String user, String password, Properties extra)
                throws SQLException {
            Properties props = new Properties();
            props.setProperty("user", user);
            props.setProperty("password", password);
            if (this == MYSQL) {
                props.setProperty("sslMode", "DISABLED");
                props.setProperty("allowPublicKeyRetrieval", "true");
            }
            props.putAll(extra);
            return DriverManager.getConnection(url.formatted(port, database == null ? "" : database), props);
        }
    }
}
