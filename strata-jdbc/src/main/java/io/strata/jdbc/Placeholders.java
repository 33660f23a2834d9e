package io.strata.jdbc;

import io.strata.rule.sql.lexer.MySqlLexer;
import io.strata.rule.sql.lexer.TokenKind;

/** The {@code ?} placeholders of a statement, counted by the lexer the rules read SQL with (not those in strings). */
final class Placeholders {

    private Placeholders() {
    }

    static int count(String sql) {
        if (sql.indexOf('?') < 0) {
            return 0;
        }
        Integer known = COUNTS.get(sql);
        if (known != null) {
            return known;
        }
        int count = lexed(sql);
        if (COUNTS.size() >= MAX_CACHED) {
            COUNTS.clear(); // a bound, not an LRU: an application prepares few distinct statements
        }
        COUNTS.put(sql, count);
        return count;
    }

    /** Counts per statement text: an application prepares the same few statements again and again. */
    private static final java.util.concurrent.ConcurrentHashMap<String, Integer> COUNTS =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_CACHED = 4096;

    private static int lexed(String sql) {
        MySqlLexer lexer = new MySqlLexer(sql).runExecutableComments();
        int count = 0;
        while (lexer.next()) {
            if (lexer.kind() == TokenKind.PLACEHOLDER) {
                count++;
            }
        }
        return count;
    }
}
