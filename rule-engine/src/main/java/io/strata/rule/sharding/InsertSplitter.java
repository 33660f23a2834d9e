package io.strata.rule.sharding;

import io.strata.rule.ResultMerge;
import io.strata.rule.RouteResult;
import io.strata.rule.sql.parser.ParsedStatement;
import io.strata.rule.sql.parser.SqlParser;
import io.strata.rule.sql.parser.StatementValues;
import io.strata.rule.sql.parser.Value;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits an INSERT or REPLACE into a sharded table by node: each row goes to the one node its sharding values
 * name, a key the rule generates (keyGenerateStrategy) is added to every row that lacks it, and each node gets one
 * statement with its rows. A row whose sharding value is NULL, an expression, or missing is refused, as is an
 * INSERT ... SELECT or one without a column list: Strata would have to guess where its rows belong.
 */
final class InsertSplitter {

    private InsertSplitter() {
    }

    static RouteResult split(ShardingRule rule, SqlParser parser, ShardingRule.Statements statement,
                             List<ShardedTable> sharded) {
        ParsedStatement parsed = statement.parsed;
        ShardedTable table = sharded.get(0);
        if (sharded.size() > 1) {
            throw ShardingRule.refused("INSERT ... SELECT of sharded table " + sharded.get(1).logicalName()
                    + " into " + table.logicalName());
        }
        StatementValues.Rows rows = StatementValues.insertRows(parsed, statement.params);
        if (rows == null) {
            throw ShardingRule.refused("an INSERT into sharded table " + table.logicalName() + " without a column "
                    + "list, or with SELECT: name the columns and give VALUES");
        }
        refuseChangedShardingColumn(parsed, table);
        var generation = table.keyGeneration().filter(k -> rows.column(k.column()).isEmpty());
        List<Object> generated = new ArrayList<>();
        Map<DataNode, List<Integer>> byNode = new LinkedHashMap<>();
        for (int row = 0; row < rows.rows().size(); row++) {
            ShardingConditions conditions = ShardingConditions.none();
            Object key = generation.map(KeyGeneration::next).orElse(null);
            generated.add(key);
            for (String column : table.shardingColumns()) {
                Comparable<?> value = generation.isPresent() && generation.get().column().equalsIgnoreCase(column)
                        ? (Comparable<?>) key : value(rows, row, column, table);
                conditions = conditions.withValue(column, value);
            }
            List<DataNode> nodes = rule.tables().nodes(table, List.of(conditions));
            if (nodes.size() != 1) {
                throw ShardingRule.refused("row " + (row + 1) + " of this INSERT belongs to " + nodes.size()
                        + " nodes of " + table.logicalName() + " by its sharding values");
            }
            byNode.computeIfAbsent(nodes.get(0), n -> new ArrayList<>()).add(row);
        }
        List<Map<String, String>> nodes = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (Map.Entry<DataNode, List<Integer>> entry : byNode.entrySet()) {
            Map<String, String> renames = Map.of("", entry.getKey().dataSource(),
                    table.logicalName().toLowerCase(Locale.ROOT), entry.getKey().table());
            nodes.add(renames);
            if (byNode.size() == 1 && generation.isEmpty()) {
                return statement.single(renames);
            }
            texts.add(rule.rename(rowsOf(parser, statement.inlined(), entry.getValue(),
                    generation.map(KeyGeneration::column).orElse(null), generated), renames));
        }
        List<io.strata.rule.RouteUnit> units = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            units.add(new io.strata.rule.RouteUnit(nodes.get(i).get(""), texts.get(i), List.of()));
        }
        long insertId = generated.get(0) instanceof Long first ? first : 0; // a SNOWFLAKE key, as AUTO_INCREMENT's
        return new RouteResult(units, ResultMerge.CONCATENATE, false, ShardingRule.notes(nodes), null, insertId);
    }

    private static Comparable<?> value(StatementValues.Rows rows, int row, String column, ShardedTable table) {
        List<Value> values = rows.column(column);
        if (values.isEmpty()) {
            throw ShardingRule.refused("an INSERT into " + table.logicalName() + " without its sharding column "
                    + column);
        }
        Value value = values.get(row);
        if (value instanceof Value.Known known && known.value() == null) {
            throw ShardingRule.refused("NULL as sharding column " + column + " of " + table.logicalName()
                    + " (row " + (row + 1) + ")");
        }
        Comparable<?> comparable = ShardingConditionReader.comparable(value);
        if (comparable == null) {
            throw ShardingRule.refused("sharding column " + column + " of " + table.logicalName() + " given as "
                    + (value instanceof Value.Unreadable u ? u.expression() : "a value Strata cannot read")
                    + " (row " + (row + 1) + "): give a literal or a parameter");
        }
        return comparable;
    }

    private static void refuseChangedShardingColumn(ParsedStatement parsed, ShardedTable table) {
        List<UpdateSet> sets = parsed.ast() instanceof Insert insert ? insert.getDuplicateUpdateSets() : null;
        if (sets == null) {
            return;
        }
        for (UpdateSet set : sets) {
            for (Column column : set.getColumns()) {
                String name = column.getColumnName().replace("`", "").toLowerCase(Locale.ROOT);
                if (table.shardingColumns().contains(name)) {
                    throw ShardingRule.refused("ON DUPLICATE KEY UPDATE of sharding column " + name);
                }
            }
        }
    }

    /** The statement with only the given rows, and the generated key added to each when there is one. */
    private static String rowsOf(SqlParser parser, String sql, List<Integer> rows, String keyColumn,
                                 List<Object> generated) {
        Statement statement = parser.parseUncached(sql).ast();
        List<UpdateSet> sets = statement instanceof Insert insert ? insert.getSetUpdateSets() : null;
        if (sets != null && !sets.isEmpty()) {
            if (keyColumn != null) {
                sets.add(new UpdateSet(new Column(keyColumn), literal(generated.get(rows.get(0)))));
            }
            return statement.toString();
        }
        Values values = statement instanceof Insert insert ? insert.getValues()
                : ((Upsert) statement).getValues();
        ExpressionList<Column> columns = statement instanceof Insert insert ? insert.getColumns()
                : ((Upsert) statement).getColumns();
        List<List<Expression>> all = rows(values.getExpressions(), columns.size());
        ExpressionList<Expression> kept = new ExpressionList<>();
        for (int row : rows) {
            List<Expression> cells = new ArrayList<>(all.get(row));
            if (keyColumn != null) {
                cells.add(literal(generated.get(row)));
            }
            kept.add(new ParenthesedExpressionList<>(cells));
        }
        if (keyColumn != null) {
            columns.add(new Column(keyColumn));
        }
        values.setExpressions(kept);
        return statement.toString();
    }

    /** VALUES' rows: a list of parenthesised rows, or a single row's own list (as the library gives one row). */
    private static List<List<Expression>> rows(ExpressionList<?> expressions, int width) {
        List<List<Expression>> rows = new ArrayList<>();
        boolean listOfRows = !(expressions instanceof ParenthesedExpressionList<?>)
                && expressions.stream().allMatch(e -> e instanceof ParenthesedExpressionList<?>);
        if (!listOfRows && expressions.size() == width) {
            rows.add(new ArrayList<>(expressions));
            return rows;
        }
        for (Expression row : expressions) {
            rows.add(row instanceof ParenthesedExpressionList<?> list ? new ArrayList<>(list) : List.of(row));
        }
        return rows;
    }

    private static Expression literal(Object value) {
        return value instanceof Number n ? new LongValue(n.toString()) : new StringValue(String.valueOf(value));
    }
}
