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
