package io.strata.rule.sharding;

import java.util.List;

/** The hint values for one level (database or table) of one table; never empty. */
public record HintShardingValues(String logicalTable, List<Comparable<?>> values) {

    public HintShardingValues {
        values = List.copyOf(values);
    }
}
