package io.strata.rule.sharding;

import java.util.Collection;
import java.util.List;

/**
 * An algorithm of a {@code complex} strategy: several columns at once. It is called only when the statement says
 * something about at least one of them, and must return every target that may hold matching rows (all of them
 * when unsure).
 */
public interface ComplexShardingAlgorithm extends ShardingAlgorithm {

    Collection<String> targets(List<String> targets, ComplexShardingValues values);
}
