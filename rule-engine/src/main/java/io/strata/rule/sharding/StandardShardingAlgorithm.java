package io.strata.rule.sharding;

import java.util.Collection;
import java.util.List;

/** An algorithm of a {@code standard} strategy: one column, {@code =}/{@code IN} and ranges. */
public interface StandardShardingAlgorithm extends ShardingAlgorithm {

    /**
     * The one target that holds the rows whose column equals {@code value.value()}.
     *
     * @param targets the targets to choose from, in {@code actualDataNodes} order
     * @throws ShardingRouteException (or any exception) when the value cannot be placed
     */
    String target(List<String> targets, ShardingValue value);

    /**
     * The targets that may hold rows whose column lies in {@code value.range()}: all of them when unsure. Returning
     * a name that is not among {@code targets} fails the statement.
     */
    Collection<String> targets(List<String> targets, RangeShardingValue value);
}
