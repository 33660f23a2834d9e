package io.strata.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A physical MariaDB/MySQL database behind a logical one, with the HikariCP settings of its pool.
 *
 * @param host      server host taken from the URL
 * @param port      server port taken from the URL, 3306 when it has none
 * @param schema    schema taken from the URL, empty when it has none
 * @param poolProps HikariCP properties by their HikariCP names, read-only
 * @param database  the logical database whose data source it is (names are local to a config-*.yaml, so two
 *                  databases may each have a ds_0); empty until a {@link DatabaseConfig} holds it
 */
public record DataSourceConfig(String name, String url, String username, String password, String host, int port,
                               String schema, Map<String, Object> poolProps, String database) {

    public static final String MAXIMUM_POOL_SIZE = "maximumPoolSize";
    public static final String CONNECTION_TIMEOUT = "connectionTimeout";
    public static final String MINIMUM_IDLE = "minimumIdle";
    public static final String IDLE_TIMEOUT = "idleTimeout";
    public static final String MAX_LIFETIME = "maxLifetime";
    public static final String LEAK_DETECTION_THRESHOLD = "leakDetectionThreshold";
    /** Pool properties read as numbers by the accessors below. */
    public static final List<String> NUMERIC_POOL_PROPS =
            List.of(MAXIMUM_POOL_SIZE, CONNECTION_TIMEOUT, MINIMUM_IDLE, IDLE_TIMEOUT, MAX_LIFETIME,
                    LEAK_DETECTION_THRESHOLD);

    public DataSourceConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(username, "username");
        password = password == null ? "" : password;
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(schema, "schema");
        poolProps = Immutable.deepMap(poolProps);
        requireWholeNumbers(poolProps);
        database = database == null ? "" : database;
    }

    /** The same data source, of {@code database}. */
    public DataSourceConfig inDatabase(String database) {
        return database.equals(this.database) ? this : new DataSourceConfig(name, url, username, password, host,
                port, schema, poolProps, database);
    }

    /** How messages name it: {@code data source 'ds_0' of database 'shop'}. */
    public String describe() {
        return describe(database, name);
    }

    /** How messages name data source {@code name} of {@code database}. */
    public static String describe(String database, String name) {
        return "data source '" + name + "'" + (database == null || database.isEmpty() ? ""
                : " of database '" + database + "'");
    }

    /**
     * A data source whose host, port and schema come from {@code url}.
     *
     * @throws IllegalArgumentException when {@code url} is not a single-host {@code jdbc:mariadb://} or
     *                                  {@code jdbc:mysql://} URL
     */
    public static DataSourceConfig of(String name, String url, String username, String password,
                                      Map<String, Object> poolProps) {
        JdbcUrl parsed = JdbcUrl.parse(Objects.requireNonNull(url, "url"));
        return new DataSourceConfig(name, url, username, password, parsed.host(), parsed.port(), parsed.schema(),
                poolProps, "");
    }

    /** TLS to this data source, as its URL's Connector/J parameters say ({@link BackendTls#OFF} without). */
    public BackendTls tls() {
        return url.indexOf('?') < 0 ? BackendTls.OFF : BackendTls.ofUrl(url);
    }

    public int maximumPoolSize() {
        return (int) number(MAXIMUM_POOL_SIZE, 64);
    }

    public long connectionTimeoutMillis() {
        return number(CONNECTION_TIMEOUT, 30_000);
    }

    public int minimumIdle() {
        return (int) number(MINIMUM_IDLE, 0);
    }

    public long idleTimeoutMillis() {
        return number(IDLE_TIMEOUT, 600_000);
    }

    public long maxLifetimeMillis() {
        return number(MAX_LIFETIME, 1_800_000);
    }

    /** ms a connection may stay borrowed before it is reported as leaked; 0, the default, turns the check off. */
    public long leakDetectionThresholdMillis() {
        return number(LEAK_DETECTION_THRESHOLD, 0);
    }

    // Records print every component; configs end up in logs, passwords must not.
    @Override
    public String toString() {
        return "DataSourceConfig[name=" + name + ", url=" + url + ", username=" + username + ", password=****, host="
                + host + ", port=" + port + ", schema=" + schema + ", poolProps=" + poolProps + "]";
    }

    private long number(String key, long fallback) {
        return poolProps.get(key) instanceof Number value ? value.longValue() : fallback;
    }

    // Checked once here so the accessors above never meet a string or a fraction.
    private static void requireWholeNumbers(Map<String, Object> poolProps) {
        for (String key : NUMERIC_POOL_PROPS) {
            Object value = poolProps.get(key);
            boolean whole = value instanceof Integer || value instanceof Long;
            if (value != null && !whole) {
                throw new IllegalArgumentException("pool property " + key + " must be a whole number, got '" + value + "'");
            }
        }
    }
}
