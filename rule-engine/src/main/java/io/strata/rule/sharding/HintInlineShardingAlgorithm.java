package io.strata.rule.sharding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * HINT_INLINE: {@code algorithm-expression} (default {@code ${value}}) names the target for each hint value, which
 * the expression reads as {@code value}: {@code ds_${value % 2}}.
 */
record HintInlineShardingAlgorithm(String name, InlineExpression expression) implements HintShardingAlgorithm {

    static final String TYPE = "HINT_INLINE";

    static HintInlineShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of(InlineShardingAlgorithm.EXPRESSION));
        InlineExpression expression = InlineShardingAlgorithm.expression(props, "${value}");
        if (!expression.readsOnly(Set.of("value"))) {
            throw props.error(InlineShardingAlgorithm.EXPRESSION, "an expression that reads the hint as value, "
                    + "like ds_${value % 2} (it reads " + expression.variables() + ")", expression.text());
        }
        return new HintInlineShardingAlgorithm(name, expression);
    }

    @Override
    public Collection<String> targets(List<String> targets, HintShardingValues values) {
        Set<String> result = new LinkedHashSet<>();
        for (Comparable<?> value : values.values()) {
            String shown = "hint value " + Values.describe(value);
            String target = InlineShardingAlgorithm.evaluate(describe(), expression, Map.of("value", value), shown);
            if (!targets.contains(target)) {
                throw InlineShardingAlgorithm.notATarget(describe(), target, shown, values.logicalTable(), targets);
            }
            result.add(target);
        }
        return new ArrayList<>(result);
    }

    private String describe() {
        return TYPE + " algorithm " + name;
    }
}
