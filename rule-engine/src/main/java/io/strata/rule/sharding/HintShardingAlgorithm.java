package io.strata.rule.sharding;

import java.util.Collection;
import java.util.List;

/**
 * An algorithm of a {@code hint} strategy: places rows by values the statement carries outside its SQL
 * ({@link HintValues}). Called only when there is at least one value.
 */
public interface HintShardingAlgorithm extends ShardingAlgorithm {

    Collection<String> targets(List<String> targets, HintShardingValues values);
}
