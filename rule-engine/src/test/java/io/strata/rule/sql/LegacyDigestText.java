package io.strata.rule.sql;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code DigestText} as it was before {@link io.strata.rule.sql.lexer.MySqlLexer} (commit eac405c), with its own quote,
 * escape and comment handling: kept in test scope only, so that the lexer's tests can show the new implementation
 * answers as the old one did. Not to be changed or used elsewhere.
 *
 * <p>The old comment:
 *
 * A statement's digest text in the style of MySQL 8's {@code performance_schema} DIGEST_TEXT: the key under which
 * statements that differ only in their literals are counted together, as ProxySQL's query digests are. Literals
 * become {@code ?}, lists of literals {@code (...)}, names are backquoted, keywords upper-cased, comments dropped and
 * tokens joined by one space: {@code select name from t_dict where id=1} is
 * {@code SELECT `name` FROM `t_dict` WHERE `id` = ?}, and a prepared statement's text with its {@code ?} has the
 * same digest as the statement with its values written in.
 *
 * <p>It runs for every text statement, so it reads the text once, writes into one builder and makes nothing per
 * token; a statement whose digest is past {@link #MAX_LENGTH} is not read to its end. It never throws: a text that
 * is no SQL (an unterminated string or comment, random bytes) still has a digest.
 *
 * <p>Where MySQL's own rules are kept: a one-value list is {@code (?)} but {@code IN (?)} is {@code IN (...)}, so
 * that an IN list's length never splits a digest; rows of the same shape in a row collapse to the first plus
 * {@code /* , ... *}{@code /}; a function name (COUNT, NOW, VERSION...) is a keyword only before its bracket, so a
 * column called {@code count} stays a name; a word right after or before a dot is a name. Where it differs: all
 * comments are dropped, executable ones and optimizer hints included (they do not change what a statement is); a
 * unary sign before a literal folds into it after {@code =} too ({@code id = -5} is {@code `id` = ?}); common
 * non-reserved words that are usually column names (NAME, STATUS, TYPE...) are names; NULL, TRUE and FALSE stay
 * keywords, so they keep a list from collapsing.
 */
final class LegacyDigestText {

    /** The longest digest text, as MySQL's default {@code max_digest_length}; a longer one is cut to end in "...". */
    public static final int MAX_LENGTH = 1024;

    /** Past this much text the digest is cut anyway: no collapse takes back more than a few characters. */
    private static final int READ_LIMIT = MAX_LENGTH + 32;

    // What the last token written was: it decides whether a sign is unary and whether a bracket holds literals.
    private static final int START = 0;
    private static final int KEYWORD = 1;
    /** A keyword an expression follows (SELECT, WHERE, AND, THEN...): a sign after it is unary. */
    private static final int EXPRESSION_KEYWORD = 2;
    private static final int NAME = 3;
    private static final int VALUE = 4;
    /** A collapsed list: {@code (?)}, {@code (...)}, either followed by {@code /* , ... *}{@code /}. */
    private static final int ROW = 5;
    private static final int OPEN = 6;
    private static final int CLOSE = 7;
    private static final int COMMA = 8;
    private static final int OPERATOR = 9;
    private static final int DOT = 10;

    private static final int ROW_SINGLE = 1;
    private static final int ROW_MULTIPLE = 2;
    private static final int ROW_IN = 3;

    private static final byte IS_KEYWORD = 1;
    /** A built-in function's name: a keyword only where its bracket (or, for DATE and the like, a string) follows. */
    private static final byte IS_FUNCTION = 2;
    private static final byte STARTS_EXPRESSION = 4;
    private static final byte IS_IN = 8;

    /** MySQL 8's reserved words, and the non-reserved ones that shape statements rather than name columns. */
    private static final Set<String> KEYWORDS = words(
            "ACCESSIBLE ADD ALL ALTER ANALYZE AND AS ASC ASENSITIVE BEFORE BETWEEN BIGINT BINARY BLOB BOTH BY CALL",
            "CASCADE CASE CHANGE CHAR CHARACTER CHECK COLLATE COLUMN CONDITION CONSTRAINT CONTINUE CONVERT CREATE",
            "CROSS CUBE CUME_DIST CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER CURSOR DATABASE DATABASES",
            "DAY_HOUR DAY_MICROSECOND DAY_MINUTE DAY_SECOND DEC DECIMAL DECLARE DEFAULT DELAYED DELETE DENSE_RANK",
            "DESC DESCRIBE DETERMINISTIC DISTINCT DISTINCTROW DIV DOUBLE DROP DUAL EACH ELSE ELSEIF EMPTY ENCLOSED",
            "ESCAPED EXCEPT EXISTS EXIT EXPLAIN FALSE FETCH FIRST_VALUE FLOAT FLOAT4 FLOAT8 FOR FORCE FOREIGN FROM",
            "FULLTEXT FUNCTION GENERATED GET GRANT GROUP GROUPING GROUPS HAVING HIGH_PRIORITY HOUR_MICROSECOND",
            "HOUR_MINUTE HOUR_SECOND IF IGNORE IN INDEX INFILE INNER INOUT INSENSITIVE INSERT INT INT1 INT2 INT3 INT4",
            "INT8 INTEGER INTERSECT INTERVAL INTO IO_AFTER_GTIDS IO_BEFORE_GTIDS IS ITERATE JOIN JSON_TABLE KEY KEYS",
            "KILL LAG LAST_VALUE LATERAL LEAD LEADING LEAVE LEFT LIKE LIMIT LINEAR LINES LOAD LOCALTIME",
            "LOCALTIMESTAMP LOCK LONG LONGBLOB LONGTEXT LOOP LOW_PRIORITY MASTER_BIND MASTER_SSL_VERIFY_SERVER_CERT",
            "MATCH MAXVALUE MEDIUMBLOB MEDIUMINT MEDIUMTEXT MIDDLEINT MINUTE_MICROSECOND MINUTE_SECOND MOD MODIFIES",
            "NATURAL NOT NO_WRITE_TO_BINLOG NTH_VALUE NTILE NULL NUMERIC OF ON OPTIMIZE OPTIMIZER_COSTS OPTION",
            "OPTIONALLY OR ORDER OUT OUTER OUTFILE OVER PARTITION PERCENT_RANK PRECISION PRIMARY PROCEDURE PURGE",
            "RANGE RANK READ READS READ_WRITE REAL RECURSIVE REFERENCES REGEXP RELEASE RENAME REPEAT REPLACE REQUIRE",
            "RESIGNAL RESTRICT RETURN REVOKE RIGHT RLIKE ROW ROWS ROW_NUMBER SCHEMA SCHEMAS SECOND_MICROSECOND",
            "SELECT SENSITIVE SEPARATOR SET SHOW SIGNAL SMALLINT SPATIAL SPECIFIC SQL SQLEXCEPTION SQLSTATE",
            "SQLWARNING SQL_BIG_RESULT SQL_CALC_FOUND_ROWS SQL_SMALL_RESULT SSL STARTING STORED STRAIGHT_JOIN SYSTEM",
            "TABLE TERMINATED THEN TINYBLOB TINYINT TINYTEXT TO TRAILING TRIGGER TRUE UNDO UNION UNIQUE UNLOCK",
            "UNSIGNED UPDATE USAGE USE USING UTC_DATE UTC_TIME UTC_TIMESTAMP VALUES VARBINARY VARCHAR VARCHARACTER",
            "VARYING VIRTUAL WHEN WHERE WHILE WINDOW WITH WRITE XOR YEAR_MONTH ZEROFILL",
            // non-reserved: transactions, session, SHOW and DDL words, units, types, locking clauses
            "ACTION AFTER AGAINST ALGORITHM ANY AUTO_INCREMENT AVG_ROW_LENGTH BEGIN BOOL BOOLEAN BTREE CASCADED",
            "CHAIN CHARSET CHECKSUM CLOSE COLLATION COLUMNS COMMIT COMMITTED COMPACT COMPRESSED CONSISTENT",
            "DATETIME DAY DEALLOCATE DEFINER DIRECTORY DISABLE DISCARD DO DUPLICATE DYNAMIC ENABLE END ENGINE",
            "ENGINES ENUM ERRORS ESCAPE EVENT EVENTS EVERY EXCHANGE EXECUTE EXTENDED FIELDS FIXED FLUSH FOLLOWING",
            "FULL GLOBAL GRANTS HANDLER HASH HOUR IDENTIFIED IMPORT INDEXES INVISIBLE INVOKER ISOLATION",
            "KEY_BLOCK_SIZE LOCKED LOGS MEDIUM MICROSECOND MINUTE MODE MONTH NAMES NATIONAL NCHAR NEXT NO NOWAIT",
            "NULLS OFFSET OPEN OPTIONS PARTITIONS PERSIST PERSIST_ONLY PRECEDING PREPARE PRIVILEGES PROCESSLIST",
            "QUARTER QUICK READ_ONLY REBUILD RECOVER REDUNDANT REORGANIZE REPAIR REPEATABLE RESET RESTART RETURNS",
            "ROLLBACK ROLLUP ROW_FORMAT SAVEPOINT SECOND SECURITY SERIALIZABLE SESSION SHARE SHUTDOWN SIGNED",
            "SKIP SNAPSHOT SOME SOUNDS SQL_BUFFER_RESULT SQL_CACHE SQL_NO_CACHE START STARTS STATS_PERSISTENT STOP",
            "SUBPARTITION SUBPARTITIONS TABLES TABLESPACE TEMPORARY TEMPTABLE TRANSACTION TRIGGERS TRUNCATE",
            "UNBOUNDED UNCOMMITTED UNDEFINED UNKNOWN VALIDATION VALUE VARIABLES VIEW VISIBLE WARNINGS WEEK",
            "WITHOUT WORK XA YEAR ENDS");

    /** Built-in functions, keywords where called: elsewhere ({@code SELECT count FROM t}) the word is a name. */
    private static final Set<String> FUNCTIONS = words(
            "COUNT SUM MIN MAX AVG NOW SLEEP CONCAT CONCAT_WS IFNULL NULLIF COALESCE CONNECTION_ID LAST_INSERT_ID",
            "ROW_COUNT FOUND_ROWS VERSION USER SESSION_USER SYSTEM_USER DATE TIME TIMESTAMP DATE_FORMAT DATE_ADD",
            "DATE_SUB DATEDIFF TIMEDIFF TIMESTAMPDIFF TIMESTAMPADD STR_TO_DATE FROM_UNIXTIME UNIX_TIMESTAMP CURDATE",
            "CURTIME SYSDATE EXTRACT SUBSTRING SUBSTR SUBSTRING_INDEX LENGTH CHAR_LENGTH CHARACTER_LENGTH LOWER UPPER",
            "LCASE UCASE TRIM LTRIM RTRIM LPAD RPAD INSTR LOCATE POSITION REVERSE FORMAT ROUND FLOOR CEIL CEILING ABS",
            "RAND GREATEST LEAST CAST GROUP_CONCAT JSON_EXTRACT JSON_UNQUOTE JSON_OBJECT JSON_ARRAY JSON_CONTAINS",
            "JSON_SET JSON_LENGTH JSON_ARRAYAGG JSON_OBJECTAGG UUID UUID_SHORT MD5 SHA1 SHA2 HEX UNHEX FIELD",
            "FIND_IN_SET BIT_AND BIT_OR BIT_XOR STD STDDEV VARIANCE GET_LOCK RELEASE_LOCK RELEASE_ALL_LOCKS",
            "IS_FREE_LOCK IS_USED_LOCK BENCHMARK ASCII ORD CONV INET_ATON INET_NTOA TO_DAYS DAYOFWEEK DAYOFMONTH",
            "DAYOFYEAR DAYNAME MONTHNAME WEEKDAY LAST_DAY ADDDATE SUBDATE ANY_VALUE CRC32 ELT EXP LN LOG POW POWER",
            "SQRT SIGN NEXTVAL LASTVAL SETVAL");

    /** The keywords a sign after which is unary: {@code WHERE -1}, but {@code END - 1} and {@code NULL - 1}. */
    private static final Set<String> EXPRESSION_STARTS = words(
            "SELECT WHERE HAVING ON AND OR XOR NOT BETWEEN LIKE REGEXP RLIKE DIV MOD CASE WHEN THEN ELSE ELSEIF IF",
            "WHILE UNTIL RETURN DEFAULT INTERVAL EVERY STARTS ENDS LIMIT OFFSET BY DISTINCT ALL ANY SOME DO");

    // The keywords again, as an open-addressing table looked up from the text's characters without a string made.
    private static final String[] TABLE;
    private static final byte[] FLAGS;
    private static final int MASK;
    private static final int LONGEST;

    static {
        Map<String, Integer> flags = new HashMap<>();
        FUNCTIONS.forEach(word -> flags.merge(word, (int) IS_FUNCTION, (a, b) -> a | b));
        KEYWORDS.forEach(word -> flags.merge(word, (int) IS_KEYWORD, (a, b) -> a | b));
        EXPRESSION_STARTS.forEach(word -> flags.merge(word, IS_KEYWORD | STARTS_EXPRESSION, (a, b) -> a | b));
        flags.merge("IN", (int) IS_IN, (a, b) -> a | b);
        int size = Integer.highestOneBit(flags.size() * 4);
        TABLE = new String[size];
        FLAGS = new byte[size];
        MASK = size - 1;
        int longest = 0;
        for (Map.Entry<String, Integer> entry : flags.entrySet()) {
            String word = entry.getKey();
            int slot = spread(word.hashCode()) & MASK;
            while (TABLE[slot] != null) {
                slot = (slot + 1) & MASK;
            }
            TABLE[slot] = word;
            FLAGS[slot] = entry.getValue().byteValue();
            longest = Math.max(longest, word.length());
        }
        LONGEST = longest;
    }

    private final String sql;
    private final int n;
    private final StringBuilder out;
    private int i;
    private int last = START;
    private boolean lastIn;
    /** The last token is a comma right after a collapsed list: a list now may join it. */
    private boolean rowComma;
    /** A {@code ;} read and not yet written: written only if a token follows, so a trailing one is dropped. */
    private boolean pendingSemicolon;
    /** Set by {@link #quotedEnd}: the quote ran to the end of the text. */
    private boolean unterminated;

    // The bracket being read while it holds literals only: where its '(' stands in the text written, how many
    // literals it has had (the first is written, the others only counted, so a long IN list costs no room), and
    // whether a comma after the last one is pending too.
    private int listOpen = -1;
    private int listValues;
    private boolean listComma;
    private boolean listAfterIn;
    private boolean listAfterRow;

    // The last collapsed list: where it ends in the text written, its kind, whether it already says "/* , ... */".
    private int rowEnd;
    private int rowKind;
    private boolean rowListed;

    private LegacyDigestText(String sql) {
        this.sql = sql;
        this.n = sql.length();
        this.out = new StringBuilder(Math.min(n, MAX_LENGTH) + 16);
    }

    /** The digest text of {@code sql}: empty for null or a text of comments and spaces only. */
    public static String of(String sql) {
        return sql == null || sql.isEmpty() ? "" : new LegacyDigestText(sql).read();
    }

    private String read() {
        while (i < n && out.length() < READ_LIMIT) {
            step();
        }
        flushList();
        if (out.length() > MAX_LENGTH) {
            int cut = MAX_LENGTH - 3;
            if (Character.isHighSurrogate(out.charAt(cut - 1))) {
                cut--;
            }
            out.setLength(cut);
            out.append("...");
        }
        return out.toString();
    }

    /** Reads one token, space or comment. */
    private void step() {
        char c = sql.charAt(i);
        int end;
        if (c <= ' ' || Character.isWhitespace(c)) {
            i++;
        } else if (c == '#' || c == '-' && at(i + 1) == '-' && at(i + 2) <= ' ' || c == '/' && at(i + 1) == '*') {
            skipComment(c);
        } else if ((end = literalHere(c)) >= 0) {
            value(end);
        } else if (c == '`') {
            quotedName();
        } else if (c == '@') {
            variable();
        } else if (isWordChar(c)) {
            word(c);
        } else {
            symbol(c);
        }
    }

    private void skipComment(char c) {
        if (c == '/') {
            int close = sql.indexOf("*/", i + 2);
            i = close < 0 ? n : close + 2;
        } else {
            int lineEnd = sql.indexOf('\n', i);
            i = lineEnd < 0 ? n : lineEnd + 1;
        }
    }

    /** Where a literal starting here ends, or -1 inside a name ({@code 1a} in {@code t.1a}, the dot in {@code t.a}). */
    private int literalHere(char c) {
        if (last == DOT && isWordChar(c) || c == '.' && (last == NAME || last == CLOSE)) {
            return -1;
        }
        return literalEnd(i);
    }

    /**
     * Where the literal starting at {@code from} ends, or -1 when none does: a string (with the strings written
     * right after it, which MySQL joins into one), a number, {@code X'..'}, {@code B'..'}, {@code N'..'} or a
     * placeholder.
     */
    private int literalEnd(int from) {
        char c = at(from);
        if (c == '\'' || c == '"') {
            return stringsEnd(from);
        } else if (c == '?') {
            return from + 1;
        } else if (isDigit(c) || c == '.' && isDigit(at(from + 1))) {
            return numberEnd(from);
        } else if (at(from + 1) == '\'' && "xXbBnN".indexOf(c) >= 0) {
            return stringsEnd(from + 1);
        }
        return -1;
    }

    private int stringsEnd(int from) {
        int end = quotedEnd(from);
        int next = skipSpace(end);
        while (!unterminated && (at(next) == '\'' || at(next) == '"')) {
            end = quotedEnd(next);
            next = skipSpace(end);
        }
        return end;
    }

    /** The end of the quoted string or name starting at {@code start}: doubled quotes and backslashes escape. */
    private int quotedEnd(int start) {
        char quote = sql.charAt(start);
        int j = start + 1;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '\\' && quote != '`') {
                j += 2;
            } else if (c == quote && at(j + 1) == quote) {
                j += 2;
            } else if (c == quote) {
                unterminated = false;
                return j + 1;
            } else {
                j++;
            }
        }
        unterminated = true;
        return n;
    }

    /**
     * The end of the number at {@code from} ({@code 12}, {@code 1.5}, {@code .5}, {@code 1e-3}, {@code 0x1F},
     * {@code 0b01}), or -1 when the digits begin a name, as {@code 123abc} and {@code 0xZZ} do in MySQL.
     */
    private int numberEnd(int from) {
        if (at(from) == '0' && (at(from + 1) == 'x' || at(from + 1) == 'b')) {
            boolean hex = at(from + 1) == 'x';
            int j = from + 2;
            while (hex ? isHexDigit(at(j)) : at(j) == '0' || at(j) == '1') {
                j++;
            }
            if (j > from + 2 && !isWordChar(at(j))) {
                return j;
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
        return integer && isWordChar(at(j)) ? -1 : j;
    }

    /** A literal read up to {@code end}: a {@code ?}, or only counted when it continues a list of literals. */
    private void value(int end) {
        i = end;
        if (listOpen >= 0 && listValues > 0) {
            if (listComma) {
                listValues++;
                listComma = false;
                last = VALUE;
                return;
            }
            flushList();
        }
        boolean first = listOpen >= 0;
        begin(VALUE);
        out.append('?');
        if (first) {
            listValues = 1;
        }
    }

    /** A backquoted name, kept as written ({@code ``} inside included); an unterminated one is closed. */
    private void quotedName() {
        int start = i;
        i = quotedEnd(start);
        flushList();
        begin(NAME);
        out.append(sql, start, i);
        if (unterminated) {
            out.append('`');
        }
    }

    /**
     * {@code @v}, {@code @'v'}, {@code @@session.v} as written (an unterminated quote closed); the {@code @} of
     * {@code 'u'@'host'} alone.
     */
    private void variable() {
        int start = i;
        int j = at(i + 1) == '@' ? i + 2 : i + 1;
        char c = at(j);
        int end;
        unterminated = false;
        if (last == VALUE) {
            end = i + 1;
        } else if (c == '\'' || c == '"' || c == '`') {
            end = quotedEnd(j);
        } else {
            end = j;
            while (end < n && (isWordChar(sql.charAt(end)) || sql.charAt(end) == '.')) {
                end++;
            }
        }
        i = end;
        flushList();
        begin(end == start + 1 ? OPERATOR : NAME);
        out.append(sql, start, end);
        if (unterminated) {
            out.append(c);
        }
    }

    private void word(char c) {
        int start = i;
        int end = start;
        while (end < n && isWordChar(sql.charAt(end))) {
            end++;
        }
        i = end;
        if (c == '_' && last != DOT && introduces(end)) {
            return;
        }
        int flags = last == DOT || qualifies(end) ? 0 : flags(start, end);
        if ((flags & IS_KEYWORD) != 0 || (flags & IS_FUNCTION) != 0 && calls(end)) {
            keyword(start, end, flags);
        } else {
            flushList();
            begin(NAME);
            out.append('`').append(sql, start, end).append('`');
        }
    }

    /** Whether a word like {@code _utf8mb4} introduces the literal after it: then both are read as one literal. */
    private boolean introduces(int wordEnd) {
        int end = literalEnd(skipSpace(wordEnd));
        if (end < 0) {
            return false;
        }
        value(end);
        return true;
    }

    /** Whether the word ending here is the first part of a dotted name, {@code t} of {@code t.a}: never a keyword. */
    private boolean qualifies(int wordEnd) {
        char next = at(wordEnd + 1);
        return at(wordEnd) == '.' && (isWordChar(next) || next == '`' || next == '*');
    }

    /** Whether a function's name ending here is called: a bracket follows, or a string, as in DATE '2024-01-01'. */
    private boolean calls(int wordEnd) {
        char next = at(skipSpace(wordEnd));
        return next == '(' || next == '\'';
    }

    private void keyword(int start, int end, int flags) {
        flushList();
        begin((flags & STARTS_EXPRESSION) != 0 ? EXPRESSION_KEYWORD : KEYWORD);
        for (int k = start; k < end; k++) {
            out.append(upper(sql.charAt(k)));
        }
        lastIn = (flags & IS_IN) != 0;
    }

    private void symbol(char c) {
        if ((c == '-' || c == '+') && startsExpression()) {
            int end = literalEnd(skipSpace(i + 1));
            if (end >= 0) {
                value(end);
                return;
            }
        }
        switch (c) {
            case '(' -> open();
            case ')' -> close();
            case ',' -> comma();
            case ';' -> semicolon();
            case '.' -> operator(DOT, i + 1);
            default -> operator(OPERATOR, operatorEnd(c));
        }
    }

    /** Whether a sign here is unary: at the start, after an operator, a bracket, a comma, or WHERE and the like. */
    private boolean startsExpression() {
        return last == START || last == OPEN || last == COMMA || last == OPERATOR || last == EXPRESSION_KEYWORD;
    }

    private int operatorEnd(char c) {
        char next = at(i + 1);
        return switch (c) {
            case '<' -> next == '=' && at(i + 2) == '>' ? i + 3 : next == '=' || next == '>' || next == '<' ? i + 2
                    : i + 1;
            case '>' -> next == '=' || next == '>' ? i + 2 : i + 1;
            case '!', ':' -> next == '=' ? i + 2 : i + 1;
            case '|', '&' -> next == c ? i + 2 : i + 1;
            case '-' -> next != '>' ? i + 1 : at(i + 2) == '>' ? i + 3 : i + 2;
            default -> i + 1;
        };
    }

    private void operator(int kind, int end) {
        int start = i;
        i = end;
        flushList();
        begin(kind);
        out.append(sql, start, end);
    }

    /** A bracket that may hold a list of literals, which {@link #close} then collapses. */
    private void open() {
        i++;
        flushList();
        boolean afterIn = lastIn;
        boolean afterRow = rowComma;
        begin(OPEN);
        out.append('(');
        listOpen = out.length() - 1;
        listValues = 0;
        listComma = false;
        listAfterIn = afterIn;
        listAfterRow = afterRow;
    }

    private void close() {
        i++;
        if (listOpen >= 0 && listValues > 0 && !listComma) {
            collapse();
            return;
        }
        flushList();
        begin(CLOSE);
        out.append(')');
    }

    /**
     * Writes the list of literals just closed as MySQL does: {@code (?)} for one, {@code (...)} for more or after
     * IN, and a list after a comma after one of its kind joins it as {@code /* , ... *}{@code /}.
     */
    private void collapse() {
        int kind = listAfterIn ? ROW_IN : listValues == 1 ? ROW_SINGLE : ROW_MULTIPLE;
        if (listAfterRow && kind != ROW_IN && kind == rowKind) {
            out.setLength(rowEnd);
            if (!rowListed) {
                out.append(" /* , ... */");
            }
            rowListed = true;
        } else {
            out.setLength(listOpen);
            out.append(kind == ROW_SINGLE ? "(?)" : "(...)");
            rowListed = false;
        }
        rowKind = kind;
        rowEnd = out.length();
        listOpen = -1;
        last = ROW;
        lastIn = false;
        rowComma = false;
    }

    private void comma() {
        i++;
        if (listOpen >= 0 && listValues > 0 && !listComma) {
            listComma = true;
            last = COMMA;
            return;
        }
        flushList();
        begin(COMMA);
        out.append(',');
    }

    private void semicolon() {
        i++;
        flushList();
        pendingSemicolon = true;
        last = START;
        lastIn = false;
        rowComma = false;
    }

    /** The bracket read holds more than literals: writes the literals and comma only counted so far. */
    private void flushList() {
        if (listOpen < 0) {
            return;
        }
        for (int k = 1; k < listValues && out.length() < READ_LIMIT; k++) {
            out.append(" , ?");
        }
        if (listComma) {
            out.append(" ,");
        }
        listOpen = -1;
    }

    /** Before a token's text: the separating space (and a {@code ;} that turned out not to be the last). */
    private void begin(int kind) {
        if (pendingSemicolon && !out.isEmpty()) {
            out.append(" ;");
        }
        pendingSemicolon = false;
        if (!out.isEmpty()) {
            out.append(' ');
        }
        rowComma = kind == COMMA && last == ROW;
        lastIn = false;
        last = kind;
    }

    /** The keyword flags of {@code sql[start, end)} in any case, 0 for a word that is none; makes no string. */
    private int flags(int start, int end) {
        if (end - start > LONGEST) {
            return 0;
        }
        int hash = 0;
        for (int k = start; k < end; k++) {
            char c = sql.charAt(k);
            if (c >= 0x80) {
                return 0;
            }
            hash = 31 * hash + upper(c);
        }
        for (int slot = spread(hash) & MASK; TABLE[slot] != null; slot = (slot + 1) & MASK) {
            if (matches(TABLE[slot], start, end)) {
                return FLAGS[slot];
            }
        }
        return 0;
    }

    private boolean matches(String word, int start, int end) {
        if (word.length() != end - start) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if (upper(sql.charAt(start + k)) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The character at {@code index}, or 0 past the end: lookahead without bounds checks everywhere. */
    private char at(int index) {
        return index < n ? sql.charAt(index) : 0;
    }

    private int skipSpace(int from) {
        int j = from;
        while (j < n && (sql.charAt(j) <= ' ' || Character.isWhitespace(sql.charAt(j)))) {
            j++;
        }
        return j;
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

    /** Name characters as MySQL reads them unquoted: ASCII letters and digits, {@code _}, {@code $}, non-ASCII. */
    private static boolean isWordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$'
                || c >= 0x80 && !Character.isWhitespace(c);
    }

    private static char upper(char c) {
        return c >= 'a' && c <= 'z' ? (char) (c - ('a' - 'A')) : c;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }

    private static Set<String> words(String... lines) {
        Set<String> words = new HashSet<>();
        for (String line : lines) {
            for (String word : line.split(" ")) {
                if (!word.isEmpty()) {
                    words.add(word);
                }
            }
        }
        return Set.copyOf(words);
    }
}
