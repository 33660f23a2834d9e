package io.strata.rule.sql.parser;

import io.strata.rule.sql.lexer.TokenKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The index names a statement writes, and the table each belongs to, as ShardingSphere renames them per actual table:
 * an index {@code order_index} of logical table {@code t_order} is {@code order_index_t_order_0} on actual table
 * {@code t_order_0}. Read from tokens: the name after INDEX or KEY in CREATE INDEX, DROP INDEX, ALTER TABLE's ADD,
 * DROP, RENAME and ALTER INDEX, and a CREATE TABLE's index definitions; and the names in an index hint's brackets
 * ({@code FORCE | USE | IGNORE INDEX | KEY [FOR ...] (a, b)}), which belong to the table named before the hint.
 * PRIMARY is never renamed, nor a foreign key's name.
 */
final class IndexNames {

    /**
     * One index name in the text.
     *
     * @param token the index name's token
     * @param table the token of the table it belongs to (a hint's), or -1 for the statement's one table (DDL)
     */
    record Found(int token, int table) {
    }

    private static final Set<String> HINTS = Set.of("USE", "FORCE", "IGNORE");
    private static final Set<String> NOT_NAMES = Set.of("PRIMARY", "IF", "ON", "USING", "FOR", "TO");

    private IndexNames() {
    }

    /**
     * Whether the text may hold an index name (the word INDEX or KEY, any case): a test before the tokens are read,
     * one pass over the characters looking at the rare x and y, as every sharded statement's renaming asks it.
     */
    static boolean mayHold(String sql) {
        for (int i = 2, n = sql.length(); i < n; i++) {
            int c = sql.charAt(i) | 0x20;
            if (c == 'y' && (sql.charAt(i - 1) | 0x20) == 'e' && (sql.charAt(i - 2) | 0x20) == 'k'
                    || c == 'x' && i >= 4 && sql.regionMatches(true, i - 4, "index", 0, 5)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a token of the statement is the word INDEX or KEY. */
    static boolean named(SqlTokens tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.isWord(i, "INDEX") || tokens.isWord(i, "KEY")) {
                return true;
            }
        }
        return false;
    }

    /** The index names of {@code tokens}; {@code tables} tells which names are tables a hint may follow. */
    static List<Found> of(SqlTokens tokens, Map<String, String> tables) {
        List<Found> found = new ArrayList<>();
        boolean ddl = tokens.isWord(0, "CREATE") || tokens.isWord(0, "ALTER") || tokens.isWord(0, "DROP");
        for (int i = 0; i < tokens.size(); i++) {
            if (!tokens.isWord(i, "INDEX") && !tokens.isWord(i, "KEY")) {
                continue;
            }
            if (HINTS.contains(word(tokens, i - 1))) {
                hint(tokens, i, tables, found);
            } else if (ddl && !tokens.isWord(i - 1, "PRIMARY") && !tokens.isWord(i - 1, "FOREIGN")
                    && !tokens.isWord(i - 1, "DUPLICATE") && isIndexName(tokens, i + 1)) {
                found.add(new Found(i + 1, -1));
                if (tokens.isWord(i - 1, "RENAME") && tokens.isWord(i + 2, "TO") && isIndexName(tokens, i + 3)) {
                    found.add(new Found(i + 3, -1));
                }
            }
        }
        return found;
    }

    /** The names in the brackets of the hint whose INDEX or KEY is at {@code at}. */
    private static void hint(SqlTokens tokens, int at, Map<String, String> tables, List<Found> found) {
        int table = -1;
        for (int i = at - 2; i >= 0 && table < 0; i--) {
            if (tokens.isName(i) && tables.containsKey(SqlTokens.unquote(tokens.text(i)).toLowerCase(Locale.ROOT))) {
                table = i;
            }
        }
        int open = at + 1;
        while (open < tokens.size() && !tokens.isSymbol(open, '(')) {
            open++; // FOR JOIN, FOR ORDER BY, FOR GROUP BY
        }
        for (int i = open + 1; i < tokens.size() && !tokens.isSymbol(i, ')') && table >= 0; i++) {
            if (isIndexName(tokens, i)) {
                found.add(new Found(i, table));
            }
        }
    }

    private static boolean isIndexName(SqlTokens tokens, int i) {
        return tokens.isName(i) && !NOT_NAMES.contains(word(tokens, i));
    }

    private static String word(SqlTokens tokens, int i) {
        return i >= 0 && i < tokens.size() && tokens.get(i).kind() == TokenKind.WORD
                ? tokens.text(i).toUpperCase(Locale.ROOT) : "";
    }
}
