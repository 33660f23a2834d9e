package io.strata.rule.sql.lexer;

/**
 * MySQL's lexical rules, in one place: a cursor over a statement's text that reports one token at a time by its
 * {@link TokenKind} and its offsets, and makes no object per token, since the classifier runs it over every
 * statement. After {@link #next()} returns true, {@link #kind()}, {@link #start()} and {@link #end()} describe the
 * token, {@code sql.substring(start, end)}.
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
 * <p>Not thread-safe: one instance per text and reader.
 */
public final class MySqlLexer {

    /** ASCII letters, digits, {@code _} and {@code $}: one load per character of a word. */
    private static final boolean[] WORD = new boolean[128];
    /** The ASCII characters {@link Character#isWhitespace} accepts. */
    private static final boolean[] SPACE = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            WORD[c] = Character.isLetterOrDigit(c) || c == '_' || c == '$';
            SPACE[c] = Character.isWhitespace(c);
        }
    }

    private final String sql;
    private final int length;
    private boolean runsExecutableComments;
    private boolean reportsComments;

    private int pos;
    private TokenKind kind;
    private int start;
    private int end;
    private boolean unterminated;
    private boolean nonAscii;
    /** Inside an executable comment read as code: its {@code *}{@code /} is skipped. */
    private boolean inExecutableComment;
    /** The token before this one, comments not counted, and where it ended: a dot or {@code @} after it reads so. */
    private TokenKind previousKind;
    private int previousEnd = -1;

    // One saved state for a lookahead (mark, next, reset).
    private int markPos;
    private TokenKind markKind;
    private int markStart;
    private int markEnd;
    private boolean markUnterminated;
    private boolean markNonAscii;
    private boolean markInExecutableComment;
    private TokenKind markPreviousKind;
    private int markPreviousEnd;

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
        if (kind != null && !kind.isComment()) {
            previousKind = kind;
            previousEnd = end;
        }
        unterminated = false;
        nonAscii = false;
        while (pos < length) {
            char c = sql.charAt(pos);
            if (c >= 128) {
                if (!Character.isWhitespace(c)) {
                    return word(pos);
                }
                pos++;
            } else if (WORD[c]) {
                return wordOrLiteral(c);
            } else if (SPACE[c]) {
                pos++;
            } else if (c == '\'' || c == '"') {
                return quoted(TokenKind.STRING, pos, pos);
            } else if (c == '`') {
                return quoted(TokenKind.QUOTED_NAME, pos, pos);
            } else if (c == '#' || c == '-' && at(pos + 1) == '-' && (pos + 2 == length || at(pos + 2) <= ' ')) {
                if (lineComment()) {
                    return true;
                }
            } else if (c == '/' && at(pos + 1) == '*') {
                if (blockComment()) {
                    return true;
                }
            } else if (c == '*' && inExecutableComment && at(pos + 1) == '/') {
                pos += 2;
                inExecutableComment = false;
            } else if (c == '@') {
                return variable();
            } else if (c == '?') {
                return token(TokenKind.PLACEHOLDER, pos, pos + 1);
            } else if (c == '.' && isDigit(at(pos + 1)) && !afterName()) {
                return number(pos);
            } else {
                return token(TokenKind.SYMBOL, pos, pos + 1);
            }
        }
        kind = null;
        start = length;
        end = length;
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

    /** Whether the word just read holds a character outside ASCII. */
    public boolean nonAscii() {
        return nonAscii;
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

    /** Saves the cursor, for a look at the tokens ahead that {@link #reset()} takes back. */
    public void mark() {
        markPos = pos;
        markKind = kind;
        markStart = start;
        markEnd = end;
        markUnterminated = unterminated;
        markNonAscii = nonAscii;
        markInExecutableComment = inExecutableComment;
        markPreviousKind = previousKind;
        markPreviousEnd = previousEnd;
    }

    /** Puts the cursor back where {@link #mark()} saved it. */
    public void reset() {
        pos = markPos;
        kind = markKind;
        start = markStart;
        end = markEnd;
        unterminated = markUnterminated;
        nonAscii = markNonAscii;
        inExecutableComment = markInExecutableComment;
        previousKind = markPreviousKind;
        previousEnd = markPreviousEnd;
    }

    /** A word, a number, or a hex, bit or national string ({@code x'1F'}), at the ASCII word character {@code c}. */
    private boolean wordOrLiteral(char c) {
        if (afterDot()) {
            return word(pos); // t.1a, t.x: name parts
        }
        if (c >= '0' && c <= '9') {
            return number(pos);
        }
        if (at(pos + 1) == '\'') {
            switch (c) {
                case 'x', 'X' -> {
                    return quoted(TokenKind.HEX, pos, pos + 1);
                }
                case 'b', 'B' -> {
                    return quoted(TokenKind.BIT, pos, pos + 1);
                }
                case 'n', 'N' -> {
                    return quoted(TokenKind.NATIONAL_STRING, pos, pos + 1);
                }
                default -> {
                }
            }
        }
        return word(pos);
    }

    private boolean word(int from) {
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
                nonAscii = true;
            }
            j++;
        }
        return token(TokenKind.WORD, from, j);
    }

    /**
     * A number at {@code from} ({@code 12}, {@code 1.5}, {@code .5}, {@code 7.}, {@code 1e-3}, {@code 0x1F},
     * {@code 0b01}), or the word the digits begin, as {@code 123abc} and {@code 0xZZ} do in MySQL.
     */
    private boolean number(int from) {
        if (sql.charAt(from) == '0' && (at(from + 1) == 'x' || at(from + 1) == 'b')) {
            boolean hex = at(from + 1) == 'x';
            int j = from + 2;
            while (hex ? isHexDigit(at(j)) : at(j) == '0' || at(j) == '1') {
                j++;
            }
            if (j > from + 2 && !isWordChar(at(j))) {
                return token(hex ? TokenKind.HEX : TokenKind.BIT, from, j);
            }
        }
        int j = digitsEnd(from);
        boolean integer = true;
        if (at(j) == '.') {
            j = digitsEnd(j + 1);
            integer = false;
        }
        if (at(j) == 'e' || at(j) == 'E') {
            int k = at(j + 1) == '+' || at(j + 1) == '-' ? j + 2 : j + 1;
            if (isDigit(at(k))) {
                j = digitsEnd(k);
                integer = false;
            }
        }
        return integer && isWordChar(at(j)) ? word(from) : token(TokenKind.NUMBER, from, j);
    }

    /** A quoted token from {@code from}, its quote at {@code quote}: {@code 'x'}, {@code `x`}, {@code X'1F'}. */
    private boolean quoted(TokenKind quotedKind, int from, int quote) {
        return token(quotedKind, from, quotedEnd(quote));
    }

    /**
     * {@code @name}, {@code @'name'}, {@code @@scope.name}, or {@code @} alone: after a name, string or number
     * ({@code 'u'@'host'}), or before anything a variable's name cannot begin with.
     */
    private boolean variable() {
        int from = pos;
        if (previousEnd == from && (previousKind == TokenKind.WORD || previousKind == TokenKind.QUOTED_NAME
                || previousKind.isLiteral())) {
            return token(TokenKind.SYMBOL, from, from + 1);
        }
        int j = at(from + 1) == '@' ? from + 2 : from + 1;
        char c = at(j);
        if (c == '\'' || c == '"' || c == '`') {
            return token(TokenKind.VARIABLE, from, quotedEnd(j));
        }
        int e = j;
        while (e < length && (isWordChar(sql.charAt(e)) || sql.charAt(e) == '.')) {
            e++;
        }
        return token(e == from + 1 ? TokenKind.SYMBOL : TokenKind.VARIABLE, from, e);
    }

    /**
     * Where the quoted string or name whose quote stands at {@code quote} ends: after its closing quote (a doubled
     * quote, or one escaped by a backslash outside backquotes, does not close it), else at the end of the text.
     */
    private int quotedEnd(int quote) {
        char q = sql.charAt(quote);
        int j = quote + 1;
        while (j < length) {
            char c = sql.charAt(j);
            if (c == '\\' && q != '`') {
                j += 2;
            } else if (c == q && at(j + 1) == q) {
                j += 2;
            } else if (c == q) {
                return j + 1;
            } else {
                j++;
            }
        }
        unterminated = true;
        return length;
    }

    /** Skips or reports a {@code #} or {@code -- } comment; true when reported. */
    private boolean lineComment() {
        int from = pos;
        int lineEnd = sql.indexOf('\n', pos);
        pos = lineEnd < 0 ? length : lineEnd + 1;
        return reportsComments && token(TokenKind.COMMENT, from, lineEnd < 0 ? length : lineEnd);
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
        unterminated = close < 0;
        TokenKind comment = executable ? TokenKind.EXECUTABLE_COMMENT
                : at(from + 2) == '+' ? TokenKind.OPTIMIZER_HINT : TokenKind.COMMENT;
        return token(comment, from, pos);
    }

    private boolean token(TokenKind tokenKind, int from, int to) {
        kind = tokenKind;
        start = from;
        end = to;
        pos = to;
        return true;
    }

    /** Whether the token before is a dot: a word after it is a name part, whatever it starts with. */
    private boolean afterDot() {
        return previousKind == TokenKind.SYMBOL && previousEnd > 0 && sql.charAt(previousEnd - 1) == '.';
    }

    /** Whether a name ends right here: a dot here separates its parts. */
    private boolean afterName() {
        return previousEnd == pos && (previousKind == TokenKind.WORD || previousKind == TokenKind.QUOTED_NAME);
    }

    /** The character at {@code index}, or 0 past the end: lookahead without bounds checks everywhere. */
    private char at(int index) {
        return index < length ? sql.charAt(index) : 0;
    }

    private int digitsEnd(int from) {
        int j = from;
        while (isDigit(at(j))) {
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
