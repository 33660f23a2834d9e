package io.strata.rule.sharding;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of {@code tables}, with defaults applied.
 *
 * @param logicalName      as configured
 * @param nodes            in {@code actualDataNodes} order
 * @param databaseStrategy the table's own, else {@code defaultDatabaseStrategy}, else none
 * @param tableStrategy    the table's own, else {@code defaultTableStrategy}, else none
 * @param keyGenerate      the table's own {@code keyGenerateStrategy}, else {@code defaultKeyGenerateStrategy}
 */
public record TableRuleConfig(String logicalName, List<DataNode> nodes, StrategyConfig databaseStrategy,
                              StrategyConfig tableStrategy, Optional<KeyGenerateConfig> keyGenerate) {

    public TableRuleConfig {
        Objects.requireNonNull(logicalName, "logicalName");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(databaseStrategy, "databaseStrategy");
        Objects.requireNonNull(tableStrategy, "tableStrategy");
        Objects.requireNonNull(keyGenerate, "keyGenerate");
    }

    /** {@code keyGenerateStrategy: { column, keyGeneratorName }}. */
    public record KeyGenerateConfig(String column, String keyGeneratorName) {

        public KeyGenerateConfig {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(keyGeneratorName, "keyGeneratorName");
        }
    }
}
