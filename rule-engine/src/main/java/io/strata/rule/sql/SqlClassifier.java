package io.strata.rule.sql;

import io.strata.rule.sql.lexer.MySqlLexer;
import io.strata.rule.sql.lexer.TokenKind;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;

/**
 * Answers what routing and session tracking need to know about a query without parsing it, in one pass of
 * {@link MySqlLexer}: its kind, whether it holds several statements, and whether it leaves state on the server
 * connection. MySQL's executable comments ({@code /*!40101 ... *}{@code /}) count as code, as the server runs them.
 *
 * <p>Central algorithm of the rule engine's fast path; stateless and thread-safe.
 */
public final class SqlClassifier {

    public static final int MAX_TOKENS = 32;

    /**
     * Functions whose result depends on what ran before on the same server connection, or which take a lock. A
     * sequence's last value (LASTVAL) is its NEXTVAL's on that connection: both pin, so a shared connection never
     * holds one.
     */
    private static final Words PINNING_FUNCTIONS = new Words("GET_LOCK", "FOUND_ROWS", "ROW_COUNT", "NEXTVAL",
            "LASTVAL");
    /** The first words of NEXT VALUE FOR s and PREVIOUS VALUE FOR s, NEXTVAL(s) and LASTVAL(s) by other names. */
    private static final Words SEQUENCE_VALUE = new Words("NEXT", "PREVIOUS");
    private static final Words PINNING_WORDS = new Words("SQL_CALC_FOUND_ROWS");
    private static final Words LAST_INSERT_ID = new Words("LAST_INSERT_ID");
    private static final Words LAST_INSERT_ID_VARIABLES = new Words("@@IDENTITY", "@@LAST_INSERT_ID",
            "@@SESSION.IDENTITY", "@@SESSION.LAST_INSERT_ID");
    /**
     * Statements whose state stays on the server connection. CALL among them: a procedure's body may create a
     * temporary table or set user or session variables, which Strata cannot see from the call.
     */
    private static final Words PINNING_FIRST = new Words("PREPARE", "EXECUTE", "DEALLOCATE", "HANDLER", "XA",
            "CALL");
    /** Statements that read or change rows and nothing else: SET STATEMENT ... FOR one of these need not pin. */
    private static final Words DATA_STATEMENTS = new Words("SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH");
    private static final Set<String> DDL = Set.of("CREATE", "ALTER", "DROP", "TRUNCATE", "RENAME");
    /**
     * Functions a replica must not answer: they read what this session did on the primary, take locks, or change
     * state (sequences) — {@link SqlStatementInfo#readOnly()} is false when a SELECT calls one.
     */
    private static final Words PRIMARY_FUNCTIONS = new Words("LAST_INSERT_ID", "GET_LOCK", "RELEASE_LOCK",
            "RELEASE_ALL_LOCKS", "IS_FREE_LOCK", "IS_USED_LOCK", "FOUND_ROWS", "ROW_COUNT", "NEXTVAL", "LASTVAL",
            "SETVAL", "MASTER_POS_WAIT", "MASTER_GTID_WAIT", "SOURCE_POS_WAIT", "WAIT_FOR_EXECUTED_GTID_SET");
    /** Words that make a SELECT lock, write or read session state wherever they appear (FOR UPDATE, INTO...). */
    private static final Words PRIMARY_WORDS = new Words("UPDATE", "SHARE", "INTO", "DELETE", "@@IDENTITY",
            "@@LAST_INSERT_ID", "@@INSERT_ID", "@@LAST_GTID");

    /**
     * Session variables whose value Strata reads back after a SET and makes equal on whichever backend connection
     * runs the session's next statement, so setting them does not tie a session to one connection (drivers set
     * several when they connect).
     */
    public static final Set<String> TRACKED_VARIABLES = Set.of("sql_mode", "time_zone", "transaction_isolation",
            "tx_isolation", "sql_auto_is_null", "sql_select_limit", "sql_safe_updates", "group_concat_max_len",
            "innodb_lock_wait_timeout", "lock_wait_timeout", "max_statement_time", "max_execution_time",
            "net_write_timeout", "net_read_timeout", "wait_timeout", "interactive_timeout", "sql_big_selects",
            "sql_warnings", "sql_notes", "character_set_results", "collation_connection", "div_precision_increment",
            "foreign_key_checks", "unique_checks", "sql_log_bin", "tx_read_only", "transaction_read_only");

    /** Room for a typical OLTP statement's tokens, so the list never grows for them (sysbench's have 8 to 14). */
    private static final int TOKENS_PER_STATEMENT = 16;

    private SqlClassifier() {
    }

    public static SqlStatementInfo classify(String sql) {
        SqlStatementInfo quick = Quick.classify(sql);
        return quick != null ? quick : lexed(sql);
    }

    /** Every token made, every rule applied: for statements {@link Quick} leaves to it, and for their tokens. */
    static SqlStatementInfo lexed(String sql) {
        Tokens lexer = new Tokens(sql);
        List<String> first = List.of();
        List<String> firstAll = first;
        boolean tokensKept = true;
        boolean pins = false;
        boolean readsLastId = false;
        boolean setsLastId = false;
        boolean hidesCounts = false;
        int statements = 0;
        List<String> statement = null; // the statement being read; a list only once it has a token
        String token;
        while (true) {
            token = lexer.next();
            if (token == null || token.equals(";")) {
                if (statement != null) {
                    statements++;
                    boolean setsHere = lastInsertIdCall(statement, true);
                    // LAST_INSERT_ID(expr) pins: the session's last insert id now lives on this server connection
                    pins |= setsHere || pinsSession(statement);
                    readsLastId |= lastInsertIdCall(statement, false);
                    // A procedure's inserts set it there too, and its CALL's answer does not say to what.
                    boolean call = isCall(statement);
                    setsLastId |= setsHere || call;
                    hidesCounts |= call || hidesCounts(statement);
                    if (statements == 1) {
                        first = statement.size() > MAX_TOKENS ? statement.subList(0, MAX_TOKENS) : statement;
                        firstAll = statement;
                    }
                    statement = null;
                }
                if (token == null) {
                    break;
                }
                continue;
            }
            if (statement == null) {
                statement = new ArrayList<>(TOKENS_PER_STATEMENT);
            }
            if (statement.size() < 4096) {
                statement.add(token);
            } else {
                pins |= scanPinning(token, "");
                tokensKept = false; // too long to judge whether a replica may answer it: the primary will
            }
        }
        SqlKind kind = kind(body(firstAll)); // SET STATEMENT ... FOR s is what s is: a write, a read...
        int names = kind == SqlKind.SET ? namesTarget(first) : -1;
        String charset = charset(first, names);
        boolean multi = statements > 1;
        List<String> tracked = kind == SqlKind.SET ? trackedTargets(first) : List.of();
        if (charset != null && takesDatabaseCollation(first, names)) {
            // SET CHARACTER SET x gives the connection the database's collation: it is followed as the variable it
            // sets, read back like the others
            tracked = new ArrayList<>(tracked);
            tracked.add("collation_connection");
        }
        if (multi && !tracked.isEmpty()) {
            pins = true; // Strata follows tracked variables statement by statement only
            tracked = List.of();
        }
        // A USE or SET NAMES inside a multi-statement changes the connection where Strata cannot follow it.
        if (multi && (kind == SqlKind.USE || charset != null)) {
            pins = true;
        }
        // A view, not a copy (the list is this call's own and complete), unless it is the head of a long statement,
        // whose whole list a kept statement need not hold.
        List<String> tokens = first == firstAll ? Collections.unmodifiableList(first) : List.copyOf(first);
        // Kept, not judged: only read/write splitting asks whether a replica may answer (SqlStatementInfo.readOnly).
        List<String> statementTokens = statements != 1 || !tokensKept ? null
                : firstAll.size() <= MAX_TOKENS ? tokens : Collections.unmodifiableList(firstAll);
        return new SqlStatementInfo(kind, tokens, multi, pins, charset, tracked, statementTokens, lexer.hint,
                readsLastId, setsLastId, hidesCounts, sql);
    }

    /** Words that open a statement the server reads across semicolons (a compound statement's parts). */
    private static final Words COMPOUND_FIRST = new Words("IF", "WHILE", "LOOP", "REPEAT", "CASE", "DECLARE",
            "FOR", "END", "ELSE", "ELSEIF", "UNTIL", "LEAVE", "ITERATE", "RETURN");
    /** What CREATE or ALTER makes when its body is a stored program, which holds semicolons of its own. */
    private static final Words PROGRAMS = new Words("PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE");

    /** A test of a name that stands in a text from {@code start} to {@code end}, made without copying it out. */
    @FunctionalInterface
    interface NameTest {
        boolean test(String sql, int start, int end);
    }

    /**
     * Whether a name of the statement passes the test: a word, or what a backquoted or double-quoted token holds
     * (a name under ANSI_QUOTES), read as the lexer reads its tokens (comments, strings and user variables are not
     * names); no token is made. For the rules' cheap test of whether a statement may name one of their tables.
     */
    static boolean anyName(String sql, NameTest test) {
        int plain = Quick.scan(sql, 0, test, false);
        return plain == Quick.NAMED || plain == Quick.NOT_PLAIN && lexedAnyName(sql, test);
    }

    /** {@link #anyName} by the lexer's cursor, for any text. */
    static boolean lexedAnyName(String sql, NameTest test) {
        MySqlLexer lexer = new MySqlLexer(sql).runExecutableComments();
        while (lexer.next()) {
            int start = lexer.start();
            int end = lexer.end();
            int close = lexer.unterminated() ? end : end - 1;
            boolean name = switch (lexer.kind()) {
                case WORD -> test.test(sql, start, end);
                case QUOTED_NAME -> test.test(sql, start + 1, close);
                case STRING -> sql.charAt(start) == '"' && test.test(sql, start + 1, close);
                default -> false;
            };
            if (name) {
                return true;
            }
        }
        return false;
    }

    /**
     * The statements of a text holding several, each as its own text, or null when the text must go to the server
     * whole: it holds one statement, or a stored program or compound statement whose body has semicolons of its
     * own (CREATE PROCEDURE ..., BEGIN NOT ATOMIC ...). Empty statements (";;", a trailing ";") are left out.
     */
    public static List<String> split(String sql) {
        Tokens lexer = new Tokens(sql);
        List<String> statements = new ArrayList<>();
        int start = 0;
        List<String> head = new ArrayList<>(3); // the first tokens of the statement being read
        boolean program = false;
        while (true) {
            String token = lexer.next();
            if (token == null || token.equals(";")) {
                if (!head.isEmpty()) {
                    statements.add(sql.substring(start, token == null ? sql.length() : lexer.start()));
                }
                if (token == null) {
                    return statements.size() > 1 ? statements : null;
                }
                start = lexer.end();
                head.clear();
                program = false;
                continue;
            }
            if (head.size() < 3) {
                head.add(token);
                if (head.size() == 1 && COMPOUND_FIRST.has(token)
                        || head.size() == 2 && (token.equals(":") // a label: "name: BEGIN ..."
                        || head.get(0).equalsIgnoreCase("BEGIN") && token.equalsIgnoreCase("NOT"))) {
                    return null;
                }
                program |= head.size() == 1 && (token.equalsIgnoreCase("CREATE") || token.equalsIgnoreCase("ALTER"));
            }
            if (program && PROGRAMS.has(token)) {
                return null;
            }
        }
    }

    /**
     * Whether a SELECT only reads table data: no locking clause, no INTO, no data change inside (WITH ... UPDATE),
     * no function reading this session's history or taking a lock, no NEXT VALUE FOR a sequence.
     */
    static boolean replicaSafe(List<String> tokens) {
        // Runs for every SELECT: compares ignoring case instead of upper-casing each token (no garbage).
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            boolean call = i + 1 < tokens.size() && tokens.get(i + 1).equals("(");
            if (call ? PRIMARY_FUNCTIONS.has(token) : PRIMARY_WORDS.has(token)) {
                return false;
            }
            // INSERT(...) and REPLACE(...) are string functions; the statements are not
            if (!call && (token.equalsIgnoreCase("INSERT") || token.equalsIgnoreCase("REPLACE"))) {
                return false;
            }
            if (sequenceValueAt(tokens, i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a SELECT surely reads a table: a FROM of the statement or of a subquery (not of a function such as
     * EXTRACT(YEAR FROM d) or TRIM(x FROM s)) followed by a name other than DUAL that is not a function call. Unsure
     * is false.
     */
    static boolean readsTable(List<String> tokens) {
        long subqueries = 1; // a bit per open parenthesis, innermost lowest: 1 for a subquery (or no parenthesis)
        for (int i = 0; i + 1 < tokens.size(); i++) {
            String token = tokens.get(i);
            if (token.equals("(")) {
                subqueries = subqueries << 1 | (tokens.get(i + 1).equalsIgnoreCase("SELECT") ? 1 : 0);
            } else if (token.equals(")")) {
                subqueries = Math.max(1, subqueries >>> 1);
            } else if ((subqueries & 1) == 1 && token.equalsIgnoreCase("FROM") && isName(tokens.get(i + 1))
                    && !tokens.get(i + 1).equalsIgnoreCase("DUAL")
                    && !(i + 2 < tokens.size() && tokens.get(i + 2).equals("("))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isName(String token) {
        char c = token.charAt(0);
        return c == '`' || c == '_' || c == '$' || c >= 0x80 || Character.isLetter(c);
    }

    private static SqlKind kind(List<String> tokens) {
        if (tokens.isEmpty()) {
            return SqlKind.EMPTY;
        }
        String word = tokens.get(0).toUpperCase(Locale.ROOT);
        return switch (word) {
            case "SELECT", "WITH", "VALUES", "TABLE", "(" -> SqlKind.SELECT;
            case "INSERT" -> SqlKind.INSERT;
            case "UPDATE" -> SqlKind.UPDATE;
            case "DELETE" -> SqlKind.DELETE;
            case "REPLACE" -> SqlKind.REPLACE;
            case "USE" -> SqlKind.USE;
            case "SET" -> SqlKind.SET;
            case "BEGIN" -> SqlKind.BEGIN;
            case "START" -> tokens.size() > 1 && tokens.get(1).equalsIgnoreCase("TRANSACTION")
                    ? SqlKind.BEGIN : SqlKind.OTHER;
            case "COMMIT" -> SqlKind.COMMIT;
            case "ROLLBACK" -> tokens.size() > 1 && tokens.get(1).equalsIgnoreCase("TO")
                    ? SqlKind.SAVEPOINT : SqlKind.ROLLBACK;
            case "SAVEPOINT", "RELEASE" -> SqlKind.SAVEPOINT;
            case "SHOW", "DESC", "DESCRIBE", "EXPLAIN" -> SqlKind.SHOW;
            case "KILL" -> SqlKind.KILL;
            case "CALL" -> SqlKind.CALL;
            case "LOCK", "UNLOCK" -> SqlKind.LOCK;
            default -> DDL.contains(word) ? SqlKind.DDL : SqlKind.OTHER;
        };
    }

    private static boolean pinsSession(List<String> tokens) {
        String first = tokens.get(0);
        if (PINNING_FIRST.has(first)) {
            return true;
        }
        if (first.equalsIgnoreCase("CREATE") && isTemporary(tokens)) {
            return true;
        }
        if (isSetStatement(tokens)) {
            return setStatementPins(tokens);
        }
        if (first.equalsIgnoreCase("LOCK")
                || first.equalsIgnoreCase("FLUSH") && tokens.stream().anyMatch("LOCK"::equalsIgnoreCase)) {
            return true;
        }
        if (first.equalsIgnoreCase("SET") && setPins(tokens)) {
            return true;
        }
        for (int i = 0; i < tokens.size(); i++) {
            if (scanPinning(tokens.get(i), i + 1 < tokens.size() ? tokens.get(i + 1) : "")
                    || sequenceValueAt(tokens, i)) {
                return true;
            }
        }
        return false;
    }

    /** Whether tokens {@code i} on are NEXT VALUE FOR or PREVIOUS VALUE FOR (a sequence's next or last value). */
    private static boolean sequenceValueAt(List<String> tokens, int i) {
        return i + 2 < tokens.size() && SEQUENCE_VALUE.has(tokens.get(i))
                && tokens.get(i + 1).equalsIgnoreCase("VALUE") && tokens.get(i + 2).equalsIgnoreCase("FOR");
    }

    /**
     * Whether the statement calls LAST_INSERT_ID with an argument ({@code withArgument}) or without; without, also
     * its variable forms ({@code @@IDENTITY}, {@code @@LAST_INSERT_ID}).
     */
    private static boolean lastInsertIdCall(List<String> tokens, boolean withArgument) {
        if (!withArgument && tokens.stream().anyMatch(LAST_INSERT_ID_VARIABLES::has)) {
            return true;
        }
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (LAST_INSERT_ID.has(tokens.get(i)) && tokens.get(i + 1).equals("(")
                    && tokens.get(i + 2).equals(")") != withArgument) {
                return true;
            }
        }
        return false;
    }

    /** See {@link SqlStatementInfo#hidesCounts}: here, the statements other than a CALL. */
    private static boolean hidesCounts(List<String> tokens) {
        return tokens.stream().anyMatch(PINNING_WORDS::has);
    }

    private static boolean isCall(List<String> tokens) {
        return body(tokens).get(0).equalsIgnoreCase("CALL");
    }

    /** The statement itself: for SET STATEMENT ... FOR s, the tokens of s. */
    private static List<String> body(List<String> tokens) {
        int at = isSetStatement(tokens) ? forAt(tokens) : -1;
        return at > 0 && at + 1 < tokens.size() ? tokens.subList(at + 1, tokens.size()) : tokens;
    }

    /**
     * MariaDB's {@code SET STATEMENT var = value [, ...] FOR statement}: the variables hold for that one statement
     * and are restored after it, so only the statement itself may leave state behind.
     */
    private static boolean isSetStatement(List<String> tokens) {
        return tokens.size() > 1 && tokens.get(0).equalsIgnoreCase("SET")
                && tokens.get(1).equalsIgnoreCase("STATEMENT");
    }

    /**
     * Pins unless the statement after FOR is a plain read or write that does not pin, and no value reads a user
     * variable. Any other statement there (a USE, a SET, a CALL...) could change the connection where Strata does
     * not follow it, and a SET STATEMENT without FOR is not one Strata understands.
     */
    private static boolean setStatementPins(List<String> tokens) {
        int at = forAt(tokens);
        if (at < 0 || at + 1 == tokens.size() || !DATA_STATEMENTS.has(tokens.get(at + 1))) {
            return true;
        }
        for (int i = 2; i < at; i++) {
            if (scanPinning(tokens.get(i), tokens.get(i + 1))) {
                return true;
            }
        }
        return pinsSession(tokens.subList(at + 1, tokens.size()));
    }

    /** The index of the FOR that ends SET STATEMENT's assignments (outside parentheses), or -1. */
    private static int forAt(List<String> tokens) {
        int depth = 0;
        for (int i = 2; i < tokens.size(); i++) {
            String token = tokens.get(i);
            if (token.equals("(")) {
                depth++;
            } else if (token.equals(")")) {
                depth--;
            } else if (depth == 0 && token.equalsIgnoreCase("FOR")) {
                return i;
            }
        }
        return -1;
    }

    /** CREATE [OR REPLACE] TEMPORARY ... (MariaDB's OR REPLACE included). */
    private static boolean isTemporary(List<String> tokens) {
        int at = tokens.size() > 2 && tokens.get(1).equalsIgnoreCase("OR") && tokens.get(2).equalsIgnoreCase("REPLACE")
                ? 3 : 1;
        return tokens.size() > at && tokens.get(at).equalsIgnoreCase("TEMPORARY");
    }

    private static boolean scanPinning(String token, String next) {
        if (token.length() > 1 && token.charAt(0) == '@' && token.charAt(1) != '@') {
            return true; // a user variable: it lives on one server connection
        }
        return PINNING_WORDS.has(token) || PINNING_FUNCTIONS.has(token) && next.equals("(");
    }

    /**
     * Keywords matched ignoring case without allocating: upper-casing every token of every statement to look it up
     * was the classifier's largest allocation, and most tokens fail here at the length.
     */
    private record Words(String... words) {
        boolean has(String token) {
            return hasAt(token, 0, token.length());
        }

        /** Whether {@code sql} holds one of the words from {@code start}, {@code length} characters long. */
        boolean hasAt(String sql, int start, int length) {
            for (String word : words) {
                if (word.length() == length && sql.regionMatches(true, start, word, 0, length)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The tracked session variables a SET assigns (lower case, as in {@link #TRACKED_VARIABLES}). */
    private static List<String> trackedTargets(List<String> tokens) {
        List<String> transaction = sessionTransaction(tokens);
        if (transaction != null) {
            return transaction;
        }
        List<String> tracked = new ArrayList<>();
        forEachTarget(tokens, i -> {
            String name = sessionVariable(tokens, i);
            if (name != null && TRACKED_VARIABLES.contains(name)) {
                tracked.add(name);
            }
            return true;
        });
        return tracked;
    }

    /**
     * For {@code SET SESSION TRANSACTION ISOLATION LEVEL ... | READ ONLY | READ WRITE} (what JDBC drivers send for
     * setTransactionIsolation and setReadOnly): the variables it sets, under their tx_ names (read and set under the
     * transaction_ ones where the server has those: StateSync.serverName). Else null,
     * {@code SET TRANSACTION} without SESSION included: it sets the next transaction only, which stays unseen on the
     * connection.
     */
    private static List<String> sessionTransaction(List<String> tokens) {
        if (tokens.size() < 5 || !tokens.get(2).equalsIgnoreCase("TRANSACTION")
                || !tokens.get(1).equalsIgnoreCase("SESSION") && !tokens.get(1).equalsIgnoreCase("LOCAL")) {
            return null;
        }
        List<String> names = new ArrayList<>(2);
        for (int i = 3; i < tokens.size(); i++) {
            String token = tokens.get(i);
            if (token.equalsIgnoreCase("ISOLATION") && !names.contains("tx_isolation")) {
                names.add("tx_isolation");
            } else if (token.equalsIgnoreCase("READ") && i + 1 < tokens.size()
                    && (tokens.get(i + 1).equalsIgnoreCase("ONLY") || tokens.get(i + 1).equalsIgnoreCase("WRITE"))
                    && !names.contains("tx_read_only")) {
                names.add("tx_read_only");
            }
        }
        return names.isEmpty() ? null : names;
    }

    /** The session variable named at {@code i} (past SESSION/LOCAL and @@session. prefixes), lower case, or null. */
    private static String sessionVariable(List<String> tokens, int i) {
        String target = tokens.get(i).toLowerCase(Locale.ROOT);
        if (target.equals("session") || target.equals("local")) {
            return i + 1 < tokens.size() ? sessionVariable(tokens, i + 1) : null;
        }
        for (String prefix : List.of("@@session.", "@@local.", "@@")) {
            if (target.startsWith(prefix)) {
                String name = target.substring(prefix.length());
                return name.startsWith("global.") ? null : name;
            }
        }
        return target.startsWith("@") ? null : target;
    }

    /** Calls {@code target} with the index of each assignment's target in a SET; stops when it returns false. */
    private static boolean forEachTarget(List<String> tokens, java.util.function.IntPredicate target) {
        int depth = 0;
        boolean atTarget = true;
        for (int i = 1; i < tokens.size(); i++) {
            String token = tokens.get(i);
            if (token.equals("(")) {
                depth++;
            } else if (token.equals(")")) {
                depth--;
            } else if (depth == 0 && token.equals(",")) {
                atTarget = true;
            } else if (atTarget) {
                atTarget = false;
                if (!target.test(i)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * SET of autocommit (followed through server status flags), of the character set and of tracked variables
     * (replayed on any connection), and of GLOBAL variables (not session state) leaves the session free; any other
     * SET pins it.
     */
    private static boolean setPins(List<String> tokens) {
        if (sessionTransaction(tokens) != null) {
            return false;
        }
        return !forEachTarget(tokens, i -> freeTarget(tokens, i)
                || TRACKED_VARIABLES.contains(String.valueOf(sessionVariable(tokens, i))));
    }

    private static boolean freeTarget(List<String> tokens, int i) {
        String target = tokens.get(i).toLowerCase(Locale.ROOT);
        if (target.equals("session") || target.equals("local")) {
            return i + 1 < tokens.size() && freeTarget(tokens, i + 1);
        }
        return switch (target) {
            case "global", "persist", "names", "charset", "character" -> true;
            case "autocommit", "@@autocommit", "@@session.autocommit", "@@local.autocommit" -> true;
            default -> target.startsWith("@@global.");
        };
    }

    /**
     * Where a SET's last NAMES, CHARSET or CHARACTER SET target is (MariaDB Connector/J ends its first statement with
     * {@code NAMES utf8mb4}), or -1.
     */
    private static int namesTarget(List<String> tokens) {
        int[] at = {-1};
        forEachTarget(tokens, i -> {
            String target = tokens.get(i);
            if (target.equalsIgnoreCase("NAMES") || target.equalsIgnoreCase("CHARSET")
                    || target.equalsIgnoreCase("CHARACTER") && i + 1 < tokens.size()
                    && tokens.get(i + 1).equalsIgnoreCase("SET")) {
                at[0] = i;
            }
            return true;
        });
        return at[0];
    }

    /**
     * The character set named at {@code at} ({@link #namesTarget}) as SET NAMES takes it, or null: {@code x}, or
     * {@code x COLLATE y}. The COLLATE stays with it because it is more than {@code collation_connection}: the server
     * gives character_set_client and character_set_results that collation too, and every text column's definition
     * then carries its id.
     */
    private static String charset(List<String> tokens, int at) {
        int value = at < 0 ? -1 : tokens.get(at).equalsIgnoreCase("CHARACTER") ? at + 2 : at + 1;
        if (value <= 0 || value >= tokens.size()) {
            return null;
        }
        String charset = unquote(tokens.get(value));
        boolean collate = tokens.get(at).equalsIgnoreCase("NAMES") && value + 2 < tokens.size()
                && tokens.get(value + 1).equalsIgnoreCase("COLLATE");
        return collate ? charset + " COLLATE " + unquote(tokens.get(value + 2)) : charset;
    }

    /** Whether the SET's character set target, at {@code at}, is SET CHARACTER SET x (or CHARSET x). */
    private static boolean takesDatabaseCollation(List<String> tokens, int at) {
        return !tokens.get(at).equalsIgnoreCase("NAMES");
    }

    /** Strips one level of '', "" or `` quoting. */
    public static String unquote(String token) {
        if (token.length() >= 2) {
            char q = token.charAt(0);
            if ((q == '\'' || q == '"' || q == '`') && token.charAt(token.length() - 1) == q) {
                return token.substring(1, token.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
            }
        }
        return token;
    }

    /**
     * The statements nearly every OLTP client sends, judged in one pass over their characters without making a token:
     * a SELECT, INSERT, UPDATE, DELETE or REPLACE, or a BEGIN or COMMIT, holding no comment, no semicolon, no user
     * variable and none of the words that pin a session. Such a statement is one statement that pins nothing, and
     * its kind is its first word, so those answers need no tokens; its tokens are counted, and made by the lexed path
     * only when something reads one (a rule looking for tables, read/write splitting judging a SELECT, a query Strata
     * answers itself). Anything else is left to the lexed path whole, so the answers are its answers in every case.
     *
     * <p>It counts tokens as {@link MySqlLexer} cuts them, with the lexer's own rules for words, numbers and quotes
     * ({@link MySqlLexer#numberEnd}, {@link MySqlLexer#quotedEnd}), and leaves to the lexed path every form whose
     * cut depends on more (comments, variables, a dot before digits, a quote right after a word). It is a loop of
     * its own, not the lexer's cursor, because it runs for nearly every statement: a call per token to a cursor the
     * JIT cannot keep in registers (its next() is compiled too large to inline) cost a third more
     * (ClassifierBenchmark).
     */
    static final class Quick {
        /** At most one token per character: the lexer keeps every token of a statement this long. */
        static final int MAX_LENGTH = 4096;

        private Quick() {
        }

        /** The statement's info, or null when it is not one of the statements this judges. */
        static SqlStatementInfo classify(String sql) {
            int length = sql.length();
            if (length > MAX_LENGTH) {
                return null;
            }
            int pos = 0;
            while (pos < length && sql.charAt(pos) < 128 && Character.isWhitespace(sql.charAt(pos))) {
                pos++;
            }
            int start = pos;
            pos = asciiWordEnd(sql, pos);
            SqlKind kind = firstWordKind(sql, start, pos);
            if (kind == null) {
                return null;
            }
            int rest = scan(sql, pos, null, true);
            if (rest < 0) {
                return null;
            }
            int tokens = 1 + rest;
            LexedLater all = new LexedLater(sql, tokens);
            List<String> first = tokens <= MAX_TOKENS ? all : all.subList(0, MAX_TOKENS);
            return new SqlStatementInfo(kind, first, false, false, null, List.of(), all, null, false, false, false,
                    sql);
        }

        /** {@link #scan}'s answer: the text holds a form left to the lexer. */
        static final int NOT_PLAIN = -1;
        /** {@link #scan}'s answer: a name passed the test. */
        static final int NAMED = -2;

        /**
         * One pass over a plain text from {@code pos}, cutting tokens as {@link MySqlLexer} does, with its rules for
         * words, numbers and quotes; any form whose cut depends on more is no plain text.
         *
         * @param names   tested on each word and on what each backquoted or double-quoted token holds, or null
         * @param pinning whether a word that may pin the session ({@link #pinningWord}) makes the text not plain
         * @return the number of tokens, {@link #NAMED} when a name passed the test, or {@link #NOT_PLAIN}
         */
        static int scan(String sql, int pos, NameTest names, boolean pinning) {
            int length = sql.length();
            int tokens = 0;
            boolean afterDot = false; // the token before is a dot: digits now begin a name part (t.1a)
            while (pos < length) {
                char c = sql.charAt(pos);
                if (c >= 128) {
                    return NOT_PLAIN; // text in other scripts is left to the lexed path
                }
                if (MySqlLexer.isWordChar(c)) {
                    int end = -1;
                    if (c <= '9' && c >= '0') {
                        if (afterDot) {
                            return NOT_PLAIN;
                        }
                        end = MySqlLexer.numberEnd(sql, pos);
                    }
                    boolean word = end < 0; // 123abc included
                    end = word ? asciiWordEnd(sql, pos) : end;
                    if (end < length && (sql.charAt(end) >= 128 || sql.charAt(end) == '\'')) {
                        return NOT_PLAIN; // a name in other scripts; X'1F', N'x', _utf8mb4'x'
                    }
                    if (word && pinning && pinningWord(sql, pos, end - pos)) {
                        return NOT_PLAIN;
                    }
                    if (word && names != null && names.test(sql, pos, end)) {
                        return NAMED;
                    }
                    pos = end;
                } else if (Character.isWhitespace(c)) {
                    pos++;
                    continue;
                } else if (c == '\'' || c == '"' || c == '`') {
                    int end = MySqlLexer.quotedEnd(sql, pos);
                    int close = end < 0 ? length : end - 1;
                    if (names != null && c != '\'' && names.test(sql, pos + 1, close)) {
                        return NAMED;
                    }
                    pos = end < 0 ? length : end;
                } else if (c == '@' || c == ';' || c == '#' || c == '\\' || pos + 1 < length && ((c == '-' || c == '/')
                        && (sql.charAt(pos + 1) == '-' || sql.charAt(pos + 1) == '*')
                        || c == '.' && sql.charAt(pos + 1) >= '0' && sql.charAt(pos + 1) <= '9')) {
                    return NOT_PLAIN; // a user variable, several statements, a comment, .5 or t.5, or odd text
                } else {
                    pos++;
                }
                tokens++;
                afterDot = c == '.';
            }
            return tokens;
        }

        /** Where the run of ASCII word characters from {@code pos} ends. */
        private static int asciiWordEnd(String sql, int pos) {
            while (pos < sql.length() && sql.charAt(pos) < 128 && MySqlLexer.isWordChar(sql.charAt(pos))) {
                pos++;
            }
            return pos;
        }

        /** The kind a statement opening with this word has whatever follows, or null. */
        private static SqlKind firstWordKind(String sql, int start, int end) {
            return switch (end - start) {
                case 5 -> sql.regionMatches(true, start, "BEGIN", 0, 5) ? SqlKind.BEGIN : null;
                case 6 -> sql.regionMatches(true, start, "SELECT", 0, 6) ? SqlKind.SELECT
                        : sql.regionMatches(true, start, "INSERT", 0, 6) ? SqlKind.INSERT
                        : sql.regionMatches(true, start, "UPDATE", 0, 6) ? SqlKind.UPDATE
                        : sql.regionMatches(true, start, "DELETE", 0, 6) ? SqlKind.DELETE
                        : sql.regionMatches(true, start, "COMMIT", 0, 6) ? SqlKind.COMMIT : null;
                case 7 -> sql.regionMatches(true, start, "REPLACE", 0, 7) ? SqlKind.REPLACE : null;
                default -> null;
            };
        }

        /**
         * A word that may pin the session ({@link #scanPinning}) or needs the session's last insert id: called or
         * not, the lexer judges the statement.
         */
        private static boolean pinningWord(String sql, int start, int length) {
            return PINNING_WORDS.hasAt(sql, start, length) || PINNING_FUNCTIONS.hasAt(sql, start, length)
                    || LAST_INSERT_ID.hasAt(sql, start, length) || SEQUENCE_VALUE.hasAt(sql, start, length);
        }
    }

    /**
     * The tokens of a statement {@link Quick} judged: their number is known, the tokens themselves are made by the
     * lexer when the first is read. Read by one thread at a time (a session's), published safely to others.
     */
    private static final class LexedLater extends AbstractList<String> implements RandomAccess {
        private final String sql;
        private final int size;
        private volatile List<String> tokens;

        LexedLater(String sql, int size) {
            this.sql = sql;
            this.size = size;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public String get(int index) {
            Objects.checkIndex(index, size);
            List<String> lexed = tokens;
            if (lexed == null) {
                lexed = lexed(sql).statementTokens();
                tokens = lexed;
            }
            return lexed.get(index);
        }
    }

    /** Punctuation tokens ("=", "(", ",", ";"...), one String each instead of one per occurrence. */
    private static final String[] ONE_CHAR = new String[128];

    static {
        for (char c = 0; c < ONE_CHAR.length; c++) {
            ONE_CHAR[c] = String.valueOf(c);
        }
    }

    /**
     * SQL's common keywords, written all upper or all lower case, as one String each: a statement's keywords are then
     * found instead of copied out of its text (tokens are compared by value everywhere, so only the copies go).
     */
    private static final class Keywords {
        private static final String[] WORDS = {"SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "IS", "NULL",
            "BETWEEN", "LIKE", "ORDER", "GROUP", "BY", "HAVING", "LIMIT", "OFFSET", "ASC", "DESC", "DISTINCT", "AS",
            "ON", "JOIN", "LEFT", "INNER", "UNION", "ALL", "EXISTS", "CASE", "WHEN", "THEN", "ELSE", "END", "INSERT",
            "INTO", "VALUES", "VALUE", "UPDATE", "SET", "DELETE", "REPLACE", "DUPLICATE", "KEY", "DEFAULT", "BEGIN",
            "COMMIT", "ROLLBACK", "START", "TRANSACTION", "FOR", "SHARE", "COUNT", "SUM", "MIN", "MAX", "AVG", "TRUE",
            "FALSE", "USE", "SHOW", "NAMES", "SESSION", "AUTOCOMMIT"};
        /** Open addressing by String.hashCode, at most a quarter full, so a miss ends after a probe or two. */
        private static final String[] TABLE = new String[512];

        static {
            for (String word : WORDS) {
                add(word);
                add(word.toLowerCase(Locale.ROOT));
            }
        }

        private static void add(String word) {
            int i = word.hashCode() & (TABLE.length - 1);
            while (TABLE[i] != null) {
                i = (i + 1) & (TABLE.length - 1);
            }
            TABLE[i] = word;
        }

        /** The keyword that {@code sql} holds from {@code start} to {@code end}, exactly as written; else null. */
        static String find(String sql, int start, int end) {
            int length = end - start;
            if (length < 2 || length > 11) {
                return null;
            }
            int hash = 0;
            for (int i = start; i < end; i++) {
                hash = 31 * hash + sql.charAt(i);
            }
            for (int i = hash & (TABLE.length - 1); TABLE[i] != null; i = (i + 1) & (TABLE.length - 1)) {
                String word = TABLE[i];
                if (word.length() == length && sql.regionMatches(start, word, 0, length)) {
                    return word;
                }
            }
            return null;
        }
    }

    /**
     * The classifier's tokens as Strings: {@link MySqlLexer}'s tokens, executable comments read as code, keywords
     * found instead of copied ({@link Keywords}), and {@code /* strata:... *}{@code /} hints read on the way.
     */
    private static final class Tokens {
        private final String sql;
        private final MySqlLexer lexer;
        /** What a {@code /* strata:... *}{@code /} comment asked for, lower case, else null. */
        String hint;

        Tokens(String sql) {
            this.sql = sql;
            this.lexer = new MySqlLexer(sql).runExecutableComments().reportComments();
        }

        /** The next token, or null at the end. */
        String next() {
            while (lexer.next()) {
                int start = lexer.start();
                int end = lexer.end();
                switch (lexer.kind()) {
                    case COMMENT, OPTIMIZER_HINT -> readHint();
                    case WORD -> {
                        String keyword = Keywords.find(sql, start, end);
                        return keyword != null ? keyword : sql.substring(start, end);
                    }
                    case SYMBOL -> {
                        char c = sql.charAt(start);
                        return c < ONE_CHAR.length ? ONE_CHAR[c] : String.valueOf(c);
                    }
                    default -> {
                        return sql.substring(start, end);
                    }
                }
            }
            return null;
        }

        int start() {
            return lexer.start();
        }

        int end() {
            return lexer.end();
        }

        /** {@code /* strata:primary *}{@code /} (or {@code /*+ strata:replica *}{@code /}): a routing hint. */
        private void readHint() {
            int start = lexer.start();
            if (sql.charAt(start) != '/') {
                return; // a line comment
            }
            String body = sql.substring(start + 2, lexer.unterminated() ? lexer.end() : lexer.end() - 2).strip();
            if (body.startsWith("+")) {
                body = body.substring(1).strip();
            }
            if (body.regionMatches(true, 0, "strata:", 0, 7)) {
                hint = body.substring(7).strip().toLowerCase(Locale.ROOT);
            }
        }
    }
}
