package io.strata.rule.sql;

import io.strata.rule.sql.lexer.MySqlLexer;
import io.strata.rule.sql.lexer.TokenKind;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A statement's digest text in the style of MySQL 8's {@code performance_schema} DIGEST_TEXT: the key under which
 * statements that differ only in their literals are counted together, as ProxySQL's query digests are. Literals
 * become {@code ?}, lists of literals {@code (...)}, names are backquoted, keywords upper-cased, comments dropped and
 * tokens joined by one space: {@code select name from t_dict where id=1} is
 * {@code SELECT `name` FROM `t_dict` WHERE `id` = ?}, and a prepared statement's text with its {@code ?} has the
 * same digest as the statement with its values written in.
 *
 * <p>It runs for every text statement, so it reads the text once with {@link MySqlLexer} (looking one token ahead
 * at most), writes into one builder and makes nothing per token; a statement whose digest is past
 * {@link #MAX_LENGTH} is not read to its end. It never throws: a text that is no SQL (an unterminated string or
 * comment, random bytes) still has a digest; control characters count as white space.
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
public final class DigestText {

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
    private final MySqlLexer lexer;
    /** Looks a token ahead of {@link #lexer}, which stays in place unless what it read is taken. */
    private final MySqlLexer ahead;
    private final StringBuilder out;
    private int last = START;
    private boolean lastIn;
    /** The last token is a comma right after a collapsed list: a list now may join it. */
    private boolean rowComma;
    /** A {@code ;} read and not yet written: written only if a token follows, so a trailing one is dropped. */
    private boolean pendingSemicolon;

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

    private DigestText(String sql) {
        this.sql = sql;
        this.lexer = new MySqlLexer(sql);
        this.ahead = new MySqlLexer(sql);
        this.out = new StringBuilder(Math.min(sql.length(), MAX_LENGTH) + 16);
    }

    /** The digest text of {@code sql}: empty for null or a text of comments and spaces only. */
    public static String of(String sql) {
        return sql == null || sql.isEmpty() ? "" : new DigestText(sql).read();
    }

    private String read() {
        while (out.length() < READ_LIMIT && nextToken(lexer)) {
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

    /**
     * Moves the lexer to the next token the digest reads: comments are skipped by the lexer, and control characters
     * count as white space here (a digest never shows one).
     */
    private boolean nextToken(MySqlLexer cursor) {
        while (cursor.next()) {
            if (cursor.kind() != TokenKind.SYMBOL || sql.charAt(cursor.start()) >= ' ') {
                return true;
            }
        }
        return false;
    }

    /** Whether the token after the lexer's is a literal ({@code ahead} then stands on it); the lexer stays. */
    private boolean literalAhead() {
        lexer.copyTo(ahead);
        return nextToken(ahead) && ahead.kind().isLiteral();
    }

    /** Writes the token the lexer stands on (and those it joins). */
    private void step() {
        switch (lexer.kind()) {
            case WORD -> word(lexer.start(), lexer.end());
            case QUOTED_NAME -> quotedName();
            case VARIABLE -> variable();
            case SYMBOL -> symbol(sql.charAt(lexer.start()));
            default -> literal();
        }
    }

    /** A literal, with the strings MySQL joins into one after it ({@code 'a' 'b'}, {@code N'a' 'b'}), as one value. */
    private void literal() {
        TokenKind kind = lexer.kind();
        boolean quoted = kind == TokenKind.STRING || kind == TokenKind.NATIONAL_STRING
                || (kind == TokenKind.HEX || kind == TokenKind.BIT) && sql.charAt(lexer.start() + 1) == '\'';
        while (quoted && !lexer.unterminated()) {
            lexer.copyTo(ahead);
            if (!nextToken(ahead) || ahead.kind() != TokenKind.STRING) {
                break;
            }
            ahead.copyTo(lexer);
        }
        value();
    }

    /** Whether the next token is a literal: then it is read, with the strings joined to it, as one value. */
    private boolean literalFollows() {
        if (!literalAhead()) {
            return false;
        }
        ahead.copyTo(lexer);
        literal();
        return true;
    }

    /** A literal read: a {@code ?}, or only counted when it continues a list of literals. */
    private void value() {
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
        int start = lexer.start();
        int end = lexer.end();
        boolean open = lexer.unterminated();
        flushList();
        begin(NAME);
        out.append(sql, start, end);
        if (open) {
            out.append('`');
        }
    }

    /** {@code @v}, {@code @'v'}, {@code @@session.v} as written, an unterminated quote closed. */
    private void variable() {
        int start = lexer.start();
        int end = lexer.end();
        boolean open = lexer.unterminated();
        flushList();
        begin(NAME);
        out.append(sql, start, end);
        if (open) {
            out.append(sql.charAt(sql.charAt(start + 1) == '@' ? start + 2 : start + 1));
        }
    }

    private void word(int start, int end) {
        if (last != DOT && lexer.isIntroducer() && literalFollows()) {
            return; // _utf8mb4 'x': the introducer and its literal are one literal
        }
        int flags = last == DOT || qualifies(end) ? 0 : flags(start, end);
        if ((flags & IS_KEYWORD) != 0 || (flags & IS_FUNCTION) != 0 && calls()) {
            keyword(start, end, flags);
        } else {
            flushList();
            begin(NAME);
            out.append('`').append(sql, start, end).append('`');
        }
    }

    /** Whether the word ending here is the first part of a dotted name, {@code t} of {@code t.a}: never a keyword. */
    private boolean qualifies(int wordEnd) {
        char next = at(wordEnd + 1);
        return at(wordEnd) == '.' && (MySqlLexer.isWordChar(next) || next == '`' || next == '*');
    }

    /** Whether the function's name just read is called: a bracket follows, or a string, as in DATE '2024-01-01'. */
    private boolean calls() {
        lexer.copyTo(ahead);
        return nextToken(ahead) && (ahead.isSymbol('(')
                || ahead.kind() == TokenKind.STRING && sql.charAt(ahead.start()) == '\'');
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
        if ((c == '-' || c == '+') && startsExpression() && literalFollows()) {
            return; // a unary sign folds into its literal
        }
        switch (c) {
            case '(' -> open();
            case ')' -> close();
            case ',' -> comma();
            case ';' -> semicolon();
            case '.' -> operator(DOT);
            default -> {
                lexer.readOperator();
                operator(OPERATOR);
            }
        }
    }

    /** Whether a sign here is unary: at the start, after an operator, a bracket, a comma, or WHERE and the like. */
    private boolean startsExpression() {
        return last == START || last == OPEN || last == COMMA || last == OPERATOR || last == EXPRESSION_KEYWORD;
    }

    private void operator(int kind) {
        int start = lexer.start();
        int end = lexer.end();
        flushList();
        begin(kind);
        out.append(sql, start, end);
    }

    /** A bracket that may hold a list of literals, which {@link #close} then collapses. */
    private void open() {
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
        return index < sql.length() ? sql.charAt(index) : 0;
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
