package io.strata.rule.sharding;

import io.strata.rule.ResultMerge;
import io.strata.rule.RouteResult;
import io.strata.rule.sql.parser.BulkInsert;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Splits an INSERT or REPLACE into a sharded table by node: each row goes to the one node its sharding values
 * name, a key the rule generates (keyGenerateStrategy) is added to every row that lacks it, and each node gets one
 * statement with its rows. A row whose sharding value is NULL, an expression, or missing is refused, as is an
 * INSERT ... SELECT: Strata would have to guess where its rows belong. One without a column list is read by the
 * table's columns as Strata read them.
 */
final class InsertSplitter {

    private InsertSplitter() {
    }

    static RouteResult split(ShardingRule rule, SqlParser parser, ShardingRule.Statements statement,
                             List<ShardedTable> sharded) {
        ShardedTable table = table(sharded);
        StatementValues.Rows rows = rows(rule, statement.parsed, statement.params, table);
        var generation = table.keyGeneration().filter(k -> rows.column(k.column()).isEmpty());
        Map<String, List<Value>> byColumn = new HashMap<>();
        Split split = split(rule, table, statement.hints(table), rows.rows().size(), generation, (row, column) -> {
            List<Value> values = byColumn.computeIfAbsent(column, rows::column);
            return values.isEmpty() ? null : values.get(row);
        });
        if (split.single()) {
            return statement.single(split.renames(split.byNode().keySet().iterator().next()));
        }
        String keyColumn = generation.map(KeyGeneration::column).orElse(null);
        String inlined = statement.inlined();
        if (parser.tooLong(inlined)) { // a prepared statement short enough to parse, with values too long to
            BulkInsert bulk = BulkInsert.cut(inlined);
            if (bulk == null || bulk.rows() != rows.rows().size()) {
                throw ShardingRule.refused("an INSERT whose text with its values written in is too long to split "
                        + "by node, and whose rows are not plain VALUES");
            }
            return split.route((kept, renames) -> bulk.withRows(kept, keyColumn, split.generated(),
                    part -> rule.rename(part, renames)));
        }
        int width = rows.columns().size();
        return split.route((kept, renames) -> rule.rename(rowsOf(parser, inlined, kept, width, keyColumn,
                split.generated()), renames));
    }

    /**
     * A statement too long to parse, cut at its rows ({@link BulkInsert}): routed as {@link #split} routes the
     * parsed one, each node's statement its own rows as the client wrote them.
     */
    static RouteResult splitBulk(ShardingRule rule, ShardingRule.Statements statement, List<ShardedTable> sharded,
                                 BulkInsert bulk) {
        ShardedTable table = table(sharded);
        List<String> columns = rows(rule, statement.parsed, List.of(), table).columns();
        for (int row = 0; row < bulk.rows(); row++) {
            if (bulk.width(row) != columns.size()) {
                throw ShardingRule.refused("row " + (row + 1) + " of this INSERT has " + bulk.width(row)
                        + " values for " + columns.size() + " columns");
            }
        }
        var generation = table.keyGeneration().filter(k -> indexOf(columns, k.column()) < 0);
        Split split = split(rule, table, statement.hints(table), bulk.rows(), generation, (row, column) -> {
            int cell = indexOf(columns, column);
            return cell < 0 ? null : bulk.value(row, cell);
        });
        if (split.single()) {
            return statement.single(split.renames(split.byNode().keySet().iterator().next()));
        }
        String keyColumn = generation.map(KeyGeneration::column).orElse(null);
        return split.route((kept, renames) -> bulk.withRows(kept, keyColumn, split.generated(),
                part -> rule.rename(part, renames)));
    }

    private static ShardedTable table(List<ShardedTable> sharded) {
        if (sharded.size() > 1) {
            throw ShardingRule.refused("INSERT ... SELECT of sharded table " + sharded.get(1).logicalName()
                    + " into " + sharded.get(0).logicalName());
        }
        return sharded.get(0);
    }

    /**
     * The rows and their columns. An INSERT that names no columns (mysqldump's) is read by the table's columns as
     * Strata read them ({@link LogicalColumns}), each row one value per column; until they are read it is refused.
     */
    private static StatementValues.Rows rows(ShardingRule rule, ParsedStatement parsed, List<Object> params,
                                             ShardedTable table) {
        StatementValues.Rows rows = StatementValues.insertRows(parsed, params,
                rule.columns().of(table.logicalName()));
        if (rows == null) {
            throw ShardingRule.refused("an INSERT into sharded table " + table.logicalName() + " without a column "
                    + "list whose rows are not one value for each of its columns as Strata read them "
                    + rule.columns().of(table.logicalName()) + ", or with SELECT: name the columns and give VALUES");
        }
        refuseChangedShardingColumn(parsed, table);
        return rows;
    }

    private static int indexOf(List<String> columns, String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    /** A row's value of a column, or null when the statement does not give that column. */
    private interface Cells {
        Value value(int row, String column);
    }

    /** The rows of each node, in the statement's order, and the key generated for each row (null: none). */
    private record Split(ShardedTable table, Map<DataNode, List<Integer>> byNode, List<Object> generated) {

        /** Whether the rows all go to one node and no key is added: the client's statement is that node's. */
        boolean single() {
            return byNode.size() == 1 && generated.get(0) == null;
        }

        Map<String, String> renames(DataNode node) {
            return Map.of("", node.dataSource(), table.lowerName(), node.table());
        }

        /** Each node's statement: {@code text} of its rows (by their index) with the node's renames. */
        RouteResult route(BiFunction<List<Integer>, Map<String, String>, String> text) {
            List<Map<String, String>> nodes = new ArrayList<>();
            List<io.strata.rule.RouteUnit> units = new ArrayList<>();
            for (Map.Entry<DataNode, List<Integer>> entry : byNode.entrySet()) {
                Map<String, String> renames = renames(entry.getKey());
                nodes.add(renames);
                units.add(new io.strata.rule.RouteUnit(renames.get(""), text.apply(entry.getValue(), renames),
                        List.of()));
            }
            long insertId = generated.get(0) instanceof Long first ? first : 0; // a SNOWFLAKE key, as AUTO_INCREMENT's
            return new RouteResult(units, ResultMerge.CONCATENATE, false, ShardingRule.notes(nodes), null, insertId);
        }
    }

    private static Split split(ShardingRule rule, ShardedTable table, HintValues hints, int rows,
                               Optional<KeyGeneration> generation, Cells cells) {
        List<Object> generated = new ArrayList<>(rows);
        Map<DataNode, List<Integer>> byNode = new LinkedHashMap<>();
        for (int row = 0; row < rows; row++) {
            Object key = generation.map(KeyGeneration::next).orElse(null);
            generated.add(key);
            Map<String, List<ColumnCondition>> values = new LinkedHashMap<>(4); // one map a row: bulk loads
            for (String column : table.shardingColumns()) {
                Comparable<?> value = generation.isPresent() && generation.get().column().equalsIgnoreCase(column)
                        ? (Comparable<?>) key : value(cells.value(row, column), row, column, table);
                values.put(column, List.of(new ColumnCondition.Exact(List.of(value))));
            }
            List<DataNode> nodes = rule.tables().nodes(table, List.of(new ShardingConditions(values)), hints);
            if (nodes.size() != 1) {
                throw ShardingRule.refused("row " + (row + 1) + " of this INSERT belongs to " + nodes.size()
                        + " nodes of " + table.logicalName() + " by its sharding values");
            }
            byNode.computeIfAbsent(nodes.get(0), n -> new ArrayList<>()).add(row);
        }
        return new Split(table, byNode, generated);
    }

    private static Comparable<?> value(Value value, int row, String column, ShardedTable table) {
        if (value == null) {
            throw ShardingRule.refused("an INSERT into " + table.logicalName() + " without its sharding column "
                    + column);
        }
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

    /**
     * The statement with only the given rows ({@code width} values each), and the generated key added to each when
     * there is one.
     */
    private static String rowsOf(SqlParser parser, String sql, List<Integer> rows, int width, String keyColumn,
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
        List<List<Expression>> all = rows(values.getExpressions(), width);
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
