package io.strata.rule.sharding;

/**
 * One value of a sharding column ({@code column = value}, or one of an IN list, or one row of an INSERT).
 *
 * @param logicalTable the table as configured, e.g. t_order
 * @param column       the strategy's column as configured
 * @param value        Integer, Long, BigInteger, BigDecimal, String, a java.time value..., never null
 */
public record ShardingValue(String logicalTable, String column, Comparable<?> value) {
}
