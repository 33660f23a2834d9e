package io.strata.rule.sharding;

import java.util.Map;

/**
 * What the statement says about the columns of a {@code complex} strategy.
 *
 * @param conditions by column (as configured) for the columns the statement mentions, one condition each; a
 *                   column it says nothing about is absent
 */
public record ComplexShardingValues(String logicalTable, Map<String, ColumnCondition> conditions) {

    public ComplexShardingValues {
        conditions = Map.copyOf(conditions);
    }
}
