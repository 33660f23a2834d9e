package io.strata.rule.sharding;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What one AND branch of a WHERE clause (or one row of an INSERT) says about columns, for sharding. Several
 * conditions on one column all hold: when Strata can be sure how two of them combine it merges them
 * ({@code id IN (1, 2, 3) AND id > 2} is {@code id = 3}); when it cannot (strings, whose equality depends on the
 * collation) it keeps both, and routing keeps the nodes both allow. An OR of branches is a list of these, see
 * {@link ShardingTables#nodes(ShardedTable, List)}.
 *
 * <pre>{@code
 * ShardingConditions.none().withValue("user_id", 7L).withValues("order_id", List.of(1L, 2L))
 * }</pre>
 *
 * @param columns each column, lower-case, with the conditions ANDed on it
 */
public record ShardingConditions(Map<String, List<ColumnCondition>> columns) {

    private static final ShardingConditions NONE = new ShardingConditions(Map.of());

    public ShardingConditions {
        if (columns.size() == 1) { // one column, the usual case: a small map
            var only = columns.entrySet().iterator().next();
            columns = Map.of(key(only.getKey()), List.copyOf(only.getValue()));
        } else {
            Map<String, List<ColumnCondition>> copy = new LinkedHashMap<>();
            columns.forEach((column, conditions) -> copy.put(key(column), List.copyOf(conditions)));
            columns = Collections.unmodifiableMap(copy);
        }
    }

    /** Says nothing about any column: every node. */
    public static ShardingConditions none() {
        return NONE;
    }

    /** {@code column = value}; value is a Long, BigInteger, BigDecimal, String, LocalDateTime, LocalDate... */
    public ShardingConditions withValue(String column, Comparable<?> value) {
        return with(column, new ColumnCondition.Exact(List.of(value)));
    }

    /** {@code column IN (values)}; an empty list matches no row. Each value must be {@link Comparable}. */
    public ShardingConditions withValues(String column, List<?> values) {
        List<Comparable<?>> comparable = new ArrayList<>(values.size());
        for (Object value : values) {
            if (!(value instanceof Comparable<?> c)) {
                throw new IllegalArgumentException("a sharding value must be Comparable (a number, string or "
                        + "date/time), got " + (value == null ? "null" : value.getClass().getName()));
            }
            comparable.add(c);
        }
        return with(column, new ColumnCondition.Exact(comparable));
    }

    public ShardingConditions withRange(String column, ShardingRange range) {
        return with(column, new ColumnCondition.InRange(range));
    }

    /** This branch and {@code condition} on {@code column}. */
    public ShardingConditions with(String column, ColumnCondition condition) {
        Objects.requireNonNull(condition, "condition");
        String key = key(column);
        if (columns.isEmpty()) {
            return new ShardingConditions(Map.of(key, List.of(condition)));
        }
        List<ColumnCondition> merged = ConditionMerge.and(columns.getOrDefault(key, List.of()), condition);
        Map<String, List<ColumnCondition>> copy = new LinkedHashMap<>(columns);
        copy.put(key, merged);
        return new ShardingConditions(copy);
    }

    /** The conditions ANDed on {@code column} (any case); empty when the branch says nothing about it. */
    public List<ColumnCondition> of(String column) {
        return columns.getOrDefault(key(column), List.of());
    }

    public Set<String> columnNames() {
        return columns.keySet();
    }

    private static String key(String column) {
        return column.toLowerCase(Locale.ROOT);
    }
}
