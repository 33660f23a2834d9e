package io.strata.rule.sharding;

import io.strata.rule.MergePlan;
import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.Aggregation;
import io.strata.rule.QueryMerge.Function;
import io.strata.rule.QueryMerge.Having;
import io.strata.rule.QueryMerge.Operand;
import io.strata.rule.QueryMerge.SortKey;
import io.strata.rule.sql.parser.Names;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Plans a SELECT that runs on several shards: what each shard is asked, and how their rows merge into the rows one
 * plain database would return ({@link QueryMerge}). The shards are asked for the client's items followed by
 * derived ones: sort and group keys missing from the select list, {@code WEIGHT_STRING(...)} of every key (so that
 * strings merge in their column's collation), SUM and COUNT behind each AVG. ORDER BY stays on the shards (their rows
 * then merge as they stream); a grouped query is ordered by its group keys instead and grouped again; HAVING is
 * evaluated after that; LIMIT o, n becomes LIMIT o + n. What it cannot merge exactly is refused.
 */
final class SelectPlanner {

    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG", "GROUP_CONCAT");
    /** Aggregates Strata does not merge, and the ones it does when nested in an expression. */
    private static final Pattern ANY_AGGREGATE = Pattern.compile("(?i)\\b(COUNT|SUM|MIN|MAX|AVG|GROUP_CONCAT|STD|"
            + "STDDEV|STDDEV_POP|STDDEV_SAMP|VARIANCE|VAR_POP|VAR_SAMP|BIT_AND|BIT_OR|BIT_XOR|JSON_ARRAYAGG|"
            + "JSON_OBJECTAGG)\\s*\\(");

    /** Functions whose value is a number whatever their arguments: their keys need no weight. */
    private static final Set<String> NUMERIC_FUNCTIONS = Set.of("COUNT", "SUM", "AVG", "ABS", "ROUND", "FLOOR",
            "CEIL", "CEILING", "TRUNCATE", "MOD", "SIGN", "SQRT", "POW", "POWER", "EXP", "LN", "LOG", "LOG2",
            "LOG10", "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH", "OCTET_LENGTH", "BIT_LENGTH", "CRC32", "YEAR",
            "MONTH", "DAY", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "HOUR", "MINUTE", "SECOND", "QUARTER", "WEEK",
            "TO_DAYS", "DATEDIFF", "UNIX_TIMESTAMP", "STD", "STDDEV", "VARIANCE");

    /**
     * What a shard runs and how the shards' rows merge.
     *
     * @param weighed the value expression (as text, lower case) each derived weight column is of, by its index
     */
    record Plan(String unitSql, MergePlan merge, java.util.Map<Integer, String> weighed) {

        Plan(String unitSql, MergePlan merge) {
            this(unitSql, merge, java.util.Map.of());
        }
    }

    private final PlainSelect select;
    private final List<SelectItem<?>> items;
    /** The first {@code *} among the client's items, or -1: columns after it have no known index. */
    private final int star;
    private final List<Expression> derived = new ArrayList<>();
    private final List<Aggregation> aggregations = new ArrayList<>();
    /**
     * The arguments of COUNT / SUM / AVG (DISTINCT ...), and of GROUP_CONCAT with its ORDER BY keys: the shards group
     * by them too, one row per value.
     */
    private final List<Expression> distinctArguments = new ArrayList<>();
    /** Values (text, lower case) known from earlier answers not to be strings: no weight asked for them. */
    private final Set<String> plainValues;
    private final java.util.Map<Integer, String> weighed = new java.util.HashMap<>();
    /** Derived columns only the merge reads (a GROUP_CONCAT's tuples and counts): never matched by text. */
    private final Set<Integer> internal = new java.util.HashSet<>();

    /**
     * Each group lives on one node (the query groups by every sharding column of its one table): the shards' group
     * rows are final, whatever their aggregates (GROUP_CONCAT too), and merge as plain rows.
     */
    private final boolean groupsOnOneNode;

    /** The columns behind the client's * where the plan needs them, or null. */
    private final StarExpansion expansion;
    private final LogicalColumns columns;

    private SelectPlanner(PlainSelect select, Set<String> plainValues, boolean groupsOnOneNode,
                          LogicalColumns columns) {
        this.select = select;
        this.plainValues = plainValues;
        this.groupsOnOneNode = groupsOnOneNode;
        this.columns = columns;
        this.expansion = StarExpansion.of(select, columns);
        this.items = expansion != null ? expansion.items() : List.copyOf(select.getSelectItems());
        int firstStar = -1;
        for (int i = 0; i < items.size() && firstStar < 0; i++) {
            if (items.get(i).getExpression() instanceof AllColumns) {
                firstStar = i;
            }
        }
        this.star = firstStar;
    }

    /**
     * @param select a tree of the statement's own (it is changed here)
     * @return the plan, or null when the shards' rows one after another are the answer (no order, grouping,
     * aggregate, DISTINCT or LIMIT)
     * @param plainValues     values (text, lower case) an earlier answer showed are no strings
     * @param groupsOnOneNode the query groups by every sharding column of its one table: each group on one node
     * @param columns         the sharded tables' columns, for a * whose columns the merge needs; null for none
     */
    static Plan plan(PlainSelect select, Set<String> plainValues, boolean groupsOnOneNode, LogicalColumns columns) {
        return new SelectPlanner(select, plainValues, groupsOnOneNode && select.getGroupBy() != null, columns)
                .plan();
    }

    private Plan plan() {
        refuseWhatCannotMerge();
        boolean aggregated = select.getGroupBy() != null || select.getHaving() != null
                || items.stream().anyMatch(i -> aggregate(i.getExpression()));
        boolean distinct = select.getDistinct() != null;
        List<OrderByElement> order = select.getOrderByElements() == null ? List.of() : select.getOrderByElements();
        long[] limit = limit();
        if (!aggregated && !distinct && order.isEmpty() && limit == null) {
            return null;
        }
        if (groupsOnOneNode && !distinct && order.isEmpty() && limit == null) {
            return null; // the shards' groups, one after another, are the answer
        }
        QueryMerge merge = aggregated && !groupsOnOneNode ? grouped(order, limit) : ordered(order, distinct, limit);
        derived.forEach(select::addSelectItem);
        String sql = select.toString();
        MergePlan.StarColumns star = expansion == null ? null : new MergePlan.StarColumns(expansion.expected(),
                () -> expansion.tables().forEach(columns::changed));
        return new Plan(sql.endsWith(" FOR SHARE") ? sql.substring(0, sql.length() - 10) + " LOCK IN SHARE MODE"
                : sql, new MergePlan(merge, derived.size(), null, star), java.util.Map.copyOf(weighed));
    }

    private void refuseWhatCannotMerge() {
        if (select.getDistinct() != null && select.getDistinct().getOnSelectItems() != null) {
            throw ShardingRule.refused("DISTINCT ON over several shards");
        }
        if (select.getGroupBy() != null && (select.getGroupBy().getGroupingSets() != null
                && !select.getGroupBy().getGroupingSets().isEmpty() || select.getGroupBy().isMysqlWithRollup())) {
            throw ShardingRule.refused("GROUP BY ... WITH ROLLUP or GROUPING SETS over several shards");
        }
        if (select.getWindowDefinitions() != null || select.toString().toUpperCase(Locale.ROOT).contains(" OVER")) {
            throw ShardingRule.refused("window functions over several shards");
        }
        if (select.getMySqlSqlCalcFoundRows()) {
            throw ShardingRule.refused("SQL_CALC_FOUND_ROWS over several shards");
        }
        if (select.getIntoTables() != null || select.getMySqlSelectIntoClause() != null) {
            throw ShardingRule.refused("SELECT ... INTO over several shards");
        }
        for (int i = 0; i < items.size() && !groupsOnOneNode; i++) {
            Expression e = items.get(i).getExpression();
            if (aggregate(e)) {
                if (star >= 0 && i > star) {
                    throw ShardingRule.refused("an aggregate after * in the select list over several shards");
                }
            } else if (ANY_AGGREGATE.matcher(e.toString()).find()) {
                throw ShardingRule.refused("an aggregate inside an expression (" + e + ") over several shards: "
                        + "select the aggregate itself");
            }
        }
    }

    /** A grouped query: shards ordered by the group keys, groups merged as they stream, then HAVING and ORDER BY. */
    private QueryMerge grouped(List<OrderByElement> order, long[] limit) {
        if (select.getDistinct() != null) {
            throw ShardingRule.refused("SELECT DISTINCT with GROUP BY or aggregates over several shards");
        }
        if (star >= 0) {
            throw ShardingRule.refused("SELECT * with GROUP BY or aggregates over several shards: name the columns");
        }
        for (int i = 0; i < items.size(); i++) {
            if (aggregate(items.get(i).getExpression())) {
                aggregations.add(aggregation(i, items.get(i).getExpression()));
            }
        }
        List<Expression> groupExpressions = select.getGroupBy() == null ? List.of()
                : new ArrayList<>(select.getGroupBy().getGroupByExpressionList());
        List<SortKey> groupBy = new ArrayList<>();
        List<OrderByElement> unitOrder = new ArrayList<>();
        for (Expression g : groupExpressions) {
            groupBy.add(key(g, false));
            OrderByElement byGroup = new OrderByElement();
            byGroup.setExpression(g);
            unitOrder.add(byGroup);
        }
        List<SortKey> resultOrder = new ArrayList<>();
        for (OrderByElement o : order) {
            resultOrder.add(key(o.getExpression(), !o.isAsc()));
        }
        if (resultOrder.equals(groupBy.subList(0, Math.min(groupBy.size(), resultOrder.size())))
                && resultOrder.size() == groupBy.size()) {
            resultOrder.clear(); // the groups come in that order already
        }
        Having having = select.getHaving() == null ? null : having(select.getHaving());
        if (!distinctArguments.isEmpty()) {
            net.sf.jsqlparser.statement.select.GroupByElement byValues =
                    new net.sf.jsqlparser.statement.select.GroupByElement();
            byValues.addGroupByExpressions(groupExpressions);
            byValues.addGroupByExpressions(distinctArguments);
            select.setGroupByElement(byValues);
        }
        select.setHaving(null);
        select.setOrderByElements(unitOrder.isEmpty() ? null : unitOrder);
        select.setLimit(null);
        select.setOffset(null);
        return new QueryMerge(items.size(), groupBy, true, groupBy, !groupBy.isEmpty(), aggregations, having, false,
                resultOrder, limit == null ? 0 : limit[0], limit == null ? -1 : limit[1]);
    }

    /** Rows merged in the shards' order; DISTINCT orders the shards by every column so duplicates meet. */
    private QueryMerge ordered(List<OrderByElement> order, boolean distinct, long[] limit) {
        List<SortKey> keys = new ArrayList<>();
        for (OrderByElement o : order) {
            if (o.getNullOrdering() != null) {
                throw ShardingRule.refused("NULLS FIRST / LAST over several shards");
            }
            keys.add(key(o.getExpression(), !o.isAsc()));
        }
        if (distinct) {
            if (star >= 0) {
                throw ShardingRule.refused("SELECT DISTINCT * over several shards: name the columns");
            }
            List<OrderByElement> unitOrder = new ArrayList<>(order);
            for (int i = 0; i < items.size(); i++) {
                final int column = i;
                if (keys.stream().noneMatch(k -> k.column() == column)) {
                    keys.add(key(new LongValue(i + 1), false));
                    OrderByElement byItem = new OrderByElement();
                    byItem.setExpression(new LongValue(i + 1));
                    unitOrder.add(byItem);
                }
            }
            select.setOrderByElements(unitOrder);
        }
        if (limit != null) {
            Limit shards = new Limit();
            shards.setRowCount(new LongValue(Math.addExact(limit[0], limit[1])));
            select.setLimit(limit[1] < 0 ? null : shards);
            select.setOffset(null);
        }
        return new QueryMerge(items.size(), keys, false, List.of(), false, List.of(), null, distinct, List.of(),
                limit == null ? 0 : limit[0], limit == null ? -1 : limit[1]);
    }

    /** A sort or group key: its column (the client's, or derived) and the derived weight of its value. */
    private SortKey key(Expression expression, boolean descending) {
        int column = column(expression);
        Expression value = column < items.size() ? items.get(column).getExpression() : derived.get(column - items.size());
        refuseConcat(value, "ORDER BY");
        return new SortKey(column, descending, weighed(value));
    }

    /**
     * The column an ORDER BY, GROUP BY or HAVING expression names: a position, one of the client's items by alias
     * or by the same text (before any {@code *}), else a derived column (an aggregate then merges as such).
     */
    private int column(Expression expression) {
        if (expression instanceof LongValue position) {
            long at = position.getValue() - 1;
            if (at < 0 || at >= items.size() || star >= 0 && at >= star) {
                throw ShardingRule.refused("ORDER BY or GROUP BY position " + position + " over several shards");
            }
            return (int) at;
        }
        int known = star < 0 ? items.size() : star;
        if (expression instanceof Column c && c.getTable() == null) {
            for (int i = 0; i < known; i++) {
                String alias = items.get(i).getAlias() == null ? null : Names.unquote(items.get(i).getAlias().getName());
                if (alias != null && alias.equalsIgnoreCase(Names.unquote(c.getColumnName()))) {
                    return i;
                }
            }
        }
        String text = expression.toString();
        for (int i = 0; i < known; i++) {
            if (items.get(i).getExpression().toString().equalsIgnoreCase(text)) {
                return i;
            }
        }
        for (int i = 0; i < derived.size(); i++) {
            if (!internal.contains(items.size() + i) && derived.get(i).toString().equalsIgnoreCase(text)) {
                return items.size() + i;
            }
        }
        int column = derive(expression);
        if (groupsOnOneNode) {
            return column; // an aggregate of a group one node holds whole: the node's value is the answer
        }
        if (aggregate(expression)) {
            aggregations.add(aggregation(column, expression));
        } else if (ANY_AGGREGATE.matcher(text).find()) {
            throw ShardingRule.refused("an aggregate inside an expression (" + text + ") over several shards");
        }
        return column;
    }

    private Aggregation aggregation(int column, Expression expression) {
        net.sf.jsqlparser.expression.Function f = (net.sf.jsqlparser.expression.Function) expression;
        if (groupConcat(f)) {
            return groupConcat(column, f);
        }
        String name = f.getName().toUpperCase(Locale.ROOT);
        if ((f.isDistinct() || f.isUnique()) && !name.equals("MIN") && !name.equals("MAX")) {
            return distinctAggregation(column, name, f);
        }
        String argument = f.isAllColumns() || f.getParameters() == null ? "*" : f.getParameters().toString();
        return switch (name) {
            case "COUNT" -> Aggregation.of(column, Function.COUNT);
            case "SUM" -> Aggregation.of(column, Function.SUM);
            case "MIN", "MAX" -> new Aggregation(column, Function.valueOf(name), -1, -1, weighed(f));
            case "AVG" -> new Aggregation(column, Function.AVG, derive(parse("SUM(" + argument + ")")),
                    derive(parse("COUNT(" + argument + ")")), -1);
            default -> throw ShardingRule.refused(name + " over several shards");
        };
    }

    /**
     * COUNT, SUM or AVG (DISTINCT x): each shard returns one row per value of x (it groups by x too), and the merge
     * counts, sums or averages the values it has not seen, told apart by their weights where they are strings.
     */
    private Aggregation distinctAggregation(int column, String name, net.sf.jsqlparser.expression.Function f) {
        if (f.getParameters() == null || f.getParameters().size() != 1) {
            throw ShardingRule.refused(name + "(DISTINCT ...) of several expressions over several shards");
        }
        Expression argument = (Expression) f.getParameters().get(0);
        groupByToo(argument);
        Function function = switch (name) {
            case "COUNT" -> Function.COUNT_DISTINCT;
            case "SUM" -> Function.SUM_DISTINCT;
            default -> Function.AVG_DISTINCT;
        };
        return new Aggregation(column, function, derive(argument), -1, weighed(argument));
    }

    /**
     * GROUP_CONCAT over groups spread across shards: each shard groups by the arguments and the ORDER BY keys too,
     * so it returns one row per distinct tuple of them, with the tuple's text ({@code CONCAT(arguments)}), how many
     * rows it stands for, the keys' values and weights, and its session's {@code group_concat_max_len}; the merge
     * makes the value from them ({@link QueryMerge.Concat}). The shard's own GROUP_CONCAT column stays in the list
     * for its type, its value unused.
     */
    private Aggregation groupConcat(int column, net.sf.jsqlparser.expression.Function concat) {
        List<Expression> arguments = new ArrayList<>();
        if (concat.getParameters() == null || concat.getLimit() != null || concat.getOnOverflowTruncate() != null) {
            throw ShardingRule.refused(concat + " over several shards");
        }
        concat.getParameters().forEach(e -> arguments.add((Expression) e));
        List<OrderByElement> order = concat.getOrderByElements() == null ? List.of() : concat.getOrderByElements();
        for (OrderByElement o : order) {
            if (o.getExpression() instanceof LongValue || o.getNullOrdering() != null) {
                throw ShardingRule.refused("GROUP_CONCAT(... ORDER BY " + o + ") over several shards: order by "
                        + "expressions, without NULLS FIRST / LAST");
            }
            if (concat.isDistinct() && arguments.stream().noneMatch(a -> a.toString()
                    .equalsIgnoreCase(o.getExpression().toString()))) {
                throw ShardingRule.refused("GROUP_CONCAT(DISTINCT ...) ordered by " + o.getExpression() + ", which "
                        + "it does not list, over several shards");
            }
        }
        String separator = separator(concat.getKeywordArgumentValue("SEPARATOR"));
        arguments.forEach(this::groupByToo);
        order.forEach(o -> groupByToo(o.getExpression()));
        int value = internal(parse("CONCAT(" + String.join(", ", arguments.stream().map(Expression::toString)
                .toList()) + ")"));
        List<Integer> distinct = new ArrayList<>();
        if (concat.isDistinct()) {
            for (Expression argument : arguments) {
                int weight = weighed(argument);
                distinct.add(weight >= 0 ? weight : internal(argument));
            }
        }
        int count = concat.isDistinct() ? -1 : internal(parse("COUNT(*)"));
        List<SortKey> keys = new ArrayList<>();
        for (OrderByElement o : order) {
            keys.add(new SortKey(internal(o.getExpression()), !o.isAsc(), weighed(o.getExpression())));
        }
        int maxLength = internal(parse("@@group_concat_max_len"));
        return new Aggregation(column, Function.GROUP_CONCAT, -1, -1, -1,
                new QueryMerge.Concat(value, count, keys, distinct, separator, maxLength));
    }

    /** A SEPARATOR's text: a plain quoted literal without backslashes (whose reading depends on sql_mode), or ','. */
    private static String separator(Expression written) {
        if (written == null) {
            return ",";
        }
        if (!(written instanceof StringValue text) || text.getPrefix() != null || text.getValue().indexOf('\\') >= 0) {
            throw ShardingRule.refused("GROUP_CONCAT(... SEPARATOR " + written + ") over several shards: write the "
                    + "separator as a plain quoted string");
        }
        String quote = text.getQuoteStr() == null ? "'" : text.getQuoteStr();
        return text.getValue().replace(quote + quote, quote);
    }

    /** An expression the shards group by too (once, however many aggregates ask for it). */
    private void groupByToo(Expression expression) {
        String text = expression.toString();
        if (distinctArguments.stream().noneMatch(e -> e.toString().equalsIgnoreCase(text))) {
            distinctArguments.add(expression);
        }
    }

    /** A derived column the merge reads for its own purpose, never one an ORDER BY or HAVING may name. */
    private int internal(Expression expression) {
        int column = derive(expression);
        internal.add(column);
        return column;
    }

    /** HAVING as the merge evaluates it: comparisons of columns with literals or columns, AND, OR, NOT. */
    private Having having(Expression expression) {
        return switch (expression) {
            case AndExpression and -> new Having.And(List.of(having(and.getLeftExpression()),
                    having(and.getRightExpression())));
            case OrExpression or -> new Having.Or(List.of(having(or.getLeftExpression()),
                    having(or.getRightExpression())));
            case NotExpression not -> new Having.Not(having(not.getExpression()));
            case ParenthesedExpressionList<?> group when group.size() == 1 -> having(group.get(0));
            case EqualsTo c -> compare(c, "=");
            case NotEqualsTo c -> compare(c, "<>");
            case GreaterThan c -> compare(c, ">");
            case GreaterThanEquals c -> compare(c, ">=");
            case MinorThan c -> compare(c, "<");
            case MinorThanEquals c -> compare(c, "<=");
            default -> throw ShardingRule.refused("HAVING " + expression + " over several shards: Strata evaluates "
                    + "comparisons of selected values and aggregates with literals, AND, OR and NOT");
        };
    }

    private Having compare(BinaryExpression comparison, String op) {
        refuseConcat(comparison.getLeftExpression(), "HAVING");
        refuseConcat(comparison.getRightExpression(), "HAVING");
        Object left = literal(comparison.getLeftExpression());
        Object right = literal(comparison.getRightExpression());
        if (left != NOT_LITERAL && right == NOT_LITERAL) {
            return new Having.Compare(column(comparison.getRightExpression()), mirrored(op),
                    new Operand.Literal(left));
        }
        if (left == NOT_LITERAL) {
            int column = column(comparison.getLeftExpression());
            Operand operand = right != NOT_LITERAL ? new Operand.Literal(right)
                    : new Operand.Column(column(comparison.getRightExpression()));
            return new Having.Compare(column, op, operand);
        }
        throw ShardingRule.refused("HAVING " + comparison + " compares two literals");
    }

    private static final Object NOT_LITERAL = new Object();

    private static Object literal(Expression e) {
        return switch (e) {
            case NullValue ignored -> null;
            case LongValue n -> n.getBigIntegerValue().bitLength() < 64 ? (Object) n.getValue() : n.getBigIntegerValue();
            case DoubleValue d -> new BigDecimal(d.toString());
            case StringValue s -> s.getValue();
            case SignedExpression s when s.getSign() == '-' && literal(s.getExpression()) instanceof Number n ->
                    n instanceof Long l ? (Object) (-l) : n instanceof BigInteger b ? b.negate()
                            : ((BigDecimal) n).negate();
            default -> NOT_LITERAL;
        };
    }

    private static String mirrored(String op) {
        return switch (op) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> op;
        };
    }

    /** The LIMIT's offset and row count ({@code -1} for none), or null without LIMIT. */
    private long[] limit() {
        Limit limit = select.getLimit();
        if (limit == null && select.getOffset() == null) {
            return null;
        }
        long offset = 0;
        long rows = -1;
        if (limit != null) {
            offset = limit.getOffset() == null ? 0 : number(limit.getOffset());
            rows = limit.getRowCount() == null || limit.isLimitAll() || limit.isLimitNull() ? -1
                    : number(limit.getRowCount());
        }
        if (select.getOffset() != null) {
            offset = number(select.getOffset().getOffset());
        }
        return new long[] {offset, rows};
    }

    private static long number(Expression e) {
        if (e instanceof LongValue n) {
            return n.getValue();
        }
        throw ShardingRule.refused("LIMIT " + e + " over several shards: give numbers");
    }

    /**
     * The sort weight of a value in its collation, its bytes in the order the server compares values. WEIGHT_STRING
     * keeps trailing spaces, while a PAD SPACE collation (MariaDB's and MySQL 5.7's defaults) compares values as if
     * the shorter were padded with spaces: 'c' equals 'c ', and 'c\t' sorts before 'c'. So under PAD SPACE the
     * weight is of the value trimmed and ended by one space; under a NO PAD collation (MySQL 8's utf8mb4_0900_*,
     * MariaDB's *_nopad_*) it is of the value as it is. The test {@code CONCAT(v, ' ') = CONCAT(v)} tells the two apart
     * in the value's own collation, which the planner does not know: true under PAD SPACE, false under NO PAD (both
     * sides strings, so that a number's test warns of no conversion).
     */
    private static Expression weight(Expression value) {
        return parse("WEIGHT_STRING(IF(CONCAT(" + value + ", ' ') = CONCAT(" + value + "), CONCAT(RTRIM(" + value
                + "), ' '), " + value + "))");
    }

    /**
     * The derived column of a value's sort weight, or -1 where the value is no string: a number by its form (an
     * arithmetic, COUNT, SUM, AVG, a numeric function, a number), or as earlier answers showed.
     */
    private int weighed(Expression value) {
        String text = value.toString().toLowerCase(Locale.ROOT);
        if (numeric(value) || plainValues.contains(text)) {
            return -1;
        }
        int column = derive(weight(value));
        weighed.put(column, text);
        return column;
    }

    private static boolean numeric(Expression value) {
        return switch (value) {
            case LongValue ignored -> true;
            case DoubleValue ignored -> true;
            case SignedExpression signed -> numeric(signed.getExpression());
            case net.sf.jsqlparser.expression.operators.arithmetic.Addition ignored -> true;
            case net.sf.jsqlparser.expression.operators.arithmetic.Subtraction ignored -> true;
            case net.sf.jsqlparser.expression.operators.arithmetic.Multiplication ignored -> true;
            case net.sf.jsqlparser.expression.operators.arithmetic.Division ignored -> true;
            case net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision ignored -> true;
            case net.sf.jsqlparser.expression.operators.arithmetic.Modulo ignored -> true;
            case net.sf.jsqlparser.expression.Function f when f.getName() != null -> {
                String name = f.getName().toUpperCase(Locale.ROOT);
                yield NUMERIC_FUNCTIONS.contains(name) || (name.equals("MIN") || name.equals("MAX"))
                        && f.getParameters() != null && f.getParameters().size() == 1
                        && numeric((Expression) f.getParameters().get(0));
            }
            default -> false;
        };
    }

    private int derive(Expression expression) {
        derived.add(expression);
        return items.size() + derived.size() - 1;
    }

    /**
     * A GROUP_CONCAT's merged value has no weight the shards could give, so it is no sort key or HAVING operand
     * over several shards (a group one node holds whole is no merge of it).
     */
    private void refuseConcat(Expression value, String clause) {
        boolean concat = groupConcat(value);
        if (value instanceof Column c && c.getTable() == null) { // an alias of the client's GROUP_CONCAT item
            for (SelectItem<?> item : items) {
                if (item.getAlias() != null && groupConcat(item.getExpression()) && Names.unquote(
                        item.getAlias().getName()).equalsIgnoreCase(Names.unquote(c.getColumnName()))) {
                    concat = true;
                }
            }
        }
        if (concat && !groupsOnOneNode) {
            throw ShardingRule.refused(clause + " on a GROUP_CONCAT over several shards");
        }
    }

    private static boolean aggregate(Expression e) {
        return e instanceof net.sf.jsqlparser.expression.Function f && f.getName() != null
                && AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT)) && f.getKeep() == null;
    }

    private static boolean groupConcat(Expression e) {
        return e instanceof net.sf.jsqlparser.expression.Function f && f.getName() != null
                && f.getName().equalsIgnoreCase("GROUP_CONCAT");
    }

    private static Expression parse(String expression) {
        try {
            return CCJSqlParserUtil.parseExpression(expression);
        } catch (JSQLParserException e) {
            throw ShardingRule.refused("the derived item " + expression + " (" + e.getMessage() + ")");
        }
    }


}
