package io.strata.rule.sharding;

import io.strata.config.ConfigException;
import io.strata.config.YamlMap;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks that the tables of one {@code bindingTables} group really shard alike, since a join of them is sent node by
 * node (the n-th node of one with the n-th of the other): the same number of nodes, at each position the same data
 * source and the same table suffix ({@code t_order_1} with {@code t_order_item_1}), the same database strategy, and
 * table strategies on the same columns with algorithms that differ at most in the table name they print
 * ({@code t_order_${order_id % 2}} and {@code t_order_item_${order_id % 2}}).
 */
final class BindingCheck {

    private final YamlMap rule;
    private final String key;
    private final String written;
    private final Map<String, AlgorithmConfig> algorithms;

    BindingCheck(YamlMap rule, String key, String written, Map<String, AlgorithmConfig> algorithms) {
        this.rule = rule;
        this.key = key;
        this.written = written;
        this.algorithms = algorithms;
    }

    void check(TableRuleConfig first, TableRuleConfig other) {
        if (first.nodes().size() != other.nodes().size()) {
            throw fail("tables with as many data nodes each (" + first.logicalName() + " has "
                    + first.nodes().size() + ", " + other.logicalName() + " " + other.nodes().size() + ")");
        }
        for (int i = 0; i < first.nodes().size(); i++) {
            DataNode a = first.nodes().get(i);
            DataNode b = other.nodes().get(i);
            if (!a.dataSource().equals(b.dataSource())
                    || !suffix(first.logicalName(), a.table()).equals(suffix(other.logicalName(), b.table()))) {
                throw fail("tables whose data nodes pair up in order (node " + (i + 1) + ": " + a + " with " + b
                        + "; list actualDataNodes in the same order, with the same suffixes)");
            }
        }
        if (!sameStrategy(first.databaseStrategy(), other.databaseStrategy(), first, other, false)) {
            throw fail("tables with the same databaseStrategy (" + first.logicalName() + ": "
                    + first.databaseStrategy().describe() + "; " + other.logicalName() + ": "
                    + other.databaseStrategy().describe() + ")");
        }
        if (!sameStrategy(first.tableStrategy(), other.tableStrategy(), first, other, true)) {
            throw fail("tables with alike tableStrategies, same columns and algorithms that differ only in the "
                    + "table name (" + first.logicalName() + ": " + first.tableStrategy().describe() + "; "
                    + other.logicalName() + ": " + other.tableStrategy().describe() + ")");
        }
    }

    private boolean sameStrategy(StrategyConfig a, StrategyConfig b, TableRuleConfig first, TableRuleConfig other,
                                 boolean tableLevel) {
        if (a.getClass() != b.getClass() || !lower(a.columns()).equals(lower(b.columns()))) {
            return false;
        }
        String nameA = algorithmName(a);
        String nameB = algorithmName(b);
        if (nameA == null || nameA.equals(nameB)) {
            return true;
        }
        AlgorithmConfig x = algorithms.get(nameA);
        AlgorithmConfig y = algorithms.get(nameB);
        if (!x.type().equals(y.type())) {
            return false;
        }
        return tableLevel ? structure(x, first.logicalName()).equals(structure(y, other.logicalName()))
                : x.props().equals(y.props());
    }

    /** The props with the table's name taken out of the expression once, and spaces, as ShardingSphere does. */
    private static Map<String, String> structure(AlgorithmConfig algorithm, String logicalName) {
        Map<String, String> props = new HashMap<>(algorithm.props());
        String expression = props.get(InlineShardingAlgorithm.EXPRESSION);
        if (expression != null) {
            props.put(InlineShardingAlgorithm.EXPRESSION, expression.replaceFirst(Pattern.quote(logicalName), "")
                    .replace(" ", ""));
        }
        return props;
    }

    private static String algorithmName(StrategyConfig strategy) {
        return switch (strategy) {
            case StrategyConfig.Standard standard -> standard.algorithmName();
            case StrategyConfig.Complex complex -> complex.algorithmName();
            case StrategyConfig.Hint hint -> hint.algorithmName();
            case StrategyConfig.None none -> null;
        };
    }

    /** What follows the logical name in a node's table name ({@code _1} of {@code t_order_1}), or the whole name. */
    private static String suffix(String logicalName, String table) {
        boolean prefixed = table.toLowerCase(Locale.ROOT).startsWith(logicalName.toLowerCase(Locale.ROOT));
        return prefixed ? table.substring(logicalName.length()) : table;
    }

    private static List<String> lower(List<String> columns) {
        return columns.stream().map(column -> column.toLowerCase(Locale.ROOT)).toList();
    }

    private ConfigException fail(String expected) {
        return rule.error(key, expected, written);
    }
}
