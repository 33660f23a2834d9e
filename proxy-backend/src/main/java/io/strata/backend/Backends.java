package io.strata.backend;

import io.netty.channel.EventLoopGroup;
import io.strata.backend.connection.BackendConnector;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.deadlock.DeadlockDetector;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Every backend pool, one per data source of each logical database (data source names are local to their
 * config-*.yaml, so pools are keyed by both names).
 */
public final class Backends implements AutoCloseable {

    private final BackendConnector connector;
    private final Map<String, Map<String, BackendPool>> pools = new LinkedHashMap<>();
    /** Breaks cycles of lock waits across data sources; null with a single pool. */
    private final DeadlockDetector deadlocks;

    public Backends(StrataConfig config, EventLoopGroup group) {
        this.connector = new BackendConnector(group);
        for (DatabaseConfig database : config.databases().values()) {
            for (DataSourceConfig dataSource : database.dataSources().values()) {
                pools.computeIfAbsent(database.databaseName(), d -> new LinkedHashMap<>())
                        .put(dataSource.name(), new BackendPool(dataSource, connector, group));
            }
        }
        this.deadlocks = DeadlockDetector.startIfNeeded(pools().values());
    }

    /** How many deadlocks across data sources were broken since the start. */
    public long deadlocksBroken() {
        return deadlocks == null ? 0 : deadlocks.broken();
    }

    /** Two lookups and no key building: this runs for every statement. */
    public BackendPool pool(String database, String dataSource) {
        Map<String, BackendPool> ofDatabase = pools.get(database);
        BackendPool pool = ofDatabase == null ? null : ofDatabase.get(dataSource);
        if (pool == null) {
            throw new IllegalArgumentException("no data source '" + dataSource + "' in database '" + database + "'");
        }
        return pool;
    }

    /**
     * Closes the data source's connections whose command has waited {@code patienceMillis} for a first byte of answer
     * (see {@link io.strata.backend.connection.BackendConnection#abortIfUnanswered}): its reads go elsewhere.
     */
    public void abortUnanswered(String database, String dataSource, long patienceMillis, String why) {
        long patience = TimeUnit.MILLISECONDS.toNanos(patienceMillis);
        pool(database, dataSource).connections().forEach(c -> c.abortIfUnanswered(patience, why));
    }

    /** Every pool, in configuration order, keyed "database/dataSource". */
    public Map<String, BackendPool> pools() {
        Map<String, BackendPool> all = new LinkedHashMap<>();
        pools.forEach((database, ofDatabase) -> ofDatabase.forEach((name, pool) -> all.put(key(database, name),
                pool)));
        return all;
    }

    public BackendConnector connector() {
        return connector;
    }

    @Override
    public void close() {
        if (deadlocks != null) {
            deadlocks.close();
        }
        pools.values().forEach(ofDatabase -> ofDatabase.values().forEach(BackendPool::close));
    }

    private static String key(String database, String dataSource) {
        return database + "/" + dataSource;
    }
}
