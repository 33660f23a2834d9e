package io.strata.rule.sql.lexer;

/**
 * MySQL's lexical rules, in one place (a central algorithm, hence its length): a cursor over a statement's text that
 * reports one token at a time by its {@link TokenKind} and its offsets, and makes no object per token, since the
 * classifier and the digest run it over most statements. After {@link #next()} returns true, {@link #kind()},
 * {@link #start()} and {@link #end()} describe the token, {@code sql.substring(start, end)}.
 *
 * <ul>
 *   <li>White space is what {@link Character#isWhitespace} says; comments are {@code /* ... *}{@code /},
 *       {@code #} to the end of the line, and {@code --} followed by a white space or control character (or the
 *       end) to the end of the line. They are skipped unless {@link #reportComments()} asks for them.</li>
 *   <li>Executable comments ({@code /*! ... *}{@code /}, {@code /*!50700 ... *}{@code /}, MariaDB's
 *       {@code /*M! ... *}{@code /}) are comments, as JSqlParser and digests read them, or, after
 *       {@link #runExecutableComments()}, the code the server runs: the marker and version are skipped, the text
 *       inside is lexed, the closing {@code *}{@code /} is skipped.</li>
 *   <li>Strings in single or double quotes: a backslash escapes the next character, a doubled quote stands for one.
 *       Backquoted names: a doubled backquote stands for one. NO_BACKSLASH_ESCAPES is not followed (no caller knows
 *       the session's sql_mode). A string, name or comment left open runs to the end of the text:
 *       {@link #unterminated()} says so.</li>
 *   <li>Words are ASCII letters and digits, {@code _}, {@code $} and any other character that is not white space
 *       (MySQL takes every multi-byte character as part of a name). A digit-led word that is no number
 *       ({@code 123abc}), or any word right after a dot ({@code t.1a}), is a {@link TokenKind#WORD}.</li>
 *   <li>A dot right after a name ({@code t.c}, no space) separates name parts; elsewhere a dot followed by a digit
 *       begins a number ({@code .5}). An {@code @} right after a name, string or number ({@code 'u'@'host'}) is a
 *       symbol; elsewhere it begins a variable when a name, a quote or a second {@code @} follows.</li>
 * </ul>
 *
 * <p>Not thread-safe: one instance per text and reader. A token's kind and offsets are fields, not an object: the
 * cursor is the one object a reading makes. Where even that and a call per token cost too much (the classifier's
 * quick path, on every statement), the static {@link #numberEnd}, {@link #quotedEnd} and {@link #isWordChar} give
 * the same rules to a caller's own loop.
 */
public final class MySqlLexer {

    /** ASCII letters, digits, {@code _} and {@code $}: one load per character of a word. */
    private static final boolean[] WORD = new boolean[128];
    /** The ASCII characters {@link Character#isWhitespace} accepts. */
    private static final boolean[] SPACE = new boolean[128];
    /** The letters of X'1F', B'01', N'text'. */
    private static final boolean[] PREFIX = new boolean[128];
    /** What may open a comment, a variable, a placeholder or a number ({@code .5}), or close an executable comment. */
    private static final boolean[] SPECIAL = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            WORD[c] = Character.isLetterOrDigit(c) || c == '_' || c == '$';
            SPACE[c] = Character.isWhitespace(c);
            PREFIX[c] = "xXbBnN".indexOf(c) >= 0;
            SPECIAL[c] = "#-/*@?.".indexOf(c) >= 0;
        }
    }

    private final String sql;
    private final int length;
    private boolean runsExecutableComments;
    private boolean reportsComments;

    private int pos;
    // The token read last. While the next one is read they describe the token before it: a dot or @ reads so.
    private TokenKind kind;
    private int start;
    private int end;
    private boolean unterminated;
    private boolean nonAscii;
    /** Inside an executable comment read as code: its {@code *}{@code /} is skipped. */
    private boolean inExecutableComment;

    public MySqlLexer(String sql) {
        this.sql = sql;
        this.length = sql.length();
    }

    /** Reads executable comments as the code the server runs, not as comments. Returns this lexer. */
    public MySqlLexer runExecutableComments() {
        runsExecutableComments = true;
        return this;
    }

    /** Reports comments, optimizer hints and executable comments read as comments as tokens. Returns this lexer. */
    public MySqlLexer reportComments() {
        reportsComments = true;
        return this;
    }

    /** Moves to the next token; false at the end of the text. */
    public boolean next() {
        while (pos < length) {
            char c = sql.charAt(pos);
            if (c < 128) {
                if (WORD[c]) {
                    return wordOrLiteral(c);
                }
                if (SPACE[c]) {
                    pos++;
                } else if (c == '\'' || c == '"') {
                    return quoted(TokenKind.STRING, pos, pos);
                } else if (c == '`') {
                    return quoted(TokenKind.QUOTED_NAME, pos, pos);
                } else if (!SPECIAL[c]) {
                    return token(TokenKind.SYMBOL, pos, pos + 1);
                } else if (special(c)) {
                    return true;
                }
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else {
                return word(pos);
            }
        }
        kind = null;
        start = length;
        end = length;
        unterminated = false;
        return false;
    }

    public TokenKind kind() {
        return kind;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** The token's text; makes a String, unlike the rest of the lexer. */
    public String text() {
        return sql.substring(start, end);
    }

    /** Whether the string, name, variable or comment just read runs to the end of the text without its close. */
    public boolean unterminated() {
        return unterminated;
    }

    /** Whether the token just read is a word holding a character outside ASCII. */
    public boolean nonAscii() {
        return kind == TokenKind.WORD && nonAscii;
    }

    /** Whether the token is the one-character symbol {@code c}. */
    public boolean isSymbol(char c) {
        return kind == TokenKind.SYMBOL && end - start == 1 && sql.charAt(start) == c;
    }

    /** Whether the token is the word {@code word}, in any case. */
    public boolean isWord(String word) {
        return kind == TokenKind.WORD && end - start == word.length()
                && sql.regionMatches(true, start, word, 0, word.length());
    }

    /**
     * Whether the token is a word that may introduce a string's character set ({@code _utf8mb4 'x'},
     * {@code _binary 0x01}): an underscore and a name. Whether a literal follows is the next token's to say.
     */
    public boolean isIntroducer() {
        return kind == TokenKind.WORD && end - start > 1 && sql.charAt(start) == '_';
    }

    /**
     * Extends the symbol just read to the operator it begins: {@code <=>}, {@code <=}, {@code <>}, {@code <<},
     * {@code >=}, {@code >>}, {@code !=}, {@code :=}, {@code ||}, {@code &&}, {@code ->}, {@code ->>}.
     */
    public void readOperator() {
        if (kind != TokenKind.SYMBOL) {
            return;
        }
        char c = sql.charAt(start);
        char next = at(start + 1);
        end = switch (c) {
            case '<' -> next == '=' && at(start + 2) == '>' ? start + 3
                    : next == '=' || next == '>' || next == '<' ? start + 2 : start + 1;
            case '>' -> next == '=' || next == '>' ? start + 2 : start + 1;
            case '!', ':' -> next == '=' ? start + 2 : start + 1;
            case '|', '&' -> next == c ? start + 2 : start + 1;
            case '-' -> next != '>' ? start + 1 : at(start + 2) == '>' ? start + 3 : start + 2;
            default -> start + 1;
        };
        pos = end;
    }

    /**
     * Puts {@code other}, a lexer of the same text, where this one stands: a look ahead with {@code other} leaves
     * this one in place, and {@code other.copyTo(this)} takes what it read.
     */
    public void copyTo(MySqlLexer other) {
        other.runsExecutableComments = runsExecutableComments;
        other.reportsComments = reportsComments;
        other.pos = pos;
        other.kind = kind;
        other.start = start;
        other.end = end;
        other.unterminated = unterminated;
        other.nonAscii = nonAscii;
        other.inExecutableComment = inExecutableComment;
    }

    // The way of common tokens (next, wordOrLiteral, word, quoted) stays small, rare forms in methods of their own,
    // so that the JIT compiles the common way as one piece.

    /** A word, a number, or a hex, bit or national string ({@code x'1F'}), at the ASCII word character {@code c}. */
    private boolean wordOrLiteral(char c) {
        if (kind == TokenKind.SYMBOL && sql.charAt(start) == '.') {
            return word(pos); // t.1a, t.x: name parts
        }
        if (c <= '9' && c >= '0') {
            int j = digitsEnd(sql, pos);
            char after = at(j);
            // digits alone, the common case; else a fraction, an exponent, 0x1F, or a word such as 123abc
            return after == '.' || isWordChar(after) ? numberOrWord(pos) : token(TokenKind.NUMBER, pos, j);
        }
        if (PREFIX[c] && at(pos + 1) == '\'') {
            return prefixedString(c);
        }
        return word(pos);
    }

    /** {@code X'1F'}, {@code B'01'}, {@code N'text'}. */
    private boolean prefixedString(char c) {
        TokenKind prefixed = c == 'x' || c == 'X' ? TokenKind.HEX : c == 'b' || c == 'B' ? TokenKind.BIT
                : TokenKind.NATIONAL_STRING;
        return quoted(prefixed, pos, pos + 1);
    }

    /** At one of {@code # - / * @ ? .}: a comment, a variable, a placeholder, a number, or a symbol after all. */
    private boolean special(char c) {
        switch (c) {
            case '#' -> {
                return lineComment();
            }
            case '-' -> {
                if (at(pos + 1) == '-' && (pos + 2 == length || at(pos + 2) <= ' ')) {
                    return lineComment();
                }
            }
            case '/' -> {
                if (at(pos + 1) == '*') {
                    return blockComment();
                }
            }
            case '*' -> {
                if (inExecutableComment && at(pos + 1) == '/') {
                    pos += 2;
                    inExecutableComment = false;
                    return false;
                }
            }
            case '@' -> {
                return variable();
            }
            case '?' -> {
                return token(TokenKind.PLACEHOLDER, pos, pos + 1);
            }
            case '.' -> {
                if (isDigit(at(pos + 1)) && !afterName()) {
                    return numberOrWord(pos);
                }
            }
            default -> {
            }
        }
        return token(TokenKind.SYMBOL, pos, pos + 1);
    }

    private boolean word(int from) {
        boolean wide = false;
        int j = from;
        while (j < length) {
            char c = sql.charAt(j);
            if (c < 128) {
                if (!WORD[c]) {
                    break;
                }
            } else if (Character.isWhitespace(c)) {
                break;
            } else {
                wide = true;
            }
            j++;
        }
        nonAscii = wide;
        return token(TokenKind.WORD, from, j);
    }

    /** A number at {@code from} ({@link #numberEnd}), or the word its digits begin ({@code 123abc}). */
    private boolean numberOrWord(int from) {
        int e = numberEnd(sql, from);
        if (e < 0) {
            return word(from);
        }
        char second = at(from + 1);
        boolean prefixed = sql.charAt(from) == '0' && (second == 'x' || second == 'b'); // no decimal has x or b there
        return token(!prefixed ? TokenKind.NUMBER : second == 'x' ? TokenKind.HEX : TokenKind.BIT, from, e);
    }

    /**
     * Where the number at {@code from} ends ({@code 12}, {@code 1.5}, {@code .5}, {@code 7.}, {@code 1e-3},
     * {@code 0x1F}, {@code 0b01}), or -1 when its characters begin a word, as {@code 123abc} and {@code 0xZZ} do in
     * MySQL. {@code from} is at a digit, or at a dot before one.
     */
    public static int numberEnd(String sql, int from) {
        int length = sql.length();
        char second = from + 1 < length ? sql.charAt(from + 1) : 0;
        if (sql.charAt(from) == '0' && (second == 'x' || second == 'b')) {
            boolean hex = second == 'x';
            int j = from + 2;
            while (j < length && (hex ? isHexDigit(sql.charAt(j)) : sql.charAt(j) == '0' || sql.charAt(j) == '1')) {
                j++;
            }
            if (j > from + 2 && (j == length || !isWordChar(sql.charAt(j)))) {
                return j;
            }
        }
        int j = digitsEnd(sql, from);
        boolean integer = true;
        if (j < length && sql.charAt(j) == '.') {
            j = digitsEnd(sql, j + 1);
            integer = false;
        }
        if (j < length && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
            int k = j + 1 < length && (sql.charAt(j + 1) == '+' || sql.charAt(j + 1) == '-') ? j + 2 : j + 1;
            if (k < length && isDigit(sql.charAt(k))) {
                j = digitsEnd(sql, k);
                integer = false;
            }
        }
        return integer && j < length && isWordChar(sql.charAt(j)) ? -1 : j;
    }

    /** A quoted token from {@code from}, its quote at {@code quote}: {@code 'x'}, {@code `x`}, {@code X'1F'}. */
    private boolean quoted(TokenKind quotedKind, int from, int quote) {
        int close = quotedEnd(sql, quote);
        token(quotedKind, from, close < 0 ? length : close);
        unterminated = close < 0;
        return true;
    }

    /**
     * {@code @name}, {@code @'name'}, {@code @@scope.name}, or {@code @} alone: after a name, string or number
     * ({@code 'u'@'host'}), or before anything a variable's name cannot begin with.
     */
    private boolean variable() {
        int from = pos;
        if (end == from && kind != null && (kind == TokenKind.WORD || kind == TokenKind.QUOTED_NAME
                || kind.isLiteral())) {
            return token(TokenKind.SYMBOL, from, from + 1);
        }
        int j = at(from + 1) == '@' ? from + 2 : from + 1;
        char c = at(j);
        if (c == '\'' || c == '"' || c == '`') {
            return quoted(TokenKind.VARIABLE, from, j);
        }
        int e = j;
        while (e < length && (isWordChar(sql.charAt(e)) || sql.charAt(e) == '.')) {
            e++;
        }
        return token(e == from + 1 ? TokenKind.SYMBOL : TokenKind.VARIABLE, from, e);
    }

    /**
     * Where the quoted string or name whose quote stands at {@code quote} ends: after its closing quote (a doubled
     * quote, or one escaped by a backslash outside backquotes, does not close it); -1 when it runs to the end.
     */
    public static int quotedEnd(String sql, int quote) {
        int length = sql.length();
        char q = sql.charAt(quote);
        int j = quote + 1;
        while (j < length) {
            char c = sql.charAt(j);
            if (c == '\\' && q != '`') {
                j += 2;
            } else if (c != q) {
                j++;
            } else if (j + 1 < length && sql.charAt(j + 1) == q) {
                j += 2;
            } else {
                return j + 1;
            }
        }
        return -1;
    }

    /** Skips or reports a {@code #} or {@code -- } comment; true when reported. */
    private boolean lineComment() {
        int from = pos;
        int lineEnd = sql.indexOf('\n', pos);
        pos = lineEnd < 0 ? length : lineEnd + 1;
        return reportsComments && comment(TokenKind.COMMENT, from, lineEnd < 0 ? length : lineEnd, false);
    }

    /** Skips, reports or enters (an executable comment read as code) a {@code /*} comment; true when reported. */
    private boolean blockComment() {
        int from = pos;
        boolean mariaDb = at(pos + 2) == 'M' && at(pos + 3) == '!';
        boolean executable = at(pos + 2) == '!' || mariaDb;
        if (executable && runsExecutableComments) {
            pos += mariaDb ? 4 : 3;
            while (pos < length && isDigit(sql.charAt(pos))) {
                pos++; // the version the server must have at least
            }
            inExecutableComment = true;
            return false;
        }
        int close = sql.indexOf("*/", pos + 2);
        pos = close < 0 ? length : close + 2;
        if (!reportsComments) {
            return false;
        }
        TokenKind comment = executable ? TokenKind.EXECUTABLE_COMMENT
                : at(from + 2) == '+' ? TokenKind.OPTIMIZER_HINT : TokenKind.COMMENT;
        return comment(comment, from, pos, close < 0);
    }

    private boolean comment(TokenKind commentKind, int from, int to, boolean open) {
        kind = commentKind;
        start = from;
        end = to;
        unterminated = open;
        return true;
    }

    private boolean token(TokenKind tokenKind, int from, int to) {
        kind = tokenKind;
        start = from;
        end = to;
        pos = to;
        unterminated = false;
        return true;
    }

    /** Whether a name ends right here (the token read last, no space between): a dot here separates its parts. */
    private boolean afterName() {
        return end == pos && (kind == TokenKind.WORD || kind == TokenKind.QUOTED_NAME);
    }

    /** The character at {@code index}, or 0 past the end: lookahead without bounds checks everywhere. */
    private char at(int index) {
        return index < length ? sql.charAt(index) : 0;
    }

    private static int digitsEnd(String sql, int from) {
        int j = from;
        while (j < sql.length() && isDigit(sql.charAt(j))) {
            j++;
        }
        return j;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /** Whether {@code c} continues a word: see the class comment. */
    public static boolean isWordChar(char c) {
        return c < 128 ? WORD[c] : !Character.isWhitespace(c);
    }
}
