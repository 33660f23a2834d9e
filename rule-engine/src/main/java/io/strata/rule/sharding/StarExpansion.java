package io.strata.rule.sharding;

import io.strata.rule.sql.parser.Names;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The client's select list with each {@code *} and {@code t.*} written out as the columns of its tables, in the
 * server's order (the tables of FROM left to right, each table's columns in order), for a plan whose merge needs
 * them one by one: SELECT DISTINCT *, an ORDER BY or GROUP BY position after a *, a * with GROUP BY or aggregates.
 * The statement the shards run keeps its {@code *}; the plan only counts and weighs what it stands for, and the
 * merge checks that the shards' columns are these ({@link io.strata.rule.MergePlan.StarColumns}).
 *
 * @param items    the select list written out
 * @param expected each written-out item's column name where a * gave it, else null
 * @param tables   the logical tables whose columns were used
 */
record StarExpansion(List<SelectItem<?>> items, List<String> expected, List<String> tables) {

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

    /**
     * The expansion, or null where the plan does not need one, or cannot have one: a table whose columns are not
     * known, a FROM item that is no table, a join with USING or NATURAL (whose * merges columns).
     */
    static StarExpansion of(PlainSelect select, LogicalColumns columns) {
        if (columns == null || !needed(select)) {
            return null;
        }
        Map<String, Table> tables = fromTables(select);
        if (tables == null) {
            return null;
        }
        List<SelectItem<?>> items = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        List<String> used = new ArrayList<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            if (!(item.getExpression() instanceof AllColumns all)) {
                items.add(item);
                expected.add(null);
                continue;
            }
            List<Map.Entry<String, Table>> of = new ArrayList<>();
            if (all instanceof AllTableColumns one) {
                String reference = Names.unquote(one.getTable().getName()).toLowerCase(java.util.Locale.ROOT);
                Table table = tables.get(reference);
                if (table == null || one.getTable().getSchemaName() != null) {
                    return null;
                }
                of.add(Map.entry(reference, table));
            } else {
                of.addAll(tables.entrySet());
            }
            for (Map.Entry<String, Table> table : of) {
                String logical = Names.unquote(table.getValue().getName());
                List<String> names = columns.of(logical);
                if (names == null) {
                    return null;
                }
                used.add(logical);
                Table qualifier = tables.size() == 1 ? null : new Table(table.getKey());
                for (String name : names) {
                    items.add(SelectItem.from(new Column(qualifier, PLAIN_NAME.matcher(name).matches() ? name
                            : "`" + name.replace("`", "``") + "`")));
                    expected.add(name);
                }
            }
        }
        return new StarExpansion(List.copyOf(items), expected, List.copyOf(used));
    }

    /** Whether the merge of this SELECT needs the columns behind its *: DISTINCT, grouping, or a position. */
    private static boolean needed(PlainSelect select) {
        if (select.getSelectItems().stream().noneMatch(i -> i.getExpression() instanceof AllColumns)) {
            return false;
        }
        boolean positions = select.getOrderByElements() != null && select.getOrderByElements().stream()
                .map(OrderByElement::getExpression).anyMatch(LongValue.class::isInstance)
                || select.getGroupBy() != null && select.getGroupBy().getGroupByExpressionList().stream()
                .anyMatch(LongValue.class::isInstance);
        boolean aggregates = select.getSelectItems().stream().anyMatch(i -> i.getExpression() instanceof Function);
        return select.getDistinct() != null || select.getGroupBy() != null || select.getHaving() != null
                || positions || aggregates;
    }

    /** FROM's tables by the name a * or t.* refers to them (alias or name, lower case), in order; null if not all. */
    private static Map<String, Table> fromTables(PlainSelect select) {
        Map<String, Table> tables = new LinkedHashMap<>();
        if (!add(tables, select.getFromItem())) {
            return null;
        }
        for (Join join : select.getJoins() == null ? List.<Join>of() : select.getJoins()) {
            if (join.isNatural() || join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()
                    || !add(tables, join.getFromItem())) {
                return null;
            }
        }
        return tables;
    }

    private static boolean add(Map<String, Table> tables, FromItem item) {
        if (!(item instanceof Table table) || table.getSchemaName() != null) {
            return false;
        }
        String reference = Names.unquote(table.getAlias() != null ? table.getAlias().getName() : table.getName());
        return tables.putIfAbsent(reference.toLowerCase(java.util.Locale.ROOT), table) == null;
    }
}
