package io.strata.rule.sharding;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * INLINE: {@code algorithm-expression} names the target for a value, e.g. {@code t_order_${order_id % 2}}; the name
 * must be one of the targets. A range cannot be computed: with {@code allow-range-query-with-inline-sharding: true}
 * it goes everywhere, else it is refused, as ShardingSphere.
 */
record InlineShardingAlgorithm(String name, InlineExpression expression, boolean allowRangeQuery)
        implements StandardShardingAlgorithm {

    static final String TYPE = "INLINE";
    static final String EXPRESSION = "algorithm-expression";
    static final String ALLOW_RANGE = "allow-range-query-with-inline-sharding";

    static InlineShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of(EXPRESSION, ALLOW_RANGE));
        return new InlineShardingAlgorithm(name, expression(props, null), props.bool(ALLOW_RANGE, false));
    }

    /** Reads {@code algorithm-expression}, or takes {@code fallback} when it is absent and fallback is not null. */
    static InlineExpression expression(AlgorithmProps props, String fallback) {
        String text = fallback != null && !props.has(EXPRESSION) ? fallback
                : props.string(EXPRESSION, "an inline expression like t_order_${order_id % 2}");
        try {
            return InlineExpression.parse(text, false);
        } catch (ExpressionException e) {
            throw props.error(EXPRESSION, "an inline expression Strata evaluates: " + e.problem()
                    + " (supported: whole and decimal numbers, 'strings', columns, + - * / %, parentheses, Math.abs, "
                    + "Math.floorMod, " + String.join(", ", new TreeSet<>(Expr.METHODS.keySet())) + ")",
                    text, e);
        }
    }

    @Override
    public String target(List<String> targets, ShardingValue value) {
        String target = evaluate(describe(), expression, Map.of(value.column(), value.value()),
                value.column() + " = " + Values.describe(value.value()));
        if (!targets.contains(target)) {
            throw notATarget(describe(), target, value.column() + " = " + Values.describe(value.value()),
                    value.logicalTable(), targets);
        }
        return target;
    }

    @Override
    public Collection<String> targets(List<String> targets, RangeShardingValue value) {
        if (!allowRangeQuery) {
            throw rangeRefused(describe(), value.logicalTable(), value.column() + " in " + value.range());
        }
        return targets;
    }

    static String evaluate(String algorithm, InlineExpression expression, Map<String, ?> values, String shown) {
        try {
            return expression.evaluate(values);
        } catch (ExpressionException e) {
            throw new ShardingRouteException(algorithm + " cannot compute " + expression + " for " + shown + ": "
                    + e.getMessage(), e);
        }
    }

    static ShardingRouteException notATarget(String algorithm, String target, String shown, String table,
                                             List<String> targets) {
        return new ShardingRouteException(algorithm + " gives " + target + " for " + shown + " of " + table
                + ", which is not one of " + targets);
    }

    static ShardingRouteException rangeRefused(String algorithm, String table, String shown) {
        return new ShardingRouteException(algorithm + " cannot route the range " + shown + " of " + table
                + ": set " + ALLOW_RANGE + ": true to send such statements to every shard");
    }

    private String describe() {
        return TYPE + " algorithm " + name;
    }
}
