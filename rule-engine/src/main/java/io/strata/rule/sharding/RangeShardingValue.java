package io.strata.rule.sharding;

/** A range of a sharding column ({@code BETWEEN}, {@code <}, ...); see {@link ShardingValue}. */
public record RangeShardingValue(String logicalTable, String column, ShardingRange range) {
}
