package io.strata.rule.sql.parser;

/**
 * Rewrites the MySQL forms JSqlParser cannot read into equivalents it can, for the parser's eyes only: the server
 * always gets the statement as the client sent it.
 *
 * <ul>
 *   <li>Index hints ({@code USE|FORCE|IGNORE INDEX|KEY [FOR JOIN|ORDER BY|GROUP BY] (...)}) are blanked out. The
 *       library reads one hint per table, without FOR and with INDEX only, and routing never needs them.</li>
 *   <li>{@code LOCK IN SHARE MODE} becomes {@code FOR SHARE}, which MySQL documents as its equivalent.</li>
 *   <li>{@code DELETE FROM t1, t2 USING <tables>} becomes {@code DELETE t1, t2 FROM <tables>}, the other MySQL
 *       spelling of the same statement. The library rejects joins after USING and reads the targets of a comma list
 *       as a join, so only one multi-table form reaches the tree. A target's {@code .*} suffix is blanked.</li>
 *   <li>{@code REPLACE LOW_PRIORITY|DELAYED}: the modifier is blanked (the library has no REPLACE modifiers).</li>
 * </ul>
 *
 * <p>Every other character stays where it was, so the positions in a parse error point into the client's text.
 */
final class MySqlForms {

    private MySqlForms() {
    }

    /** The text to parse: the original instance when it holds none of these forms. */
    static String rewrite(SqlTokens tokens) {
        Edits edits = new Edits(tokens.sql());
        if (tokens.isWord(0, "DELETE")) {
            multiTableDelete(tokens, edits);
        } else if (tokens.isWord(0, "REPLACE")
                && (tokens.isWord(1, "LOW_PRIORITY") || tokens.isWord(1, "DELAYED"))) {
            edits.blank(tokens.get(1).start(), tokens.get(1).end());
        }
        for (int i = 0; i < tokens.size(); i++) {
            int hintEnd = indexHintEnd(tokens, i);
            if (hintEnd > i) {
                edits.blank(tokens.get(i).start(), tokens.get(hintEnd).end());
                i = hintEnd;
            } else if (tokens.isWord(i, "LOCK") && tokens.isWord(i + 1, "IN") && tokens.isWord(i + 2, "SHARE")
                    && tokens.isWord(i + 3, "MODE")) {
                edits.replace(tokens.get(i).start(), tokens.get(i + 3).end(), "FOR SHARE");
                i += 3;
            }
        }
        return edits.result();
    }

    /**
     * The index of the closing bracket of an index hint starting at {@code i}, or -1. The bracket is required, so
     * {@code USE index} (a database named index) and {@code INSERT IGNORE INTO} are left alone.
     */
    private static int indexHintEnd(SqlTokens tokens, int i) {
        boolean action = tokens.isWord(i, "USE") || tokens.isWord(i, "FORCE") || tokens.isWord(i, "IGNORE");
        if (!action || !(tokens.isWord(i + 1, "INDEX") || tokens.isWord(i + 1, "KEY"))) {
            return -1;
        }
        int j = i + 2;
        if (tokens.isWord(j, "FOR")) {
            boolean orderOrGroup = tokens.isWord(j + 1, "ORDER") || tokens.isWord(j + 1, "GROUP");
            j += tokens.isWord(j + 1, "JOIN") ? 2 : orderOrGroup && tokens.isWord(j + 2, "BY") ? 3 : 0;
        }
        if (!tokens.isSymbol(j, '(')) {
            return -1;
        }
        for (int k = j + 1; k < tokens.size(); k++) {
            if (tokens.isSymbol(k, ')')) {
                return k;
            }
        }
        return -1;
    }

    /** {@code DELETE [modifiers] targets FROM ...} and {@code DELETE [modifiers] FROM targets USING ...}. */
    private static void multiTableDelete(SqlTokens tokens, Edits edits) {
        int i = 1;
        while (tokens.isWord(i, "LOW_PRIORITY") || tokens.isWord(i, "QUICK") || tokens.isWord(i, "IGNORE")) {
            i++;
        }
        boolean usingForm = tokens.isWord(i, "FROM");
        int first = usingForm ? i + 1 : i;
        int end = targetListEnd(tokens, first);
        boolean multiTable = usingForm
                ? tokens.isWord(end, "USING") && !tokens.isSymbol(end + 1, '(')
                : tokens.isWord(end, "FROM");
        if (!multiTable) {
            return;
        }
        for (int k = first; k < end; k++) {
            if (tokens.isSymbol(k, '.') && tokens.isSymbol(k + 1, '*')) {
                edits.blank(tokens.get(k).start(), tokens.get(k + 1).end());
            }
        }
        if (usingForm) {
            edits.blank(tokens.get(i).start(), tokens.get(i).end());
            edits.replace(tokens.get(end).start(), tokens.get(end).end(), "FROM");
        }
    }

    /** The index after a list {@code name[.name][.*] [, ...]} starting at {@code i}, or -1 when there is none. */
    private static int targetListEnd(SqlTokens tokens, int i) {
        while (tokens.isName(i)) {
            i++;
            while (tokens.isSymbol(i, '.') && (tokens.isName(i + 1) || tokens.isSymbol(i + 1, '*'))) {
                i += 2;
            }
            if (!tokens.isSymbol(i, ',')) {
                return i;
            }
            i++;
        }
        return -1;
    }

    /** Character edits on a copy of the text, made on the first change; unchanged text keeps its instance. */
    private static final class Edits {

        private final String sql;
        private char[] chars;

        Edits(String sql) {
            this.sql = sql;
        }

        void blank(int start, int end) {
            replace(start, end, "");
        }

        /** Writes {@code with} at {@code start} and spaces up to {@code end}; {@code with} fits in the range. */
        void replace(int start, int end, String with) {
            if (chars == null) {
                chars = sql.toCharArray();
            }
            for (int i = start; i < end; i++) {
                int k = i - start;
                chars[i] = k < with.length() ? with.charAt(k) : ' ';
            }
        }

        String result() {
            return chars == null ? sql : new String(chars);
        }
    }
}
