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
 * @param audit            the table's own {@code auditStrategy}, else {@code defaultAuditStrategy}
 */
public record TableRuleConfig(String logicalName, List<DataNode> nodes, StrategyConfig databaseStrategy,
                              StrategyConfig tableStrategy, Optional<KeyGenerateConfig> keyGenerate,
                              Optional<AuditConfig> audit) {

    /** A table without auditors. */
    public TableRuleConfig(String logicalName, List<DataNode> nodes, StrategyConfig databaseStrategy,
                           StrategyConfig tableStrategy, Optional<KeyGenerateConfig> keyGenerate) {
        this(logicalName, nodes, databaseStrategy, tableStrategy, keyGenerate, Optional.empty());
    }

    public TableRuleConfig {
        Objects.requireNonNull(logicalName, "logicalName");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(databaseStrategy, "databaseStrategy");
        Objects.requireNonNull(tableStrategy, "tableStrategy");
        Objects.requireNonNull(keyGenerate, "keyGenerate");
        Objects.requireNonNull(audit, "audit");
    }

    /** {@code keyGenerateStrategy: { column, keyGeneratorName }}. */
    public record KeyGenerateConfig(String column, String keyGeneratorName) {

        public KeyGenerateConfig {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(keyGeneratorName, "keyGeneratorName");
        }
    }
}
