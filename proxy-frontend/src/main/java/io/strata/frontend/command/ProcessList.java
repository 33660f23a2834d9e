package io.strata.frontend.command;

import io.strata.frontend.FrontendContext;
import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.kernel.Session;
import io.strata.protocol.ErrorCode;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The process list as MySQL's clients expect it, of Strata's own sessions: {@code SHOW [FULL] PROCESSLIST} and
 * {@code SELECT ... FROM information_schema.PROCESSLIST}, with the ids CONNECTION_ID() and KILL know. An administrator
 * sees every session, another user only the sessions of the same user (MySQL's rule without PROCESS). The State
 * column names the data sources a running statement went to.
 */
final class ProcessList {

    /** MySQL 8's columns, in its order. */
    private static final List<String> COLUMNS = List.of("Id", "User", "Host", "db", "Command", "Time", "State", "Info");
    /** SHOW PROCESSLIST cuts Info here, SHOW FULL PROCESSLIST does not. */
    private static final int INFO_CUT = 100;

    private ProcessList() {
    }

    /** The answer to a process list statement, or empty when {@code info} is none. */
    static Optional<LocalResultSet> answer(FrontendContext context, Session session, SqlStatementInfo info) {
        return is(info) ? Optional.of(answer(context, session, info, List.of())) : Optional.empty();
    }

    /** Whether the statement reads the process list. */
    static boolean is(SqlStatementInfo info) {
        return !info.multiStatement() && (isShow(info) || info.kind() == SqlKind.SELECT
                && StatementCommands.mentionsProcessList(info.sql()) && namesProcessList(info.tokens()));
    }

    private static boolean isShow(SqlStatementInfo info) {
        return info.kind() == SqlKind.SHOW && (info.tokens().size() == 2 && info.tokenIs(1, "PROCESSLIST")
                || info.tokens().size() == 3 && info.tokenIs(1, "FULL") && info.tokenIs(2, "PROCESSLIST"));
    }

    /**
     * The answer to a process list statement ({@link #is}), of this host's sessions and {@code others} (the rows
     * of the other members of a cluster).
     */
    static LocalResultSet answer(FrontendContext context, Session session, SqlStatementInfo info,
                                 List<List<Object>> others) {
        List<List<Object>> rows = rows(context, session.user(), AdminStatements.isAdministrator(context, session));
        if (!others.isEmpty()) {
            rows.addAll(others);
            rows.sort(Comparator.comparingLong(row -> ((Number) row.get(0)).longValue()));
        }
        return isShow(info) ? show(rows, info.tokenIs(1, "FULL")) : select(rows, info.sql());
    }

    private static boolean namesProcessList(List<String> tokens) {
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (unquoted(tokens.get(i)).equalsIgnoreCase("information_schema") && tokens.get(i + 1).equals(".")
                    && unquoted(tokens.get(i + 2)).equalsIgnoreCase("PROCESSLIST")) {
                return true;
            }
        }
        return false;
    }

    private static String unquoted(String token) {
        return token.length() > 1 && token.charAt(0) == '`' ? token.substring(1, token.length() - 1) : token;
    }

    /** One row per session the user may see (an administrator all), in MySQL's column order, ordered by id. */
    static List<List<Object>> rows(FrontendContext context, String user, boolean admin) {
        long now = System.nanoTime();
        List<Session> sessions = new ArrayList<>(context.sessions().all());
        sessions.sort(Comparator.comparingLong(Session::connectionId));
        List<List<Object>> rows = new ArrayList<>(sessions.size());
        for (Session session : sessions) {
            if (session.user() == null || !admin && !session.user().equals(user)) {
                continue;
            }
            Session.Activity activity = session.activity();
            String state = activity.runningOn() != null ? "running on " + activity.runningOn()
                    : activity.statement() != null ? "starting" : "";
            rows.add(Arrays.asList(session.connectionId(), session.user(), session.remoteHostPort(),
                    session.state().databaseShown(), activity.command(),
                    TimeUnit.NANOSECONDS.toSeconds(Math.max(0, now - activity.sinceNanos())), state,
                    activity.statement()));
        }
        return rows;
    }

    private static LocalResultSet show(List<List<Object>> rows, boolean full) {
        if (!full) {
            for (List<Object> row : rows) {
                if (row.get(7) instanceof String statement && statement.length() > INFO_CUT) {
                    row.set(7, statement.substring(0, INFO_CUT));
                }
            }
        }
        return new LocalResultSet(columns(COLUMNS), rows);
    }

    private static List<ColumnDefinition41> columns(List<String> names) {
        return names.stream().map(name -> name.equalsIgnoreCase("Id") || name.equalsIgnoreCase("Time")
                ? ColumnDefinition41.bigint(name) : ColumnDefinition41.varchar(name)).toList();
    }

    /**
     * A SELECT over information_schema.PROCESSLIST: columns or {@code *} (or only COUNT(*)), a WHERE of comparisons, LIKE, IN and IS NULL
     * joined by AND, OR and NOT, ORDER BY and LIMIT. Anything more is refused, naming what is answered.
     */
    private static LocalResultSet select(List<List<Object>> all, String sql) {
        PlainSelect select = parse(sql);
        if (select.getSelectItems().size() == 1 && select.getSelectItems().get(0).getExpression()
                instanceof Function count && count.getName().equalsIgnoreCase("COUNT") && (count.isAllColumns()
                || count.getParameters() != null && count.getParameters().size() == 1
                && count.getParameters().get(0) instanceof AllColumns)) {
            long matching = all.stream().filter(row -> select.getWhere() == null
                    || Boolean.TRUE.equals(value(select.getWhere(), row))).count();
            SelectItem<?> item = select.getSelectItems().get(0);
            String name = item.getAlias() != null ? item.getAlias().getName() : "COUNT(*)";
            return LocalResultSet.single(ColumnDefinition41.bigint(name), matching);
        }
        List<String> names = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            if (item.getExpression() instanceof AllColumns) {
                for (int i = 0; i < COLUMNS.size(); i++) {
                    names.add(COLUMNS.get(i).toUpperCase(Locale.ROOT));
                    indexes.add(i);
                }
            } else if (item.getExpression() instanceof Column column) {
                indexes.add(column(column));
                names.add(item.getAlias() != null ? item.getAlias().getName() : column.getColumnName());
            } else {
                throw unsupported();
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> row : all) {
            if (select.getWhere() == null || Boolean.TRUE.equals(value(select.getWhere(), row))) {
                rows.add(row);
            }
        }
        if (select.getOrderByElements() != null) {
            rows.sort(order(select.getOrderByElements()));
        }
        if (select.getLimit() != null) {
            if (!(select.getLimit().getRowCount() instanceof LongValue count) || select.getLimit().getOffset() != null) {
                throw unsupported();
            }
            rows = rows.subList(0, (int) Math.min(rows.size(), count.getValue()));
        }
        List<List<Object>> projected = rows.stream().map(row -> indexes.stream().map(row::get).toList()).toList();
        return new LocalResultSet(columns(names), projected);
    }

    private static PlainSelect parse(String sql) {
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(sql);
        } catch (JSQLParserException e) {
            throw unsupported();
        }
        if (!(statement instanceof Select select) || !(select.getSelectBody() instanceof PlainSelect plain)
                || !(plain.getFromItem() instanceof Table) || plain.getJoins() != null || plain.getGroupBy() != null
                || plain.getHaving() != null || plain.getDistinct() != null) {
            throw unsupported();
        }
        return plain;
    }

    private static Comparator<List<Object>> order(List<OrderByElement> elements) {
        Comparator<List<Object>> order = null;
        for (OrderByElement element : elements) {
            if (!(element.getExpression() instanceof Column column)) {
                throw unsupported();
            }
            int index = column(column);
            Comparator<List<Object>> by = (a, b) -> compare(a.get(index), b.get(index));
            by = element.isAsc() ? by : by.reversed();
            order = order == null ? by : order.thenComparing(by);
        }
        return order;
    }

    private static int column(Column column) {
        for (int i = 0; i < COLUMNS.size(); i++) {
            if (COLUMNS.get(i).equalsIgnoreCase(column.getColumnName())) {
                return i;
            }
        }
        throw new io.strata.protocol.MySQLException(new io.strata.protocol.ErrPacket(1054, "42S22",
                "Unknown column '" + column.getColumnName() + "' in 'field list'"));
    }

    /** An expression's value for a row: Long, String, Boolean or null (SQL's NULL and unknown). */
    private static Object value(Expression expression, List<Object> row) {
        return switch (expression) {
            case Column column -> row.get(column(column));
            case LongValue number -> number.getValue();
            case StringValue string -> string.getValue();
            case NullValue ignored -> null;
            case SignedExpression signed when signed.getSign() == '-'
                    && signed.getExpression() instanceof LongValue number -> -number.getValue();
            case Parenthesis parenthesis -> value(parenthesis.getExpression(), row);
            case ExpressionList<?> list when list.size() == 1 -> value(list.get(0), row);
            case AndExpression and -> and(value(and.getLeftExpression(), row), value(and.getRightExpression(), row));
            case OrExpression or -> or(value(or.getLeftExpression(), row), value(or.getRightExpression(), row));
            case NotExpression not -> value(not.getExpression(), row) instanceof Boolean b ? !b : null;
            case IsNullExpression isNull -> (value(isNull.getLeftExpression(), row) == null) != isNull.isNot();
            case LikeExpression like -> like(like, row);
            case InExpression in -> in(in, row);
            case ComparisonOperator comparison -> comparison(comparison, row);
            default -> throw unsupported();
        };
    }

    private static Object and(Object left, Object right) {
        if (Boolean.FALSE.equals(left) || Boolean.FALSE.equals(right)) {
            return false;
        }
        return left == null || right == null ? null : true;
    }

    private static Object or(Object left, Object right) {
        if (Boolean.TRUE.equals(left) || Boolean.TRUE.equals(right)) {
            return true;
        }
        return left == null || right == null ? null : false;
    }

    private static Object like(LikeExpression like, List<Object> row) {
        Object left = value(like.getLeftExpression(), row);
        Object pattern = value(like.getRightExpression(), row);
        if (left == null || pattern == null) {
            return null;
        }
        boolean matches = LocalQueries.likePattern("'" + pattern.toString().replace("'", "''") + "'")
                .matcher(left.toString()).matches();
        return matches != like.isNot();
    }

    private static Object in(InExpression in, List<Object> row) {
        Object left = value(in.getLeftExpression(), row);
        if (left == null || !(in.getRightExpression() instanceof ExpressionList<?> list)) {
            return left == null ? null : unsupportedValue();
        }
        boolean found = false;
        for (Expression item : list) {
            Object value = value(item, row);
            found |= value != null && compare(left, value) == 0;
        }
        return found != in.isNot();
    }

    private static Object comparison(ComparisonOperator comparison, List<Object> row) {
        Object left = value(comparison.getLeftExpression(), row);
        Object right = value(comparison.getRightExpression(), row);
        if (left == null || right == null) {
            return null;
        }
        int c = compare(left, right);
        return switch (comparison.getStringExpression()) {
            case "=" -> c == 0;
            case "!=", "<>" -> c != 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            case ">=" -> c >= 0;
            default -> unsupportedValue();
        };
    }

    /** Numbers as numbers (a string that reads as one too, as MySQL converts), text case-blind (its collation). */
    private static int compare(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Long || b instanceof Long) {
            Long x = number(a);
            Long y = number(b);
            if (x != null && y != null) {
                return Long.compare(x, y);
            }
        }
        return a.toString().compareToIgnoreCase(b.toString());
    }

    private static Long number(Object value) {
        if (value instanceof Long number) {
            return number;
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Object unsupportedValue() {
        throw unsupported();
    }

    private static RuntimeException unsupported() {
        return ErrorCode.UNSUPPORTED.exception("this SELECT of information_schema.PROCESSLIST (Strata answers "
                + "SELECT columns or * with WHERE comparisons, LIKE, IN, IS NULL, AND, OR, NOT, ORDER BY and LIMIT)");
    }
}
