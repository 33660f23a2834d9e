package io.strata.rule.sharding;

import java.util.Map;

/**
 * What a {@code CLASS_BASED} algorithm implements, through one of {@link StandardShardingAlgorithm},
 * {@link ComplexShardingAlgorithm} or {@link HintShardingAlgorithm} (the one its {@code strategy} prop names). The
 * class needs a public constructor without arguments; one instance serves every statement of the database, from
 * many threads at once, so it must be thread-safe (best: immutable after {@link #init}).
 *
 * <p>"Targets" are data source names (for a database strategy) or table names on one data source (for a table
 * strategy), in {@code actualDataNodes} order. An algorithm that throws fails the statement with its message.
 */
public interface ShardingAlgorithm {

    /**
     * Called once at start with the algorithm's {@code props} (except {@code strategy} and
     * {@code algorithmClassName}), every value as text, as ShardingSphere passes them.
     *
     * @throws IllegalArgumentException to refuse them: the start stops naming the algorithm and the message
     */
    default void init(Map<String, String> props) {
    }
}
