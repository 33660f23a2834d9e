package io.strata.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One logical database a client sees, with the physical data sources and the rules that route to them.
 *
 * @param dataSources   keyed by data source name, in the order of the file
 * @param exposeSchemas clients of this database may also use the other schemas of its data sources as they are:
 *                      USE, CREATE DATABASE and DROP DATABASE of a name that is no logical database go to the
 *                      backend, whose account's privileges decide (a single-backend proxy's view); when false,
 *                      CREATE and DROP DATABASE are refused, as no client could use the schema
 */
public record DatabaseConfig(String databaseName, Map<String, DataSourceConfig> dataSources, List<RuleConfig> rules,
                             boolean exposeSchemas) {

    public DatabaseConfig {
        Objects.requireNonNull(databaseName, "databaseName");
        Map<String, DataSourceConfig> own = new LinkedHashMap<>();
        dataSources.forEach((name, dataSource) -> own.put(name, dataSource.inDatabase(databaseName)));
        dataSources = Immutable.orderedMap(own);
        rules = List.copyOf(rules);
    }

    /** A database that shows only itself. */
    public DatabaseConfig(String databaseName, Map<String, DataSourceConfig> dataSources, List<RuleConfig> rules) {
        this(databaseName, dataSources, rules, false);
    }

    /** The first data source: where statements go that no rule claims. */
    public DataSourceConfig defaultDataSource() {
        return dataSources.values().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("database " + databaseName + " has no data source"));
    }
}
