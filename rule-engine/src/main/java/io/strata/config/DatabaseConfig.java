package io.strata.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One logical database a client sees, with the physical data sources and the rules that route to them.
 *
 * @param dataSources keyed by data source name, in the order of the file
 */
public record DatabaseConfig(String databaseName, Map<String, DataSourceConfig> dataSources, List<RuleConfig> rules) {

    public DatabaseConfig {
        Objects.requireNonNull(databaseName, "databaseName");
        dataSources = Immutable.orderedMap(dataSources);
        rules = List.copyOf(rules);
    }

    /** The first data source: where statements go that no rule claims. */
    public DataSourceConfig defaultDataSource() {
        return dataSources.values().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("database " + databaseName + " has no data source"));
    }
}
