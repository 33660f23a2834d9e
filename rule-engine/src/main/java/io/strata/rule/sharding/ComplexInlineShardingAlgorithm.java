package io.strata.rule.sharding;

import io.strata.rule.sharding.ColumnCondition.Exact;
import io.strata.rule.sharding.ColumnCondition.InRange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * COMPLEX_INLINE: {@code algorithm-expression} over several columns, e.g. {@code t_${user_id % 2}_${order_id % 2}},
 * evaluated for every combination of their values. A range on one of them goes everywhere with
 * {@code allow-range-query-with-inline-sharding: true}, else is refused, as ShardingSphere. When the statement
 * gives no value for a column the expression reads, the targets cannot be computed and all of them are kept
 * (ShardingSphere fails such a statement).
 *
 * @param shardingColumns the {@code sharding-columns} prop, empty when absent
 */
record ComplexInlineShardingAlgorithm(String name, InlineExpression expression, List<String> shardingColumns,
                                      boolean allowRangeQuery) implements ComplexShardingAlgorithm {

    static final String TYPE = "COMPLEX_INLINE";
    /** Combinations of IN lists beyond this are not enumerated: every target is kept. */
    private static final int MAX_COMBINATIONS = 10_000;

    ComplexInlineShardingAlgorithm {
        shardingColumns = List.copyOf(shardingColumns);
    }

    static ComplexInlineShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of(InlineShardingAlgorithm.EXPRESSION, "sharding-columns",
                InlineShardingAlgorithm.ALLOW_RANGE));
        List<String> columns = new ArrayList<>();
        if (props.has("sharding-columns")) {
            for (String column : props.string("sharding-columns", "column names like user_id,order_id").split(",")) {
                columns.add(column.strip());
            }
        }
        return new ComplexInlineShardingAlgorithm(name, InlineShardingAlgorithm.expression(props, null), columns,
                props.bool(InlineShardingAlgorithm.ALLOW_RANGE, false));
    }

    @Override
    public List<String> targets(List<String> targets, ComplexShardingValues values) {
        Map<String, ColumnCondition> byColumn = new HashMap<>();
        values.conditions().forEach((column, condition) -> byColumn.put(column.toLowerCase(Locale.ROOT), condition));
        for (Map.Entry<String, ColumnCondition> entry : byColumn.entrySet()) {
            if (entry.getValue() instanceof InRange range && !allowRangeQuery) {
                throw InlineShardingAlgorithm.rangeRefused(describe(), values.logicalTable(),
                        entry.getKey() + " in " + range.range());
            }
        }
        List<Map<String, Object>> combinations = combinations(byColumn);
        if (combinations == null) {
            return targets;
        }
        Set<String> result = new LinkedHashSet<>();
        for (Map<String, Object> combination : combinations) {
            String shown = combination.toString();
            String target = InlineShardingAlgorithm.evaluate(describe(), expression, combination, shown);
            if (!targets.contains(target)) {
                throw InlineShardingAlgorithm.notATarget(describe(), target, shown, values.logicalTable(), targets);
            }
            result.add(target);
        }
        return new ArrayList<>(result);
    }

    /** Every combination of the values of the columns the expression reads, or null when it cannot be listed. */
    private List<Map<String, Object>> combinations(Map<String, ColumnCondition> byColumn) {
        List<Map<String, Object>> combinations = List.of(Map.of());
        for (String variable : expression.variables()) {
            String column = variable.toLowerCase(Locale.ROOT);
            if (!(byColumn.get(column) instanceof Exact exact)) {
                return null;
            }
            List<Map<String, Object>> extended = new ArrayList<>();
            for (Map<String, Object> combination : combinations) {
                for (Comparable<?> value : exact.values()) {
                    Map<String, Object> next = new HashMap<>(combination);
                    next.put(column, value);
                    extended.add(next);
                }
            }
            if (extended.size() > MAX_COMBINATIONS) {
                return null;
            }
            combinations = extended;
        }
        return combinations;
    }

    private String describe() {
        return TYPE + " algorithm " + name;
    }
}
