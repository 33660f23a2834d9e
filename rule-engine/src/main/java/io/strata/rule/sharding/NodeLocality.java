package io.strata.rule.sharding;

import io.strata.rule.sql.parser.Names;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether a statement that names sharded tables may run on each node and its answers be merged: the proof that the
 * rows it combines always meet on one node. Read once per statement shape (its parsed tree).
 *
 * <p>Each sharded table the statement names, once per mention (a self-join names one table twice), is an
 * <em>instance</em>. Two instances are tied when the statement equates each of their sharding columns, as a plain
 * {@code a.c = b.c} that holds on every row the statement combines (an AND part of a WHERE, of an inner or RIGHT
 * JOIN's ON, of a LEFT JOIN's ON when it names the joined table, or a USING column), and their tables shard alike:
 * the same table, or tables bound in one {@code bindingTables} group (whose strategies {@link BindingCheck} proved
 * alike). Instances tied directly or through others form a <em>component</em>: its rows meet on one node. A
 * correlated subquery's instance ties to the outer query's as any other; a derived table's, a CTE's and a UNION
 * part's stand alone.
 *
 * <p>A statement of one component is answered exactly by every node's answer, merged. One of several components
 * is exact only on a single node where the conditions of every instance put all its rows
 * ({@link #components()}, read by the rule with the statement's values). An outer join that keeps every row of a
 * broadcast table (or of a derived table without sharded rows) against sharded rows would give those rows once per
 * node: exact only on one node ({@link #preservedBroadcast()}).
 */
final class NodeLocality {

    /**
     * One mention of a sharded table.
     *
     * @param table     the sharded table
     * @param written   how the statement names it, for messages ({@code t_order a})
     * @param qualifier the name its columns are qualified with: its alias, else its name (lower case)
     * @param block     the query block whose FROM names it
     */
    record Instance(ShardedTable table, String written, String qualifier, Block block) {
    }

    /** A query block: the tables of its FROM and its WHERE, inside the block that encloses it, if any. */
    static final class Block {
        private final Block parent;
        private final List<Source> sources = new ArrayList<>();
        private Expression where;

        private Block(Block parent) {
            this.parent = parent;
        }

        /** Its WHERE, or null. */
        Expression where() {
            return where;
        }

        /** Whether its FROM names one table only: its columns may then go unqualified. */
        boolean single() {
            return sources.size() == 1;
        }
    }

    /** A FROM item: a sharded table's instance, or another table or derived table (with sharded rows or not). */
    private record Source(Instance instance, String name, String qualifier, boolean shardedRows) {
    }

    private final List<List<Instance>> components;
    private final String preservedBroadcast;

    private NodeLocality(List<List<Instance>> components, String preservedBroadcast) {
        this.components = components;
        this.preservedBroadcast = preservedBroadcast;
    }

    /** The proof of a parsed statement (a SELECT, UPDATE or DELETE; others have nothing to prove). */
    static NodeLocality of(Statement ast, ShardingTables tables, Set<String> broadcast, String database) {
        Reader reader = new Reader(tables, broadcast, database);
        switch (ast) {
            case Select select -> reader.select(select, null);
            case Update update -> reader.update(update);
            case Delete delete -> reader.delete(delete);
            case null, default -> { }
        }
        return new NodeLocality(reader.components(), reader.preservedBroadcast);
    }

    /** The sharded instances, grouped by proven co-location; exact everywhere when there is at most one group. */
    List<List<Instance>> components() {
        return components;
    }

    /**
     * A broadcast table (or derived table) whose every row an outer join keeps while it joins sharded rows, as
     * written; null when there is none.
     */
    String preservedBroadcast() {
        return preservedBroadcast;
    }

    /** Whether every node's answer, merged, is the statement's answer, whichever nodes its conditions reach. */
    boolean everywhere() {
        return components.size() <= 1 && preservedBroadcast == null;
    }

    /** Why two components do not meet on one node, for the refusal. */
    String whyApart() {
        Instance a = components.get(0).get(0);
        Instance b = components.get(1).get(0);
        if (!linkable(a.table()) || !linkable(b.table())) {
            Instance loose = linkable(a.table()) ? b : a;
            return loose.written() + " is mentioned twice or more and its rows' shards are not a function of its "
                    + "columns (a hint or no strategy), so their rows may be on different shards";
        }
        if (a.block() != b.block() && !related(a.block(), b.block())) {
            return a.written() + " and " + b.written() + " are in separate parts of the statement (a derived "
                    + "table, WITH or UNION) that each read every shard";
        }
        StringBuilder missing = new StringBuilder();
        for (String column : a.table().shardingColumns()) {
            missing.append(missing.isEmpty() ? "" : " AND ").append(a.qualifier()).append('.').append(column)
                    .append(" = ").append(b.qualifier()).append('.').append(column);
        }
        return a.written() + " and " + b.written() + " are not joined on equal sharding columns (" + missing
                + "), so the rows they pair may be on different shards";
    }

    private static boolean related(Block a, Block b) {
        for (Block up = a; up != null; up = up.parent) {
            if (up == b) {
                return true;
            }
        }
        for (Block up = b; up != null; up = up.parent) {
            if (up == a) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether rows of a table are placed by its sharding columns' values alone, so that equal values mean one
     * node: not with a hint strategy, nor without columns, nor where a strategy of none leaves a choice.
     */
    static boolean linkable(ShardedTable table) {
        StrategyConfig database = table.config().databaseStrategy();
        StrategyConfig own = table.config().tableStrategy();
        if (table.hinted() || table.shardingColumns().isEmpty()) {
            return false;
        }
        Map<String, Integer> tablesPerSource = new HashMap<>();
        table.nodes().forEach(node -> tablesPerSource.merge(node.dataSource(), 1, Integer::sum));
        boolean databaseChosen = !(database instanceof StrategyConfig.None) || tablesPerSource.size() == 1
                || table.nodes().stream().map(DataNode::table).distinct().count() == table.nodes().size();
        boolean tableChosen = !(own instanceof StrategyConfig.None)
                || tablesPerSource.values().stream().allMatch(count -> count == 1);
        return databaseChosen && tableChosen;
    }

    /**
     * Walks the statement's blocks, collecting instances, the equalities that tie them and outer joins. A
     * subquery's block has the block it is in as parent (its columns may name that block's tables); a derived
     * table's and a CTE's have none.
     */
    private static final class Reader {
        private final ShardingTables tables;
        private final Set<String> broadcast;
        private final String database;
        private final List<Instance> instances = new ArrayList<>();
        /** Per sharding column, which instances it ties: a union-find over instance indexes. */
        private final Map<String, int[]> ties = new HashMap<>();
        private final List<String> cteNames = new ArrayList<>();
        private final Map<String, Boolean> cteShardedRows = new HashMap<>();
        private String preservedBroadcast;

        Reader(ShardingTables tables, Set<String> broadcast, String database) {
            this.tables = tables;
            this.broadcast = broadcast;
            this.database = database;
        }

        /** Walks a query; returns whether it reads sharded rows. */
        boolean select(Select select, Block parent) {
            if (select == null) {
                return false;
            }
            int scope = cteNames.size();
            boolean sharded = with(select.getWithItemsList(), parent);
            sharded |= switch (select) {
                case PlainSelect plain -> plainSelect(plain, parent);
                case SetOperationList union -> {
                    boolean any = false;
                    for (Select part : union.getSelects()) {
                        any |= select(part, parent);
                    }
                    yield any;
                }
                case ParenthesedSelect parenthesed -> select(parenthesed.getSelect(), parent);
                default -> false;
            };
            cteNames.subList(scope, cteNames.size()).clear();
            return sharded;
        }

        private boolean with(List<WithItem<?>> items, Block parent) {
            boolean any = false;
            if (items != null) {
                for (WithItem<?> item : items) {
                    String name = Names.unquote(item.getAliasName()).toLowerCase(Locale.ROOT);
                    cteNames.add(name); // named first: a recursive CTE reads itself
                    boolean sharded = select(item.getSelect(), null); // MySQL's CTEs read no outer columns
                    cteShardedRows.merge(name, sharded, Boolean::logicalOr);
                    any |= sharded;
                }
            }
            return any;
        }

        private boolean plainSelect(PlainSelect select, Block parent) {
            Block block = new Block(parent);
            List<Source> sources = from(select.getFromItem(), select.getJoins(), block);
            block.where = select.getWhere();
            equalities(select.getWhere(), block, block.sources);
            if (select.getSelectItems() != null) {
                select.getSelectItems().forEach(item -> subqueries(item.getExpression(), block));
            }
            subqueries(select.getWhere(), block);
            if (select.getGroupBy() != null) {
                subqueries(select.getGroupBy().getGroupByExpressionList(), block);
            }
            subqueries(select.getHaving(), block);
            orderBy(select.getOrderByElements(), block);
            return sources.stream().anyMatch(Source::shardedRows);
        }

        void update(Update update) {
            List<Join> joins = new ArrayList<>();
            addAll(joins, update.getStartJoins());
            addAll(joins, update.getJoins());
            Block block = write(update.getTable(), joins, update.getWhere(), update.getOrderByElements());
            if (update.getUpdateSets() != null) {
                update.getUpdateSets().forEach(set -> subqueries(set.getValues(), block));
            }
        }

        void delete(Delete delete) {
            List<Join> joins = new ArrayList<>();
            if (delete.getUsingList() != null) {
                for (Table table : delete.getUsingList()) { // DELETE ... USING a, b: a comma join
                    Join comma = new Join();
                    comma.setSimple(true);
                    comma.setFromItem(table);
                    joins.add(comma);
                }
            }
            addAll(joins, delete.getJoins());
            write(delete.getTable(), joins, delete.getWhere(), delete.getOrderByElements());
        }

        /** An UPDATE's or DELETE's one block: its tables, joins, WHERE and ORDER BY. */
        private Block write(Table table, List<Join> joins, Expression where, List<OrderByElement> orderBy) {
            Block block = new Block(null);
            from(table, joins, block);
            block.where = where;
            equalities(where, block, block.sources);
            subqueries(where, block);
            orderBy(orderBy, block);
            return block;
        }

        private static void addAll(List<Join> joins, List<Join> more) {
            if (more != null) {
                joins.addAll(more);
            }
        }

        private void orderBy(List<OrderByElement> elements, Block block) {
            if (elements != null) {
                elements.forEach(element -> subqueries(element.getExpression(), block));
            }
        }

        /**
         * The sources of a FROM and its joins, each added to the block as it comes (an ON names the tables before
         * it); reads the joins' conditions and outer joins on the way.
         */
        private List<Source> from(FromItem first, List<Join> joins, Block block) {
            List<Source> left = new ArrayList<>(item(first, block));
            if (joins == null) {
                return left;
            }
            for (Join join : joins) {
                List<Source> right = item(join.getFromItem(), block);
                boolean leftOuter = join.isLeft() && !join.isRight();
                for (Expression on : join.getOnExpressions()) {
                    // a LEFT JOIN's ON holds only where the joined table has a row
                    equalities(on, block, leftOuter ? right : block.sources);
                }
                using(join, left, right);
                if (join.isLeft()) {
                    outer(left, right);
                } else if (join.isRight()) {
                    outer(right, left);
                } else if (join.isFull()) {
                    outer(left, right);
                    outer(right, left);
                }
                left.addAll(right);
            }
            return left;
        }

        /** An outer join keeping every row of {@code kept}: sharded rows on the other side must be anchored. */
        private void outer(List<Source> kept, List<Source> nullable) {
            boolean anchored = kept.stream().anyMatch(Source::shardedRows);
            boolean shardedOther = nullable.stream().anyMatch(Source::shardedRows);
            if (!anchored && shardedOther && preservedBroadcast == null) {
                preservedBroadcast = kept.isEmpty() ? "?" : kept.get(0).name();
            }
        }

        /** JOIN ... USING (c): the joined table's c equals c of the one earlier table that may have it. */
        private void using(Join join, List<Source> left, List<Source> right) {
            if (join.getUsingColumns() == null || right.size() != 1 || right.get(0).instance() == null) {
                return;
            }
            Instance joined = right.get(0).instance();
            List<Instance> alike = left.stream().map(Source::instance)
                    .filter(i -> i != null && alike(i.table(), joined.table())).toList();
            if (alike.size() != 1 || left.stream().anyMatch(s -> s.instance() == null)) {
                return; // another table may hold the column: which one USING reads is not known here
            }
            for (Column column : join.getUsingColumns()) {
                tie(Names.unquote(column.getColumnName()).toLowerCase(Locale.ROOT), alike.get(0), joined);
            }
        }

        private List<Source> item(FromItem item, Block block) {
            String alias = item == null || item.getAlias() == null ? null
                    : Names.unquote(item.getAlias().getName()).toLowerCase(Locale.ROOT);
            Source source = switch (item) {
                case null -> null;
                case Table table -> table(table, alias, block);
                // a derived table reads no outer columns (LATERAL aside, which is not read as tied)
                case ParenthesedSelect derived -> new Source(null, alias == null ? "a derived table"
                        : "derived table " + alias, alias, select(derived, null));
                case ParenthesedFromItem nested -> null;
                case TableFunction function -> {
                    subqueries(function.getFunction(), block);
                    yield new Source(null, item.toString(), alias, false);
                }
                default -> new Source(null, item.toString(), alias, false);
            };
            if (item instanceof ParenthesedFromItem nested) {
                return from(nested.getFromItem(), nested.getJoins(), block);
            }
            if (source == null) {
                return new ArrayList<>();
            }
            block.sources.add(source);
            return new ArrayList<>(List.of(source));
        }

        private Source table(Table table, String alias, Block block) {
            String schema = Names.unquote(table.getSchemaName());
            String name = Names.unquote(table.getName());
            String lower = name.toLowerCase(Locale.ROOT);
            String qualifier = alias != null ? alias : lower;
            String written = name + (alias == null ? "" : " " + alias);
            boolean ours = schema == null || schema.equalsIgnoreCase(database);
            if (schema == null && cteNames.contains(lower)) {
                return new Source(null, "WITH " + name, qualifier, cteShardedRows.getOrDefault(lower, false));
            }
            ShardedTable sharded = ours ? tables.find(name).orElse(null) : null;
            if (sharded == null) {
                return new Source(null, (ours && broadcast.contains(lower) ? "broadcast table " : "table ")
                        + written, qualifier, false);
            }
            Instance instance = new Instance(sharded, written, qualifier, block);
            instances.add(instance);
            return new Source(instance, written, qualifier, true);
        }

        /**
         * The {@code a.c = b.c} AND parts of a condition: each ties two instances on column c. Only parts naming a
         * table of {@code own} count: a WHERE's own block (an outer query's equality inside a subquery does not
         * filter the outer rows), a LEFT JOIN's joined table (the others do not hold on the kept rows).
         */
        private void equalities(Expression condition, Block block, List<Source> own) {
            switch (condition) {
                case null -> { }
                case AndExpression and -> {
                    equalities(and.getLeftExpression(), block, own);
                    equalities(and.getRightExpression(), block, own);
                }
                case ParenthesedExpressionList<?> group when group.size() == 1 ->
                        equalities(group.get(0), block, own);
                case EqualsTo equals when equals.getLeftExpression() instanceof Column a
                        && equals.getRightExpression() instanceof Column b -> {
                    Instance x = resolve(a, block);
                    Instance y = resolve(b, block);
                    String column = Names.unquote(a.getColumnName()).toLowerCase(Locale.ROOT);
                    boolean named = own.stream().anyMatch(s -> s.instance() != null
                            && (s.instance() == x || s.instance() == y));
                    if (x != null && y != null && x != y && named && alike(x.table(), y.table())
                            && column.equals(Names.unquote(b.getColumnName()).toLowerCase(Locale.ROOT))) {
                        tie(column, x, y);
                    }
                }
                default -> { }
            }
        }

        /** The instance a column belongs to: by its qualifier in this block or an enclosing one; unqualified, the
         * block's one table. */
        private static Instance resolve(Column column, Block block) {
            Table table = column.getTable();
            String qualifier = table == null || table.getName() == null ? null
                    : Names.unquote(table.getName()).toLowerCase(Locale.ROOT);
            if (qualifier == null) {
                return block.sources.size() == 1 ? block.sources.get(0).instance() : null;
            }
            for (Block at = block; at != null; at = at.parent) {
                for (Source source : at.sources) {
                    if (qualifier.equals(source.qualifier())) {
                        return source.instance();
                    }
                }
            }
            return null;
        }

        private boolean alike(ShardedTable a, ShardedTable b) {
            return linkable(a) && (a == b || tables.areBound(a.logicalName(), b.logicalName()));
        }

        private void tie(String column, Instance a, Instance b) {
            if (!a.table().shardingColumns().contains(column)) {
                return;
            }
            int[] parents = ties.computeIfAbsent(column, c -> new int[0]);
            if (parents.length < instances.size()) {
                int[] grown = Arrays.copyOf(parents, instances.size());
                for (int i = parents.length; i < grown.length; i++) {
                    grown[i] = i;
                }
                ties.put(column, grown);
                parents = grown;
            }
            parents[root(parents, instances.indexOf(a))] = root(parents, instances.indexOf(b));
        }

        private static int root(int[] parents, int i) {
            while (parents[i] != i) {
                i = parents[i];
            }
            return i;
        }

        /** Every query in an expression: a correlated subquery, whose columns may name this block's tables. */
        private void subqueries(Object expression, Block block) {
            if (expression instanceof Expression e) {
                e.accept(new ExpressionVisitorAdapter<Void>() {
                    @Override
                    public <S> Void visit(AnyComparisonExpression comparison, S context) {
                        Reader.this.select(comparison.getSelect(), block);
                        return null;
                    }

                    @Override
                    public <S> Void visit(Select select, S context) {
                        Reader.this.select(select, block);
                        return null;
                    }

                    @Override
                    public <S> Void visit(ParenthesedSelect select, S context) {
                        Reader.this.select(select, block);
                        return null;
                    }
                }, null);
            }
        }

        /** The instances grouped: tied on every sharding column of their table, one group per binding. */
        List<List<Instance>> components() {
            Map<List<Object>, List<Instance>> groups = new LinkedHashMap<>();
            for (int i = 0; i < instances.size(); i++) {
                Instance instance = instances.get(i);
                List<Object> key = new ArrayList<>();
                if (!linkable(instance.table())) {
                    key.add(instance); // alone
                } else {
                    List<String> group = tables.bindingGroup(instance.table().logicalName());
                    key.add(group.isEmpty() ? instance.table() : group);
                    for (String column : instance.table().shardingColumns()) {
                        int[] parents = ties.get(column);
                        key.add(parents == null || i >= parents.length ? i : root(parents, i));
                    }
                }
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(instance);
            }
            List<List<Instance>> components = new ArrayList<>();
            groups.values().forEach(group -> components.add(List.copyOf(group)));
            return List.copyOf(components);
        }
    }
}
