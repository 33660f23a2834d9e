package io.strata.backend.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import io.strata.config.ConfigException;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * HikariCP pools for the data sources of each logical database, configured with the data source's settings under
 * HikariCP's own names. A server counts affected rows in one of two ways, fixed per connection by the client flag
 * CLIENT_FOUND_ROWS, so each data source has a pool for each way, made at first use. Pools connect lazily: a backend
 * that is down at start costs nothing until it is used.
 */
public final class JdbcDataSources implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcDataSources.class);

    private final Map<String, DataSourceConfig> dataSources = new LinkedHashMap<>();
    private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final JdbcSessionVariables variables;
    /** Reads running now, by data source, with when each started: what a hung replica may never answer. */
    private final Map<String, Map<Connection, Long>> reads;
    private final MetricsTrackerFactory metrics;

    private volatile String serverVersion;

    public JdbcDataSources(StrataConfig config) {
        this(config, null);
    }

    /** @param metrics where the HikariCP pools report (HikariCP's own Micrometer tracker), or null */
    public JdbcDataSources(StrataConfig config, MetricsTrackerFactory metrics) {
        this(config, metrics, null);
    }

    /**
     * The pools of a reloaded configuration: a data source whose settings did not change keeps its pools of
     * {@code previous} (and their connections); any other gets new ones at first use. {@link #retire} then drains
     * the rest.
     */
    public JdbcDataSources(StrataConfig config, MetricsTrackerFactory metrics, JdbcDataSources previous) {
        this.metrics = metrics;
        this.variables = previous != null ? previous.variables : new JdbcSessionVariables();
        this.reads = previous != null ? previous.reads : new ConcurrentHashMap<>();
        this.serverVersion = previous != null ? previous.serverVersion : null;
        for (DatabaseConfig database : config.databases().values()) {
            for (DataSourceConfig dataSource : database.dataSources().values()) {
                hikari(database.databaseName(), dataSource, true); // fails fast on settings HikariCP rejects
                String key = key(database.databaseName(), dataSource.name());
                dataSources.put(key, dataSource);
                if (previous != null && dataSource.equals(previous.dataSources.get(key))) {
                    for (boolean foundRows : new boolean[] {true, false}) {
                        HikariDataSource pool = previous.pools.get(key + "/" + foundRows);
                        if (pool != null) {
                            pools.put(key + "/" + foundRows, pool);
                        }
                    }
                }
            }
        }
    }

    /**
     * A reload replaced these pools by {@code next}: the ones {@code next} does not share stop lending, and close
     * once every connection sessions hold is given back.
     *
     * @return the pools now draining
     */
    public List<HikariDataSource> retire(JdbcDataSources next) {
        List<HikariDataSource> draining = new ArrayList<>();
        pools.forEach((key, pool) -> {
            if (next.pools.get(key) != pool) {
                pool.getHikariPoolMXBean().softEvictConnections();
                draining.add(pool);
            }
        });
        return draining;
    }

    static HikariConfig hikari(String database, DataSourceConfig dataSource, boolean foundRows) {
        Properties props = new Properties();
        dataSource.poolProps().forEach((key, value) -> props.setProperty(key, String.valueOf(value)));
        HikariConfig config;
        try {
            config = new HikariConfig(props);
        } catch (RuntimeException e) {
            throw new ConfigException("config-" + database + ".yaml", "dataSources." + dataSource.name(),
                    "HikariCP settings (" + e.getMessage() + ")", dataSource.poolProps().keySet());
        }
        config.setPoolName(database + "/" + dataSource.name() + (foundRows ? "" : "/affected-rows"));
        config.setJdbcUrl(mariadbUrl(dataSource) + "&useAffectedRows=" + !foundRows);
        config.setUsername(dataSource.username());
        config.setPassword(dataSource.password());
        config.setMaximumPoolSize(dataSource.maximumPoolSize());
        config.setMinimumIdle(dataSource.minimumIdle());
        config.setConnectionTimeout(dataSource.connectionTimeoutMillis());
        config.setIdleTimeout(dataSource.idleTimeoutMillis());
        config.setMaxLifetime(dataSource.maxLifetimeMillis());
        config.setInitializationFailTimeout(-1);
        config.setConnectionInitSql(JdbcSessionVariables.SERVER_SQL_MODE);
        return config;
    }

    /**
     * MariaDB Connector/J is the backend driver, whatever scheme the URL names. Multi-statements are allowed (the
     * client's own option decides), and COM_RESET_CONNECTION cleans connections that sessions leave with state.
     * LOCAL INFILE is off: the driver would read the file a client names from Strata's own disk.
     * Client prepared statements are prepared on the server and cached per connection (the driver caches only with
     * useServerPrepStmts; Strata runs text statements unprepared either way), at most 128 per connection as the
     * relay's: max_prepared_stmt_count is one limit for the whole server. Executes always bring their column
     * definitions (enableSkipMeta off): a statement prepared for one session serves others, whose
     * character_set_results may differ, and the server describes columns in it. A caching_sha2_password account
     * (MySQL 8's default) may log in without TLS: the driver then asks the server for its RSA key, as the relay's
     * own handshake does.
     */
    static String mariadbUrl(DataSourceConfig dataSource) {
        String schema = dataSource.schema().isEmpty() ? "" : dataSource.schema();
        return "jdbc:mariadb://" + (dataSource.host().contains(":") ? "[" + dataSource.host() + "]"
                : dataSource.host()) + ":" + dataSource.port() + "/" + schema
                + "?allowMultiQueries=true&useResetConnection=true&allowLocalInfile=false"
                + "&useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=128&enableSkipMeta=false"
                + "&allowPublicKeyRetrieval=true" + dataSource.tls().urlParameters();
    }

    /**
     * The backend's version as its first data source reports it (read once, by {@link #probeServerVersion}), or null
     * before that or when it could not be reached.
     */
    public String serverVersion() {
        return serverVersion;
    }

    /**
     * Asks the first data source for its server version; a backend that is down is reported, not thrown: statements
     * get a clear error until it is back.
     */
    public String probeServerVersion() {
        var first = dataSources.entrySet().iterator().next();
        String[] key = first.getKey().split("/", 2);
        try (Connection connection = get(key[0], key[1], true).getConnection()) {
            serverVersion = connection.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            LOG.warn("backend {} is not reachable now ({}); statements get errors for it until it is back",
                    first.getValue().describe(), e.getMessage());
        }
        return serverVersion;
    }

    /** The tracked session variables each pooled connection holds. */
    public JdbcSessionVariables variables() {
        return variables;
    }

    /** @param foundRows whether UPDATE counts matched rows (CLIENT_FOUND_ROWS) rather than changed ones */
    public HikariDataSource get(String database, String dataSource, boolean foundRows) {
        String key = key(database, dataSource);
        DataSourceConfig config = dataSources.get(key);
        if (config == null) {
            throw new IllegalArgumentException("no data source '" + dataSource + "' in database '" + database + "'");
        }
        return pools.computeIfAbsent(key + "/" + foundRows, k -> {
            HikariConfig hikari = hikari(database, config, foundRows);
            if (metrics != null) {
                hikari.setMetricsTrackerFactory(metrics);
            }
            return new HikariDataSource(hikari);
        });
    }

    /** A read starts on {@code connection}; {@link #readEnded} must follow. */
    public void readStarted(String database, String dataSource, Connection connection) {
        reads.computeIfAbsent(key(database, dataSource), k -> new ConcurrentHashMap<>())
                .put(connection, System.nanoTime());
    }

    public void readEnded(String database, String dataSource, Connection connection) {
        Map<Connection, Long> running = reads.get(key(database, dataSource));
        if (running != null) {
            running.remove(connection);
        }
    }

    /**
     * Aborts the data source's reads that have run {@code patienceMillis} or longer: the health check found it
     * unreachable, and a hung server keeps its sockets open, so their answers may never come. Each fails with a
     * connection error, so a read that has sent its client nothing goes to another data source.
     */
    public void abortReads(String database, String dataSource, long patienceMillis) {
        Map<Connection, Long> running = reads.get(key(database, dataSource));
        if (running == null) {
            return;
        }
        long startedBefore = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(patienceMillis);
        running.forEach((connection, startedNanos) -> {
            if (startedNanos - startedBefore <= 0) {
                try {
                    connection.abort(Runnable::run);
                } catch (SQLException e) {
                    LOG.debug("aborting a read on {}: {}", dataSource, e.getMessage());
                }
            }
        });
    }

    @Override
    public void close() {
        pools.values().forEach(HikariDataSource::close);
    }

    private static String key(String database, String dataSource) {
        return database + "/" + dataSource;
    }
}
