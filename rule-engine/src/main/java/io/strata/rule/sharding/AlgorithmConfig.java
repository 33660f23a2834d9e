package io.strata.rule.sharding;

import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code shardingAlgorithms}, read and ready.
 *
 * @param type      ShardingSphere's type, upper-case: MOD, HASH_MOD, INLINE, ...
 * @param props     the props as written, each value as text (what binding checks compare)
 * @param algorithm the algorithm: built-in ones are immutable; a CLASS_BASED one is the user's single instance
 */
public record AlgorithmConfig(String name, String type, Map<String, String> props, ShardingAlgorithm algorithm) {

    public AlgorithmConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        props = Map.copyOf(props);
        Objects.requireNonNull(algorithm, "algorithm");
    }
}
