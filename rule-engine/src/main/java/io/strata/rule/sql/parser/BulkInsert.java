package io.strata.rule.sql.parser;

import io.strata.rule.sql.lexer.MySqlLexer;
import io.strata.rule.sql.lexer.TokenKind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * An INSERT or REPLACE ... VALUES cut at its rows without the parser. Bulk loads (mysqldump's extended INSERTs, a
 * driver's rewritten batch, one row with a large document) run far past the text the parser reads in bounded time
 * ({@link ParserLimits}), and all a sharding rule needs of their rows is a value or two each. The text is its head
 * (up to VALUES), its rows as written and its tail (ON DUPLICATE KEY UPDATE ...); {@link #shape()} is the same
 * statement with one row of {@code ?}, short enough to parse, which tells the table, the columns and what the
 * statement does. Rows are cut at their brackets by MySQL's tokens, so strings and comments holding brackets or
 * commas are read as the server reads them.
 */
public final class BulkInsert {

    /** A row: its brackets at {@code start} and {@code end - 1}, its cells separated at {@code commas}. */
    private record Row(int start, int end, int[] commas) {
    }

    private final String sql;
    private final int headEnd;
    private final int columnsEnd;
    private final List<Row> rows;
    private final int tailStart;

    private BulkInsert(String sql, int headEnd, int columnsEnd, List<Row> rows, int tailStart) {
        this.sql = sql;
        this.headEnd = headEnd;
        this.columnsEnd = columnsEnd;
        this.rows = rows;
        this.tailStart = tailStart;
    }

    /**
     * The statement cut at its rows, or null when it is not an INSERT or REPLACE whose VALUES are bracketed rows
     * (INSERT ... SET, INSERT ... SELECT, VALUES ROW(...)) or a row holds a subquery. One pass over the tokens,
     * none kept: a bulk INSERT holds millions.
     */
    public static BulkInsert cut(String sql) {
        MySqlLexer tokens = new MySqlLexer(sql);
        if (!tokens.next() || !tokens.isWord("INSERT") && !tokens.isWord("REPLACE")) {
            return null;
        }
        int depth = 0;
        int columnsEnd = -1;
        int closed = -1; // the start of the last ) read
        while (true) {
            if (!tokens.next()) {
                return null;
            }
            if (tokens.isSymbol('(')) {
                depth++;
            } else if (tokens.isSymbol(')')) {
                depth--;
                closed = tokens.start();
                continue;
            } else if (depth == 0 && (tokens.isWord("VALUES") || tokens.isWord("VALUE"))) {
                columnsEnd = closed;
                break;
            } else if (depth == 0 && (tokens.isWord("SELECT") || tokens.isWord("SET"))) {
                return null;
            }
            closed = -1;
        }
        int headEnd = tokens.end();
        List<Row> rows = new ArrayList<>();
        if (!tokens.next() || !tokens.isSymbol('(')) {
            return null;
        }
        while (true) {
            if (!row(tokens, rows)) {
                return null;
            }
            if (!tokens.next()) {
                return new BulkInsert(sql, headEnd, columnsEnd, rows, sql.length());
            }
            if (!tokens.isSymbol(',')) {
                return new BulkInsert(sql, headEnd, columnsEnd, rows, tokens.start());
            }
            if (!tokens.next() || !tokens.isSymbol('(')) {
                return null;
            }
        }
    }

    /**
     * Reads the row whose {@code (} the cursor is at, up to its {@code )}; false when it does not close or holds a
     * subquery.
     */
    private static boolean row(MySqlLexer tokens, List<Row> rows) {
        int open = tokens.start();
        int depth = 1;
        int[] commas = new int[4];
        int count = 0;
        while (tokens.next()) {
            if (tokens.isSymbol('(')) {
                depth++;
            } else if (tokens.isSymbol(')') && --depth == 0) {
                rows.add(new Row(open, tokens.end(), Arrays.copyOf(commas, count)));
                return true;
            } else if (tokens.isWord("SELECT")) {
                return false; // a subquery: its tables are the parser's to read
            } else if (depth == 1 && tokens.isSymbol(',')) {
                if (count == commas.length) {
                    commas = Arrays.copyOf(commas, count * 2);
                }
                commas[count++] = tokens.start();
            }
        }
        return false;
    }

    /** The statement with one row of {@code ?}, as wide as its first row: what the parser reads of it. */
    public String shape() {
        int width = width(0);
        StringBuilder shape = new StringBuilder(headEnd + 3 * width + sql.length() - tailStart + 2);
        shape.append(sql, 0, headEnd).append(" (");
        for (int i = 0; i < width; i++) {
            shape.append(i == 0 ? "?" : ", ?");
        }
        shape.append(") ").append(sql, tailStart, sql.length());
        return shape.toString();
    }

    public int rows() {
        return rows.size();
    }

    /** How many values row {@code row} (from 0) holds. */
    public int width(int row) {
        return rows.get(row).commas().length + 1;
    }

    /**
     * The value of cell {@code cell} of row {@code row} (both from 0): a number or string literal (signed numbers
     * too) or NULL as {@link Value.Known}, anything else as {@link Value.Unreadable}.
     */
    public Value value(int row, int cell) {
        Row r = rows.get(row);
        int start = cell == 0 ? r.start() + 1 : r.commas()[cell - 1] + 1;
        int end = cell == r.commas().length ? r.end() - 1 : r.commas()[cell];
        while (start < end && Character.isWhitespace(sql.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(sql.charAt(end - 1))) {
            end--;
        }
        Object value = plainNumber(start, end);
        if (value == UNREADABLE) {
            value = literal(SqlTokens.of(sql.substring(start, end)));
        }
        return value == UNREADABLE ? new Value.Unreadable(sql.substring(start, end)) : new Value.Known(value);
    }

    /** A whole number written as digits alone (optionally signed), read without lexing: most bulk keys are. */
    private Object plainNumber(int start, int end) {
        int from = start < end && (sql.charAt(start) == '-' || sql.charAt(start) == '+') ? start + 1 : start;
        if (from == end || end - from > 18) {
            return UNREADABLE;
        }
        long n = 0;
        for (int i = from; i < end; i++) {
            char c = sql.charAt(i);
            if (c < '0' || c > '9') {
                return UNREADABLE;
            }
            n = n * 10 + (c - '0');
        }
        return sql.charAt(start) == '-' ? -n : n;
    }

    private static final Object UNREADABLE = new Object();

    private static Object literal(SqlTokens tokens) {
        String text = tokens.sql();
        if (tokens.size() == 1 && tokens.get(0).kind() == TokenKind.STRING) {
            return StatementValues.unescape(text.substring(1, text.length() - 1));
        }
        if (tokens.size() == 1 && tokens.isWord(0, "NULL")) {
            return null;
        }
        boolean negative = tokens.isSymbol(0, '-');
        int from = negative || tokens.isSymbol(0, '+') ? 1 : 0;
        if (tokens.size() - from == 1 && tokens.isDigits(from)) {
            BigInteger n = new BigInteger(tokens.text(from));
            return NormalizedStatement.wholeNumber(negative ? n.negate() : n);
        }
        if (tokens.size() - from == 1 && NormalizedStatement.isDecimal(tokens, from)) {
            BigDecimal d = new BigDecimal(tokens.text(from));
            return negative ? d.negate() : d;
        }
        return UNREADABLE;
    }

    /**
     * The statement with only the given rows, as written. With a {@code keyColumn}, that column is added to the
     * column list and each row gets its key from {@code keys} (indexed by row) as a literal. {@code rename} rewrites
     * the head and the tail (a rule's table names); the rows are kept as the client wrote them, since a row of
     * values names no table (one naming a column by its table's name then fails on the server, as unknown).
     *
     * @throws IllegalStateException when a key column is to be added but the statement names no columns
     */
    public String withRows(List<Integer> kept, String keyColumn, List<Object> keys, UnaryOperator<String> rename) {
        String head;
        if (keyColumn == null) {
            head = sql.substring(0, headEnd);
        } else {
            if (columnsEnd < 0) {
                throw new IllegalStateException("no column list to add " + keyColumn + " to");
            }
            head = sql.substring(0, columnsEnd) + ", `" + keyColumn.replace("`", "``") + '`'
                    + sql.substring(columnsEnd, headEnd);
        }
        StringBuilder text = new StringBuilder(sql.length()).append(rename.apply(head)).append(' ');
        for (int i = 0; i < kept.size(); i++) {
            Row row = rows.get(kept.get(i));
            if (i > 0) {
                text.append(',');
            }
            if (keyColumn == null) {
                text.append(sql, row.start(), row.end());
            } else {
                text.append(sql, row.start(), row.end() - 1).append(", ")
                        .append(ParameterInliner.literal(keys.get(kept.get(i)))).append(')');
            }
        }
        return text.append(' ').append(rename.apply(sql.substring(tailStart))).toString();
    }
}
