package io.strata.rule.sql.parser;

import io.strata.rule.sql.lexer.TokenKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Rewrites a statement so that what would show the backend's schema as the session's current database shows the
 * logical database instead, where the two differ (logical {@code shop} on backend schema {@code shop_0}):
 * <ul>
 *   <li>{@code DATABASE()} and {@code SCHEMA()} in a select list become the logical name, the item keeping the
 *       label it had ({@code SELECT DATABASE(), 1} still heads its column {@code DATABASE()}); elsewhere (a WHERE
 *       filtering information_schema on it) they keep the backend's meaning, which is what the filter needs;</li>
 *   <li>a select list's bare schema column of information_schema ({@code table_schema}, {@code schema_name}, ...)
 *       shows the logical name on the current schema's rows;</li>
 *   <li>{@code SHOW [FULL] TABLES [LIKE ... | WHERE ...]} is asked of information_schema under the heading
 *       {@code Tables_in_<logical>}.</li>
 * </ul>
 * Worked on tokens, so the rest of the text stays as the client wrote it. Not rewritten: {@code SELECT *} of
 * information_schema, and a WHERE that names the logical database as a string.
 */
public final class CurrentDatabase {

    /** information_schema's columns that name a schema. */
    private static final Set<String> SCHEMA_COLUMNS = Set.of("table_schema", "schema_name", "constraint_schema",
            "referenced_table_schema", "unique_constraint_schema", "index_schema", "trigger_schema",
            "event_object_schema", "routine_schema", "event_schema", "default_collation_schema");
    /** The clauses whose brackets hold rows the client sees (a derived table, a select item, a CTE, a UNION part). */
    private static final Set<String> SHOWING_CLAUSES = Set.of("", "SELECT", "FROM", "JOIN", "UNION", "AS", "WITH");
    /** Words that begin a clause, as far as telling shown rows from filters needs. */
    private static final Set<String> CLAUSES = Set.of("SELECT", "FROM", "JOIN", "UNION", "AS", "WITH", "WHERE", "ON",
            "HAVING", "IN", "EXISTS", "GROUP", "ORDER", "LIMIT", "SET", "VALUES", "USING", "ANY", "ALL", "SOME");
    /** Words that end a select list at its own depth. */
    private static final Set<String> LIST_ENDS = Set.of("FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
            "INTO", "UNION", "EXCEPT", "INTERSECT", "WINDOW", "FOR", "LOCK", "PROCEDURE");

    private record Edit(int start, int end, String text) {
    }

    private CurrentDatabase() {
    }

    /**
     * Whether the text may hold something to rewrite: a test before the tokens are read, one pass over the characters
     * that looks further only at a b (DATABASE, TABLES) or an m (SCHEMA, information_schema).
     */
    public static boolean mayShow(String sql) {
        for (int i = 2, n = sql.length(); i < n; i++) {
            int c = sql.charAt(i) | 0x20;
            if (c == 'b' && (i >= 4 && sql.regionMatches(true, i - 4, "database", 0, 8)
                    || sql.regionMatches(true, i - 2, "tables", 0, 6))
                    || c == 'm' && i >= 4 && sql.regionMatches(true, i - 4, "schema", 0, 6)) {
                return true;
            }
        }
        return false;
    }

    /** The text with the logical name shown where the backend's would be; {@code sql} itself when nothing is. */
    public static String rewrite(String sql, String logical) {
        SqlTokens tokens = SqlTokens.of(sql);
        String shown = showTables(tokens, logical);
        if (shown != null) {
            return shown;
        }
        boolean informationSchema = false;
        for (int i = 0; i < tokens.size() && !informationSchema; i++) {
            informationSchema = tokens.isName(i) && SqlTokens.unquote(tokens.text(i))
                    .equalsIgnoreCase("information_schema") && tokens.isSymbol(i + 1, '.');
        }
        List<Edit> edits = new ArrayList<>();
        List<int[]> items = new ArrayList<>();
        for (int select : shownSelects(tokens)) {
            selectList(tokens, select + 1, logical, informationSchema, edits, items);
        }
        if (edits.isEmpty()) {
            return sql;
        }
        for (int[] item : items) { // an item that changed keeps its label: the text the client wrote
            int start = tokens.get(item[0]).start();
            int end = tokens.get(item[1] - 1).end();
            boolean changed = edits.stream().anyMatch(e -> e.start() >= start && e.end() <= end);
            boolean aliased = !tokens.isSymbol(item[1] - 1, ')') && item[1] - item[0] > 1;
            if (changed && !aliased && schemaColumn(tokens, item[0], item[1]) < 0) {
                edits.add(new Edit(end, end, " AS `" + sql.substring(start, end).replace("`", "``") + "`"));
            }
        }
        edits.sort(java.util.Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
        StringBuilder out = new StringBuilder(sql.length() + 32 * edits.size());
        int at = 0;
        for (Edit edit : edits) {
            out.append(sql, at, edit.start()).append(edit.text());
            at = edit.end();
        }
        return out.append(sql.substring(at)).toString();
    }

    /**
     * The SELECT tokens whose select lists reach the client: the statement's own, its UNION parts, derived tables,
     * CTEs and subqueries inside a select list; not those of a WHERE, ON, HAVING or IN, which filter (there the
     * backend's schema is what the filter means).
     */
    private static List<Integer> shownSelects(SqlTokens tokens) {
        List<Integer> selects = new ArrayList<>();
        java.util.ArrayDeque<Boolean> shown = new java.util.ArrayDeque<>();
        java.util.ArrayDeque<String> clause = new java.util.ArrayDeque<>();
        shown.push(true);
        clause.push("");
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.isSymbol(i, '(')) {
                shown.push(shown.peek() && SHOWING_CLAUSES.contains(clause.peek()));
                clause.push("");
            } else if (tokens.isSymbol(i, ')') && shown.size() > 1) {
                shown.pop();
                clause.pop();
            } else if (tokens.get(i).kind() == TokenKind.WORD) {
                String word = tokens.text(i).toUpperCase(Locale.ROOT);
                if (CLAUSES.contains(word)) {
                    clause.pop();
                    clause.push(word);
                }
                if (word.equals("SELECT") && shown.peek()) {
                    selects.add(i);
                }
            }
        }
        return selects;
    }

    /** The items of the select list that starts at token {@code from}, each rewritten where it shows a schema. */
    private static void selectList(SqlTokens tokens, int from, String logical, boolean informationSchema,
                                   List<Edit> edits, List<int[]> items) {
        int depth = 0;
        int itemStart = from;
        for (int i = from; i <= tokens.size(); i++) {
            boolean end = i == tokens.size() || depth == 0 && (tokens.isSymbol(i, ')') || tokens.isSymbol(i, ';')
                    || tokens.get(i).kind() == TokenKind.WORD
                    && LIST_ENDS.contains(tokens.text(i).toUpperCase(Locale.ROOT)));
            if (end || depth == 0 && tokens.isSymbol(i, ',')) {
                if (itemStart < i) {
                    items.add(new int[] {itemStart, i});
                    item(tokens, itemStart, i, logical, informationSchema, edits);
                }
                if (end) {
                    return;
                }
                itemStart = i + 1;
            } else if (tokens.isSymbol(i, '(')) {
                depth++;
            } else if (tokens.isSymbol(i, ')')) {
                depth--;
            }
        }
    }

    /** One select item, tokens {@code [from, to)}: its own calls, not those of a SELECT inside it. */
    private static void item(SqlTokens tokens, int from, int to, String logical, boolean informationSchema,
                             List<Edit> edits) {
        String sql = tokens.sql();
        int column = schemaColumn(tokens, from, to);
        if (informationSchema && column >= 0) {
            String name = sql.substring(tokens.get(from).start(), tokens.get(column).end());
            String label = column == to - 1 ? " AS `" + SqlTokens.unquote(tokens.text(column)).replace("`", "``")
                    + "`" : "";
            edits.add(new Edit(tokens.get(from).start(), tokens.get(column).end(), "IF(" + name + " = DATABASE(), "
                    + quoted(logical) + ", " + name + ")" + label));
            return;
        }
        for (int i = from; i + 2 < to; i++) {
            if (tokens.isSymbol(i, '(') && tokens.isWord(i + 1, "SELECT")) {
                i = closing(tokens, i); // read as a select list of its own
            } else if ((tokens.isWord(i, "DATABASE") || tokens.isWord(i, "SCHEMA")) && tokens.isSymbol(i + 1, '(')
                    && tokens.isSymbol(i + 2, ')') && !tokens.isSymbol(i - 1, '.')) {
                edits.add(new Edit(tokens.get(i).start(), tokens.get(i + 2).end(), quoted(logical)));
            }
        }
    }

    /** The index of the bracket closing the one at {@code open}. */
    private static int closing(SqlTokens tokens, int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            if (tokens.isSymbol(i, '(')) {
                depth++;
            } else if (tokens.isSymbol(i, ')') && --depth == 0) {
                return i;
            }
        }
        return tokens.size();
    }

    /**
     * The token of the schema column an item is ({@code table_schema}, {@code t.table_schema}, possibly aliased),
     * or -1.
     */
    private static int schemaColumn(SqlTokens tokens, int from, int to) {
        int last = from;
        while (last + 2 < to && tokens.isSymbol(last + 1, '.') && tokens.isName(last + 2)) {
            last += 2;
        }
        boolean alone = last + 1 == to || last + 2 == to && tokens.isName(last + 1)
                || last + 3 == to && tokens.isWord(last + 1, "AS") && tokens.isName(last + 2);
        return tokens.isName(last) && alone
                && SCHEMA_COLUMNS.contains(SqlTokens.unquote(tokens.text(last)).toLowerCase(Locale.ROOT)) ? last : -1;
    }

    /**
     * {@code SHOW [FULL] TABLES [LIKE 'p' | WHERE ...]} as a query of information_schema headed as the server
     * heads it for the logical database; null for another statement (or {@code FROM db}, left to the backend).
     */
    private static String showTables(SqlTokens tokens, String logical) {
        boolean full = tokens.isWord(1, "FULL");
        int next = full ? 3 : 2;
        if (!tokens.isWord(0, "SHOW") || !tokens.isWord(next - 1, "TABLES")
                || tokens.isWord(next, "FROM") || tokens.isWord(next, "IN")) {
            return null;
        }
        String sql = tokens.sql();
        String heading = "Tables_in_" + logical;
        String filter = "";
        String outer = "";
        if (tokens.isWord(next, "LIKE") && next + 1 < tokens.size()
                && tokens.get(next + 1).kind() == TokenKind.STRING) {
            String pattern = tokens.text(next + 1);
            heading += " (" + StatementValues.unescape(pattern.substring(1, pattern.length() - 1)) + ")";
            filter = " AND table_name LIKE " + pattern;
            if (next + 2 < tokens.size() && !tokens.isSymbol(next + 2, ';')) {
                return null;
            }
        } else if (tokens.isWord(next, "WHERE")) {
            outer = " WHERE " + sql.substring(tokens.get(next + 1).start());
        } else if (next < tokens.size() && !tokens.isSymbol(next, ';')) {
            return null;
        }
        return "SELECT * FROM (SELECT table_name AS `" + heading.replace("`", "``") + "`"
                + (full ? ", table_type AS `Table_type`" : "") + " FROM information_schema.tables"
                + " WHERE table_schema = DATABASE()" + filter + ") AS strata_tables" + outer + " ORDER BY 1";
    }

    private static String quoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
