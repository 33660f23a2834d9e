package io.strata.rule.sql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SqlTokens} as it was before {@link io.strata.rule.sql.lexer.MySqlLexer} (commit eac405c), with its own quote,
 * escape and comment handling: kept in test scope only, so that the lexer's tests can show the new implementation
 * answers as the old one did. Not to be changed or used elsewhere.
 *
 * <p>The old comment:
 *
 * The tokens of a statement's text with their offsets, as MySQL cuts them: enough to find keywords, names and
 * brackets outside strings and comments, which is all the work around the parser needs (the nesting bound, LOAD
 * DATA, the rewrites of {@link MySqlForms}). Comments are dropped, executable ones ({@code /*!...*}{@code /})
 * included, since JSqlParser drops them too; what it parses is what these tokens describe.
 */
final class LegacySqlTokens {

    enum Kind { WORD, QUOTED_NAME, STRING, SYMBOL }

    /** One token: {@code sql.substring(start, end)}. */
    record Token(Kind kind, int start, int end) {
    }

    private final String sql;
    private final List<Token> tokens;

    private LegacySqlTokens(String sql, List<Token> tokens) {
        this.sql = sql;
        this.tokens = tokens;
    }

    static LegacySqlTokens of(String sql) {
        return head(sql, Integer.MAX_VALUE);
    }

    /** The first {@code count} tokens only: the leading keywords of a text too long to read whole. */
    static LegacySqlTokens head(String sql, int count) {
        List<Token> tokens = new ArrayList<>();
        Cursor cursor = new Cursor(sql);
        while (tokens.size() < count && cursor.next()) {
            tokens.add(new Token(cursor.kind, cursor.start, cursor.end));
        }
        return new LegacySqlTokens(sql, tokens);
    }

    /**
     * The tokens of a text one at a time, none kept: for a text too long to hold as a list (a bulk INSERT of
     * millions of tokens). After {@link #next()} returns true, {@code kind}, {@code start} and {@code end} describe
     * the token.
     */
    static final class Cursor {
        private final String sql;
        private int i;
        Kind kind;
        int start;
        int end;

        Cursor(String sql) {
            this.sql = sql;
        }

        boolean next() {
            int n = sql.length();
            while (i < n) {
                char c = sql.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '#' || c == '-' && sql.startsWith("--", i)
                        && (i + 2 == n || sql.charAt(i + 2) <= ' ')) {
                    i = lineEnd(sql, i);
                } else if (c == '/' && sql.startsWith("/*", i)) {
                    int close = sql.indexOf("*/", i + 2);
                    i = close < 0 ? n : close + 2;
                } else if (c == '\'' || c == '"' || c == '`') {
                    return token(c == '`' ? Kind.QUOTED_NAME : Kind.STRING, i, quotedEnd(sql, i));
                } else if (isWordChar(c)) {
                    int from = i;
                    while (i < n && isWordChar(sql.charAt(i))) {
                        i++;
                    }
                    return token(Kind.WORD, from, i);
                } else {
                    return token(Kind.SYMBOL, i, i + 1);
                }
            }
            return false;
        }

        private boolean token(Kind kind, int start, int end) {
            this.kind = kind;
            this.start = start;
            this.end = end;
            i = end;
            return true;
        }

        boolean isSymbol(char symbol) {
            return kind == Kind.SYMBOL && sql.charAt(start) == symbol;
        }

        boolean isWord(String word) {
            return kind == Kind.WORD && end - start == word.length() && sql.regionMatches(true, start, word, 0,
                    word.length());
        }
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
        return token.kind() == Kind.WORD && token.end() - token.start() == word.length()
                && sql.regionMatches(true, token.start(), word, 0, word.length());
    }

    boolean isSymbol(int index, char symbol) {
        return index >= 0 && index < tokens.size() && tokens.get(index).kind() == Kind.SYMBOL
                && sql.charAt(tokens.get(index).start()) == symbol;
    }

    /** Whether the token at {@code index} can be (part of) a table name: a word or a backquoted name. */
    boolean isName(int index) {
        if (index < 0 || index >= tokens.size()) {
            return false;
        }
        Kind kind = tokens.get(index).kind();
        return kind == Kind.WORD || kind == Kind.QUOTED_NAME;
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

    /** The most parts of one dotted name ({@code db.t.c} has 3; a number like {@code 1.5} counts 2). */
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

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c >= 0x80;
    }

    private static int lineEnd(String sql, int from) {
        int end = sql.indexOf('\n', from);
        return end < 0 ? sql.length() : end + 1;
    }

    /** The end of the quoted string or name starting at {@code start}: doubled quotes and backslashes escape. */
    private static int quotedEnd(String sql, int start) {
        char quote = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote && i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return sql.length();
    }
}
