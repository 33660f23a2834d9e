package io.strata.rule.sql.parser;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Walks the parts of a statement's tree that {@link StatementReader} hands it and collects the tables they name, in
 * order of first appearance. A table is recorded as written when its node was marked so or when it is written
 * directly; a table seen both ways counts as written. Names of the CTEs in scope are not tables.
 *
 * <p>Expressions are walked by JSqlParser's own {@link ExpressionVisitorAdapter}, which knows every expression
 * type; this class only takes over where an expression holds a subquery. One walker per statement, on one thread.
 */
final class TableWalker {

    /** Keyed by the name with {@code written} false, so a table is listed once. */
    private final Map<TableName, TableName> tables = new LinkedHashMap<>();
    private final Set<Table> writtenNodes = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The CTEs in scope, innermost last; a name may repeat when an inner WITH shadows an outer one. */
    private final List<String> cteNames = new ArrayList<>();
    private final Subqueries subqueries = new Subqueries();

    List<TableName> tables() {
        return List.copyOf(tables.values());
    }

    /** Records {@code table} as written now, wherever it appears later. */
    void write(Table table) {
        add(new TableName(SqlTokens.unquote(table.getSchemaName()), SqlTokens.unquote(table.getName()), true));
    }

    /** Records {@code name} as written now. */
    void write(TableName name) {
        add(new TableName(name.schema(), name.name(), true));
    }

    /** Makes {@code node}, a table reference walked later, count as written (the target of a multi-table UPDATE). */
    void markWritten(Table node) {
        writtenNodes.add(node);
    }

    /** Declares CTEs for the rest of the walk, after walking their bodies. */
    void declare(List<WithItem<?>> withItems) {
        if (withItems == null) {
            return;
        }
        // RECURSIVE belongs to the whole WITH clause: each CTE's body may then read itself and the others
        boolean recursive = withItems.stream().anyMatch(WithItem::isRecursive);
        if (recursive) {
            withItems.forEach(item -> cteNames.add(SqlTokens.unquote(item.getAliasName())));
        }
        for (WithItem<?> item : withItems) {
            select(item.getSelect());
            if (!recursive) {
                cteNames.add(SqlTokens.unquote(item.getAliasName()));
            }
        }
    }

    void select(Select select) {
        if (select == null) {
            return;
        }
        int scope = cteNames.size();
        declare(select.getWithItemsList());
        switch (select) {
            case PlainSelect plain -> plainSelect(plain);
            case SetOperationList union -> {
                union.getSelects().forEach(this::select);
                orderBy(union.getOrderByElements());
            }
            case ParenthesedSelect parenthesed -> select(parenthesed.getSelect());
            case Values values -> expression(values.getExpressions());
            case TableStatement table -> from(table.getTable());
            default -> {
                // other dialects' query forms (piped FROM queries): nothing MySQL sends
            }
        }
        cteNames.subList(scope, cteNames.size()).clear();
    }

    void from(FromItem item) {
        switch (item) {
            case null -> {
            }
            case Table table -> table(table);
            case Select select -> select(select);
            case ParenthesedFromItem nested -> {
                from(nested.getFromItem());
                joins(nested.getJoins());
            }
            case TableFunction function -> expression(function.getFunction());
            default -> {
            }
        }
    }

    void joins(List<Join> joins) {
        if (joins == null) {
            return;
        }
        for (Join join : joins) {
            from(join.getFromItem());
            join.getOnExpressions().forEach(this::expression);
        }
    }

    void expression(Expression expression) {
        if (expression != null) {
            expression.accept(subqueries, null);
        }
    }

    /** The values of SET assignments (the columns name no table to record). */
    void updateSets(List<UpdateSet> sets) {
        if (sets != null) {
            sets.forEach(set -> expression(set.getValues()));
        }
    }

    void orderBy(List<OrderByElement> elements) {
        if (elements != null) {
            elements.forEach(element -> expression(element.getExpression()));
        }
    }

    private void plainSelect(PlainSelect select) {
        if (select.getSelectItems() != null) {
            select.getSelectItems().forEach(item -> expression(item.getExpression()));
        }
        from(select.getFromItem());
        joins(select.getJoins());
        expression(select.getWhere());
        if (select.getGroupBy() != null) {
            expression(select.getGroupBy().getGroupByExpressionList());
        }
        expression(select.getHaving());
        orderBy(select.getOrderByElements());
    }

    private void table(Table table) {
        String schema = SqlTokens.unquote(table.getSchemaName());
        String name = SqlTokens.unquote(table.getName());
        if (schema == null && (cteNames.contains(name) || name.equalsIgnoreCase("DUAL"))) {
            return;
        }
        add(new TableName(schema, name, writtenNodes.contains(table)));
    }

    private void add(TableName table) {
        TableName key = new TableName(table.schema(), table.name(), false);
        TableName known = tables.get(key);
        if (known == null || table.written() && !known.written()) {
            tables.put(key, table);
        }
    }

    /**
     * Every expression type walked by the library; subqueries come back to the walker, including those of
     * {@code > ANY (...)}, which the library's adapter does not enter.
     */
    private final class Subqueries extends ExpressionVisitorAdapter<Void> {

        @Override
        public <S> Void visit(AnyComparisonExpression comparison, S context) {
            TableWalker.this.select(comparison.getSelect());
            return null;
        }

        @Override
        public <S> Void visit(Select select, S context) {
            TableWalker.this.select(select);
            return null;
        }

        @Override
        public <S> Void visit(ParenthesedSelect select, S context) {
            TableWalker.this.select(select);
            return null;
        }
    }
}
