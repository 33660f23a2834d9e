package io.strata.rule.sharding;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A SHARDING rule as configured, checked and with defaults applied: ShardingSphere 5.x's {@code !SHARDING} keys
 * ({@code tables}, {@code autoTables}, {@code bindingTables}, {@code defaultDatabaseStrategy},
 * {@code defaultTableStrategy}, {@code defaultShardingColumn}, {@code defaultKeyGenerateStrategy},
 * {@code shardingAlgorithms}, {@code keyGenerators}) and Strata's {@code defaultDataSource}. Turn it into routing
 * with {@link ShardingTables#of}.
 *
 * @param tables            in file order, {@code tables} then {@code autoTables} (each laid out as nodes)
 * @param bindingGroups     each {@code bindingTables} entry, as the tables' configured names
 * @param algorithms        by name, in file order
 * @param keyGenerators     by name, in file order
 * @param defaultDataSource where tables no rule claims live: {@code defaultDataSource}, else the first data source
 *                          (its read/write group's name when it is a member of one)
 */
public record ShardingRuleConfig(List<TableRuleConfig> tables, List<List<String>> bindingGroups,
                                 Map<String, AlgorithmConfig> algorithms,
                                 Map<String, KeyGeneratorConfig> keyGenerators, String defaultDataSource) {

    public static final String TYPE = "SHARDING";

    public ShardingRuleConfig {
        tables = List.copyOf(tables);
        bindingGroups = bindingGroups.stream().map(List::copyOf).toList();
        algorithms = Collections.unmodifiableMap(new LinkedHashMap<>(algorithms));
        keyGenerators = Collections.unmodifiableMap(new LinkedHashMap<>(keyGenerators));
        Objects.requireNonNull(defaultDataSource, "defaultDataSource");
    }

    /**
     * Reads and checks the rule at {@code path} of {@code file}.
     *
     * @param database the database the rule belongs to: its data sources and read/write groups are what nodes may
     *                 name
     * @param path     where the rule sits in the file, e.g. "rules[0]", for error messages
     * @throws io.strata.config.ConfigException on the first mistake, naming file, key path and expectation
     */
    public static ShardingRuleConfig read(DatabaseConfig database, RuleConfig config, String file, String path) {
        return new ShardingRuleReader(database, config, file, path).read();
    }
}
