package io.strata.rule.sharding;

import java.util.Collection;
import java.util.List;

/**
 * HASH_MOD: a row goes to the target whose name ends in {@code Math.abs((long) value.hashCode()) % sharding-count},
 * as ShardingSphere. The hash is Java's: a string hashes as a string ({@code String.hashCode}), a whole number as
 * the smallest of Integer, Long, BigInteger that holds it (so 5, 5L and 5.0 agree). So {@code '5'} and {@code 5}
 * hash apart, as in ShardingSphere: write the value as the column's type. A range goes everywhere.
 */
record HashModShardingAlgorithm(String name, int shardingCount)
        implements StandardShardingAlgorithm, AutoTableAlgorithm {

    static final String TYPE = "HASH_MOD";

    static HashModShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of("sharding-count"));
        return new HashModShardingAlgorithm(name, (int) props.wholeNumber("sharding-count", 1, Integer.MAX_VALUE));
    }

    @Override
    public String target(List<String> targets, ShardingValue value) {
        long index = Math.abs((long) Values.canonical(value.value()).hashCode()) % shardingCount;
        return TargetNames.withIndex(targets, index)
                .orElseThrow(() -> TargetNames.noTarget(TYPE + " algorithm " + name, value, index, targets));
    }

    @Override
    public Collection<String> targets(List<String> targets, RangeShardingValue value) {
        return targets;
    }

    @Override
    public int autoTablesAmount() {
        return shardingCount;
    }
}
