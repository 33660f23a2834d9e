package io.strata.backend;

import io.netty.channel.EventLoopGroup;
import io.strata.backend.connection.BackendConnector;
import io.strata.backend.connection.BackendPool;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.StrataConfig;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every backend pool, one per data source of each logical database (data source names are local to their
 * config-*.yaml, so pools are keyed by both names).
 */
public final class Backends implements AutoCloseable {

    private final BackendConnector connector;
    private final Map<String, BackendPool> pools = new LinkedHashMap<>();

    public Backends(StrataConfig config, EventLoopGroup group) {
        this.connector = new BackendConnector(group);
        for (DatabaseConfig database : config.databases().values()) {
            for (DataSourceConfig dataSource : database.dataSources().values()) {
                pools.put(key(database.databaseName(), dataSource.name()),
                        new BackendPool(dataSource, connector, group));
            }
        }
    }

    public BackendPool pool(String database, String dataSource) {
        BackendPool pool = pools.get(key(database, dataSource));
        if (pool == null) {
            throw new IllegalArgumentException("no data source '" + dataSource + "' in database '" + database + "'");
        }
        return pool;
    }

    public Map<String, BackendPool> pools() {
        return Map.copyOf(pools);
    }

    public BackendConnector connector() {
        return connector;
    }

    @Override
    public void close() {
        pools.values().forEach(BackendPool::close);
    }

    private static String key(String database, String dataSource) {
        return database + "/" + dataSource;
    }
}
