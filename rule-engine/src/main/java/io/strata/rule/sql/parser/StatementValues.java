package io.strata.rule.sql.parser;

import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The values a parsed statement gives its columns, for rules that decide by them: an INSERT's rows, and the
 * comparisons of a WHERE clause. A prepared statement's {@code ?} reads as its parameter's value (the client's
 * binding for this execute); anything Strata does not evaluate reads as {@link Value.Unreadable}, so a rule can
 * refuse rather than guess.
 */
public final class StatementValues {

    /**
     * An INSERT's or REPLACE's rows.
     *
     * @param columns the column names as written, in the statement's order (VALUES) or its SET order
     * @param rows    each row's values, in {@code columns}' order
     */
    public record Rows(List<String> columns, List<List<Value>> rows) {

        /** Each row's value of {@code column} (compared without case), or an empty list when it is not given. */
        public List<Value> column(String column) {
            int at = -1;
            for (int i = 0; i < columns.size() && at < 0; i++) {
                if (columns.get(i).equalsIgnoreCase(column)) {
                    at = i;
                }
            }
            if (at < 0) {
                return List.of();
            }
            List<Value> values = new ArrayList<>(rows.size());
            for (List<Value> row : rows) {
                values.add(at < row.size() ? row.get(at) : new Value.Unreadable("(a row too short)"));
            }
            return values;
        }
    }

    private StatementValues() {
    }

    /**
     * The rows of an INSERT or REPLACE with VALUES or SET, or null: for another statement, for INSERT ... SELECT
     * (its rows come from a query), and for one that names no columns (only the table's definition says which value
     * is which column).
     */
    public static Rows insertRows(ParsedStatement parsed, List<Object> params) {
        return insertRows(parsed, params, null);
    }

    /**
     * As {@link #insertRows(ParsedStatement, List)}, reading an INSERT or REPLACE that names no columns by {@code
     * tableColumns} (the table's columns in order, where known): every row must then have a value for each.
     */
    public static Rows insertRows(ParsedStatement parsed, List<Object> params, List<String> tableColumns) {
        return switch (parsed.ast()) {
            case Insert insert -> rows(insert.getColumns(), insert.getSelect(), insert.getSetUpdateSets(), params,
                    tableColumns);
            // the library's Upsert is MySQL's REPLACE
            case Upsert replace -> rows(replace.getColumns(), replace.getSelect(), replace.getUpdateSets(), params,
                    tableColumns);
            case null, default -> null;
        };
    }

    private static Rows rows(ExpressionList<Column> named, Select select, List<UpdateSet> sets, List<Object> params,
                             List<String> tableColumns) {
        if (sets != null && !sets.isEmpty()) {
            List<String> columns = new ArrayList<>();
            List<Value> row = new ArrayList<>();
            for (UpdateSet set : sets) {
                for (int i = 0; i < set.getColumns().size(); i++) {
                    columns.add(name(set.getColumns().get(i)));
                    row.add(value(i < set.getValues().size() ? set.getValues().get(i) : null, params));
                }
            }
            return new Rows(columns, List.of(row));
        }
        if (!(select instanceof Values values) || named == null && tableColumns == null) {
            return null;
        }
        List<String> columns = named != null ? named.stream().map(StatementValues::name).toList() : tableColumns;
        List<List<Value>> rows = rows(values.getExpressions(), columns.size(), params);
        if (named == null && rows.stream().anyMatch(row -> row.size() != columns.size())) {
            return null; // not one value per column: the server's own error, not a guess
        }
        return new Rows(columns, rows);
    }

    /**
     * VALUES' rows: a list of parenthesised rows, or, for a single row, that row's list itself (the library gives
     * {@code VALUES (1, 2)} as one list of two values).
     */
    private static List<List<Value>> rows(ExpressionList<?> expressions, int width, List<Object> params) {
        List<List<Value>> rows = new ArrayList<>();
        boolean listOfRows = !(expressions instanceof ParenthesedExpressionList<?>)
                && expressions.stream().allMatch(e -> e instanceof ParenthesedExpressionList<?>);
        if (!listOfRows && expressions.size() == width) {
            rows.add(values(expressions, params));
            return rows;
        }
        for (Expression row : expressions) {
            rows.add(row instanceof ParenthesedExpressionList<?> list ? values(list, params)
                    : List.of(value(row, params)));
        }
        return rows;
    }

    private static List<Value> values(ExpressionList<?> list, List<Object> params) {
        List<Value> values = new ArrayList<>(list.size());
        for (Expression expression : list) {
            values.add(value(expression, params));
        }
        return values;
    }

    /** The WHERE of an UPDATE, DELETE or plain SELECT as a {@link Condition}, or null when there is none. */
    public static Condition where(ParsedStatement parsed, List<Object> params) {
        Statement ast = parsed.ast();
        Expression where = switch (ast) {
            case PlainSelect select -> select.getWhere();
            case Update update -> update.getWhere();
            case Delete delete -> delete.getWhere();
            case null, default -> null;
        };
        return where == null ? null : condition(where, params);
    }

    /** A condition of a statement's tree (a WHERE of any of its query blocks), its {@code ?} left unbound. */
    public static Condition condition(Expression expression) {
        return condition(expression, List.of());
    }

    static Condition condition(Expression expression, List<Object> params) {
        return switch (expression) {
            case AndExpression and -> new Condition.And(List.of(condition(and.getLeftExpression(), params),
                    condition(and.getRightExpression(), params)));
            case OrExpression or -> new Condition.Or(List.of(condition(or.getLeftExpression(), params),
                    condition(or.getRightExpression(), params)));
            case ParenthesedExpressionList<?> group when group.size() == 1 -> condition(group.get(0), params);
            case EqualsTo eq -> compare(eq.getLeftExpression(), Condition.Op.EQ, eq.getRightExpression(), params,
                    expression);
            case MinorThan lt -> compare(lt.getLeftExpression(), Condition.Op.LT, lt.getRightExpression(), params,
                    expression);
            case MinorThanEquals le -> compare(le.getLeftExpression(), Condition.Op.LE, le.getRightExpression(),
                    params, expression);
            case GreaterThan gt -> compare(gt.getLeftExpression(), Condition.Op.GT, gt.getRightExpression(), params,
                    expression);
            case GreaterThanEquals ge -> compare(ge.getLeftExpression(), Condition.Op.GE, ge.getRightExpression(),
                    params, expression);
            case LikeExpression like when !like.isNot() && like.getEscape() == null
                    && "LIKE".equalsIgnoreCase(like.getStringExpression()) -> compare(like.getLeftExpression(),
                    Condition.Op.LIKE, like.getRightExpression(), params, expression);
            case InExpression in when !in.isNot() && in.getLeftExpression() instanceof Column column
                    && in.getRightExpression() instanceof ExpressionList<?> list -> new Condition.Compare(
                    qualifier(column), name(column), Condition.Op.IN, values(list, params));
            case Between between when !between.isNot() && between.getLeftExpression() instanceof Column column ->
                    new Condition.Compare(qualifier(column), name(column), Condition.Op.BETWEEN, List.of(
                            value(between.getBetweenExpressionStart(), params),
                            value(between.getBetweenExpressionEnd(), params)));
            default -> new Condition.Opaque(expression.toString());
        };
    }

    /** {@code column op value}, or {@code value op column} turned around; else opaque. */
    private static Condition compare(Expression left, Condition.Op op, Expression right, List<Object> params,
                                     Expression whole) {
        if (left instanceof Column column && !(right instanceof Column)) {
            return new Condition.Compare(qualifier(column), name(column), op, List.of(value(right, params)));
        }
        if (right instanceof Column column && !(left instanceof Column) && op != Condition.Op.LIKE) {
            return new Condition.Compare(qualifier(column), name(column), mirrored(op), List.of(value(left, params)));
        }
        return new Condition.Opaque(whole.toString());
    }

    private static Condition.Op mirrored(Condition.Op op) {
        return switch (op) {
            case LT -> Condition.Op.GT;
            case LE -> Condition.Op.GE;
            case GT -> Condition.Op.LT;
            case GE -> Condition.Op.LE;
            default -> op;
        };
    }

    /** A literal or a parameter's value, else unreadable. */
    static Value value(Expression expression, List<Object> params) {
        return switch (expression) {
            case null -> new Value.Unreadable("(nothing)");
            case NullValue ignored -> new Value.Known(null);
            case LongValue number -> new Value.Known(integer(number));
            case DoubleValue ignored -> new Value.Known(new BigDecimal(expression.toString()));
            case StringValue text -> new Value.Known(unescape(text.getValue()));
            case HexValue hex -> hex(hex);
            case JdbcParameter parameter -> parameter(parameter, params);
            case SignedExpression signed when signed.getSign() == '-' -> negated(value(signed.getExpression(),
                    params), expression);
            case SignedExpression signed when signed.getSign() == '+' -> value(signed.getExpression(), params);
            default -> new Value.Unreadable(expression.toString());
        };
    }

    /** A string literal's text as MySQL reads it by default: doubled quotes and backslash escapes undone. */
    static String unescape(String raw) {
        if (raw.indexOf('\\') < 0 && raw.indexOf('\'') < 0 && raw.indexOf('"') < 0) {
            return raw;
        }
        StringBuilder text = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if ((c == '\'' || c == '"') && i + 1 < raw.length() && raw.charAt(i + 1) == c) {
                text.append(c);
                i++;
            } else if (c == '\\' && i + 1 < raw.length()) {
                char next = raw.charAt(++i);
                text.append(switch (next) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case '0' -> '\0';
                    case 'b' -> '\b';
                    case 'Z' -> (char) 26;
                    default -> next; // \' \" \\ and the rest stand for themselves (\% \_ keep theirs in LIKE)
                });
                if (next == '%' || next == '_') {
                    text.insert(text.length() - 1, '\\');
                }
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }

    private static Object integer(LongValue number) {
        BigInteger value = number.getBigIntegerValue();
        return value.bitLength() < 64 ? (Object) value.longValue() : value;
    }

    private static Value hex(HexValue hex) {
        String text = hex.getValue();
        String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2)
                : text.substring(2, text.length() - 1); // X'...'
        if (digits.length() % 2 == 1) {
            digits = "0" + digits;
        }
        try {
            return new Value.Known(HexFormat.of().parseHex(digits.toLowerCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return new Value.Unreadable(text);
        }
    }

    private static Value parameter(JdbcParameter parameter, List<Object> params) {
        Integer index = parameter.getIndex();
        if (index == null || index < 1) {
            return new Value.Unreadable("?");
        }
        if (params == null || index > params.size()) {
            return new Value.Unbound(index);
        }
        return new Value.Known(params.get(index - 1));
    }

    private static Value negated(Value value, Expression whole) {
        if (value instanceof Value.Known known) {
            Object v = known.value();
            if (v instanceof Long l && l != Long.MIN_VALUE) {
                return new Value.Known(-l);
            }
            if (v instanceof BigInteger b) {
                BigInteger n = b.negate();
                return new Value.Known(n.bitLength() < 64 ? (Object) n.longValue() : n);
            }
            if (v instanceof BigDecimal d) {
                return new Value.Known(d.negate());
            }
        }
        return new Value.Unreadable(whole.toString());
    }

    private static String qualifier(Column column) {
        return column.getTable() == null || column.getTable().getName() == null ? null
                : unquote(column.getTable().getName());
    }

    private static String name(Column column) {
        return unquote(column.getColumnName());
    }

    private static String unquote(String name) {
        return name.length() > 1 && name.charAt(0) == '`' ? name.substring(1, name.length() - 1).replace("``", "`")
                : name;
    }
}
