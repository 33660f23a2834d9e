package io.strata.rule.sql.parser;

import io.strata.rule.sql.lexer.MySqlLexer;
import io.strata.rule.sql.lexer.TokenKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The tokens of a statement's text with their offsets, as {@link MySqlLexer} cuts them: enough to find keywords,
 * names and brackets outside strings and comments, which is all the work around the parser needs (the nesting bound,
 * LOAD DATA, the rewrites of {@link MySqlForms}). Comments are dropped, executable ones ({@code /*!...*}{@code /})
 * included, since JSqlParser drops them too; what it parses is what these tokens describe.
 */
final class SqlTokens {

    /** One token: {@code sql.substring(start, end)}. */
    record Token(TokenKind kind, int start, int end) {
    }

    private final String sql;
    private final List<Token> tokens;

    private SqlTokens(String sql, List<Token> tokens) {
        this.sql = sql;
        this.tokens = tokens;
    }

    static SqlTokens of(String sql) {
        return head(sql, Integer.MAX_VALUE);
    }

    /** The first {@code count} tokens only: the leading keywords of a text too long to read whole. */
    static SqlTokens head(String sql, int count) {
        List<Token> tokens = new ArrayList<>();
        MySqlLexer lexer = new MySqlLexer(sql);
        while (tokens.size() < count && lexer.next()) {
            tokens.add(new Token(lexer.kind(), lexer.start(), lexer.end()));
        }
        return new SqlTokens(sql, tokens);
    }

    String sql() {
        return sql;
    }

    int size() {
        return tokens.size();
    }

    Token get(int index) {
        return tokens.get(index);
    }

    String text(int index) {
        Token token = tokens.get(index);
        return sql.substring(token.start(), token.end());
    }

    /** Whether the token at {@code index} is the keyword {@code word} (any case); false past the end. */
    boolean isWord(int index, String word) {
        if (index < 0 || index >= tokens.size()) {
            return false;
        }
        Token token = tokens.get(index);
        return token.kind() == TokenKind.WORD && token.end() - token.start() == word.length()
                && sql.regionMatches(true, token.start(), word, 0, word.length());
    }

    boolean isSymbol(int index, char symbol) {
        return index >= 0 && index < tokens.size() && tokens.get(index).kind() == TokenKind.SYMBOL
                && sql.charAt(tokens.get(index).start()) == symbol;
    }

    /** Whether the token at {@code index} is a prepared statement's {@code ?}; false past the end. */
    boolean isPlaceholder(int index) {
        return index >= 0 && index < tokens.size() && tokens.get(index).kind() == TokenKind.PLACEHOLDER;
    }

    /** Whether the token at {@code index} is a number written as digits alone; false past the end. */
    boolean isDigits(int index) {
        return index >= 0 && index < tokens.size() && tokens.get(index).kind() == TokenKind.NUMBER
                && NormalizedStatement.isDigits(text(index));
    }

    /** Whether the token at {@code index} can be (part of) a table name: a word or a backquoted name. */
    boolean isName(int index) {
        if (index < 0 || index >= tokens.size()) {
            return false;
        }
        TokenKind kind = tokens.get(index).kind();
        return kind == TokenKind.WORD || kind == TokenKind.QUOTED_NAME;
    }

    /** The deepest nesting of round brackets. */
    int maxDepth() {
        int depth = 0;
        int max = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (isSymbol(i, '(')) {
                max = Math.max(max, ++depth);
            } else if (isSymbol(i, ')')) {
                depth--;
            }
        }
        return max;
    }

    /** The most parts of one dotted name ({@code db.t.c} has 3; a number like {@code 1.5} counts none). */
    int maxNameParts() {
        int max = 0;
        int parts = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (isName(i)) {
                parts = isSymbol(i - 1, '.') && isName(i - 2) ? parts + 1 : 1;
                max = Math.max(max, parts);
            }
        }
        return max;
    }

    /**
     * A name as the server reads it: {@code `a``b`} is {@code a`b}, {@code "a""b"} is {@code a"b} (ANSI_QUOTES),
     * anything else is kept as written. Null stays null.
     */
    static String unquote(String name) {
        if (name == null || name.length() < 2) {
            return name;
        }
        char quote = name.charAt(0);
        if ((quote != '`' && quote != '"') || name.charAt(name.length() - 1) != quote) {
            return name;
        }
        String q = String.valueOf(quote);
        return name.substring(1, name.length() - 1).replace(q + q, q);
    }
}
