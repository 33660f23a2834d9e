package io.strata.backend;

import io.netty.channel.EventLoopGroup;
import io.strata.backend.connection.BackendConnector;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.deadlock.DeadlockDetector;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    /** Deadlocks broken by the detectors of the configurations before a reload: the count goes on from there. */
    private final long brokenBefore;

    public Backends(StrataConfig config, EventLoopGroup group) {
        this(config, group, null);
    }

    /**
     * The pools of a reloaded configuration: a data source whose settings did not change keeps its pool of
     * {@code previous} (and its connections); any other gets a new one. {@link #retire} then drains the rest.
     */
    public Backends(StrataConfig config, EventLoopGroup group, Backends previous) {
        this.connector = previous != null ? previous.connector : new BackendConnector(group);
        for (DatabaseConfig database : config.databases().values()) {
            for (DataSourceConfig dataSource : database.dataSources().values()) {
                BackendPool kept = previous == null ? null : previous.unchanged(database.databaseName(), dataSource);
                pools.computeIfAbsent(database.databaseName(), d -> new LinkedHashMap<>()).put(dataSource.name(),
                        kept != null ? kept : new BackendPool(dataSource, connector, group));
            }
        }
        this.deadlocks = DeadlockDetector.startIfNeeded(pools().values());
        this.brokenBefore = previous == null ? 0 : previous.deadlocksBroken();
    }

    /** The pool of a data source configured as {@code dataSource} is now, or null when it changed or is new. */
    private BackendPool unchanged(String database, DataSourceConfig dataSource) {
        Map<String, BackendPool> ofDatabase = pools.get(database);
        BackendPool pool = ofDatabase == null ? null : ofDatabase.get(dataSource.name());
        return pool != null && pool.config().equals(dataSource) ? pool : null;
    }

    /**
     * A reload replaced these backends by {@code next}: the pools {@code next} does not share drain (connections
     * that sessions hold close when given back) and close once empty.
     *
     * @return the pools now draining
     */
    public List<BackendPool> retire(Backends next) {
        if (deadlocks != null) {
            deadlocks.close();
        }
        Set<BackendPool> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        kept.addAll(next.pools().values());
        List<BackendPool> draining = new ArrayList<>();
        for (BackendPool pool : pools().values()) {
            if (!kept.contains(pool)) {
                pool.drain();
                draining.add(pool);
            }
        }
        return draining;
    }

    /** How many deadlocks across data sources were broken since the start. */
    public long deadlocksBroken() {
        return brokenBefore + (deadlocks == null ? 0 : deadlocks.broken());
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
