package io.strata.rule.sql.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.alter.RenameTableStatement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * Reads a JSqlParser tree into a {@link ParsedStatement}: the statement's type, which of the tables it names it
 * writes (each statement form says where its targets are), and the walk of everything else for the tables it reads.
 */
final class StatementReader {

    private StatementReader() {
    }

    static ParsedStatement read(Statement statement) {
        TableWalker walker = new TableWalker();
        StatementType type = switch (statement) {
            case Select select -> {
                walker.select(select);
                yield StatementType.SELECT;
            }
            case Insert insert -> insert(insert, walker);
            case Upsert replace -> replace(replace, walker);
            case Update update -> update(update, walker);
            case Delete delete -> delete(delete, walker);
            case CreateTable create -> createTable(create, walker);
            case Alter alter -> alter(alter, walker);
            case Drop drop when "TABLE".equalsIgnoreCase(drop.getType()) -> {
                drop.getNames().forEach(walker::write);
                yield StatementType.DROP_TABLE;
            }
            case Drop drop when "INDEX".equalsIgnoreCase(drop.getType()) -> dropIndex(drop, walker);
            case Truncate truncate -> {
                truncate.getTables().forEach(walker::write);
                yield StatementType.TRUNCATE_TABLE;
            }
            case RenameTableStatement rename -> rename(rename, walker);
            case CreateIndex create -> {
                walker.write(create.getTable());
                yield StatementType.CREATE_INDEX;
            }
            default -> StatementType.OTHER;
        };
        return new ParsedStatement(type, walker.tables(), statement, null);
    }

    private static StatementType insert(Insert insert, TableWalker walker) {
        walker.declare(insert.getWithItemsList());
        walker.write(insert.getTable());
        walker.select(insert.getSelect());
        walker.updateSets(insert.getSetUpdateSets());
        walker.updateSets(insert.getDuplicateUpdateSets());
        return StatementType.INSERT;
    }

    /** The library's Upsert: MySQL's only form of it is REPLACE. */
    private static StatementType replace(Upsert replace, TableWalker walker) {
        walker.write(replace.getTable());
        walker.select(replace.getSelect());
        walker.updateSets(replace.getUpdateSets());
        walker.updateSets(replace.getDuplicateUpdateSets());
        return StatementType.REPLACE;
    }

    /**
     * A single-table UPDATE writes its table. A multi-table one writes the tables whose columns its SET assigns; a
     * column without a qualifier that names one of them could be any table's, so then every table it joins counts as
     * written.
     */
    private static StatementType update(Update update, TableWalker walker) {
        walker.declare(update.getWithItemsList());
        List<Table> joined = tableReferences(update.getTable(), update.getStartJoins());
        boolean unresolved = false;
        for (UpdateSet set : update.getUpdateSets()) {
            for (Column column : set.getColumns()) {
                Table target = column.getTable() == null || column.getTable().getName() == null
                        ? null : resolve(column.getTable(), joined);
                unresolved |= target == null;
                if (target != null) {
                    walker.markWritten(target);
                }
            }
        }
        if (unresolved || joined.size() == 1) {
            joined.forEach(walker::markWritten);
        }
        walker.from(update.getTable());
        walker.joins(update.getStartJoins());
        walker.from(update.getFromItem());
        walker.joins(update.getJoins());
        walker.updateSets(update.getUpdateSets());
        walker.expression(update.getWhere());
        walker.orderBy(update.getOrderByElements());
        return StatementType.UPDATE;
    }

    /**
     * A single-table DELETE writes its table; {@code DELETE t1, t2 FROM <tables>} writes the tables its targets name,
     * by alias or by name ({@link MySqlForms} turns the USING form into this one).
     */
    private static StatementType delete(Delete delete, TableWalker walker) {
        walker.declare(delete.getWithItemsList());
        if (delete.getTables() == null || delete.getTables().isEmpty()) {
            walker.markWritten(delete.getTable());
        } else {
            List<Table> joined = tableReferences(delete.getTable(), delete.getJoins());
            for (Table target : delete.getTables()) {
                Table resolved = resolve(target, joined);
                if (resolved != null) {
                    walker.markWritten(resolved);
                } else {
                    walker.write(target);
                }
            }
        }
        walker.from(delete.getTable());
        walker.joins(delete.getJoins());
        walker.expression(delete.getWhere());
        walker.orderBy(delete.getOrderByElements());
        return StatementType.DELETE;
    }

    /** CREATE TABLE writes its table and reads the model of LIKE and the rows of AS SELECT. */
    private static StatementType createTable(CreateTable create, TableWalker walker) {
        walker.write(create.getTable());
        walker.from(create.getLikeTable());
        walker.select(create.getSelect());
        return StatementType.CREATE_TABLE;
    }

    /** ALTER TABLE writes its table, and the new name of RENAME TO. */
    private static StatementType alter(Alter alter, TableWalker walker) {
        walker.write(alter.getTable());
        for (AlterExpression expression : alter.getAlterExpressions()) {
            if (expression.getOperation() == AlterOperation.RENAME_TABLE && expression.getNewTableName() != null) {
                walker.write(name(expression.getNewTableName()));
            }
        }
        return StatementType.ALTER_TABLE;
    }

    /** {@code DROP INDEX i ON t}: the library keeps {@code ON t} as two words of text. */
    private static StatementType dropIndex(Drop drop, TableWalker walker) {
        List<String> parameters = drop.getParameters() == null ? List.of() : drop.getParameters();
        for (int i = 0; i + 1 < parameters.size(); i++) {
            if (parameters.get(i).equalsIgnoreCase("ON")) {
                walker.write(name(parameters.get(i + 1)));
                break;
            }
        }
        return StatementType.DROP_INDEX;
    }

    /** RENAME TABLE writes both names of every pair, old then new. */
    private static StatementType rename(RenameTableStatement rename, TableWalker walker) {
        for (Map.Entry<Table, Table> pair : rename.getTableNames()) {
            walker.write(pair.getKey());
            walker.write(pair.getValue());
        }
        return StatementType.RENAME_TABLE;
    }

    /** The tables a FROM list joins at its own level, nested join brackets included, subqueries not. */
    private static List<Table> tableReferences(FromItem first, List<Join> joins) {
        List<Table> tables = new ArrayList<>();
        addReferences(first, tables);
        if (joins != null) {
            joins.forEach(join -> addReferences(join.getFromItem(), tables));
        }
        return tables;
    }

    private static void addReferences(FromItem item, List<Table> tables) {
        if (item instanceof Table table) {
            tables.add(table);
        } else if (item instanceof ParenthesedFromItem nested) {
            tables.addAll(tableReferences(nested.getFromItem(), nested.getJoins()));
        }
    }

    /**
     * The table of {@code joined} that {@code qualifier} (a DELETE target, a column's table) means: by alias first,
     * as MySQL requires once a table has one, then by name. Null when none.
     */
    private static Table resolve(Table qualifier, List<Table> joined) {
        String schema = SqlTokens.unquote(qualifier.getSchemaName());
        String name = SqlTokens.unquote(qualifier.getName());
        for (Table table : joined) {
            if (schema == null && table.getAlias() != null
                    && name.equals(SqlTokens.unquote(table.getAlias().getName()))) {
                return table;
            }
        }
        for (Table table : joined) {
            if (name.equals(SqlTokens.unquote(table.getName()))
                    && (schema == null || schema.equals(SqlTokens.unquote(table.getSchemaName())))) {
                return table;
            }
        }
        return null;
    }

    /** A written table from a name the library kept as text: {@code t}, {@code `db`.`t`}. */
    private static TableName name(String text) {
        SqlTokens tokens = SqlTokens.of(text);
        if (tokens.size() == 3 && tokens.isSymbol(1, '.')) {
            return new TableName(SqlTokens.unquote(tokens.text(0)), SqlTokens.unquote(tokens.text(2)), true);
        }
        return new TableName(null, SqlTokens.unquote(text.strip()), true);
    }
}
