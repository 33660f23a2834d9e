package io.strata.rule.sql;

import java.util.List;

/**
 * What the classifier found in the text of one COM_QUERY.
 *
 * @param kind           the first statement's kind
 * @param tokens         the first statement's tokens (comments dropped, quotes kept), at most
 *                       {@link SqlClassifier#MAX_TOKENS}
 * @param multiStatement more than one statement in the text
 * @param pinsSession    the text leaves state on the server connection that later statements may need (user
 *                       variables, temporary tables, locks, untracked session variables...): the session must keep
 *                       its backend connection from then on
 * @param charset        for {@code SET NAMES x} / {@code SET CHARACTER SET x}: the character set as SET NAMES takes
 *                       it, {@code x} or {@code x COLLATE y}, else null (the collation {@code SET CHARACTER SET}
 *                       gives the connection is the tracked {@code collation_connection})
 * @param trackedVariables session variables a SET assigns that Strata follows and replays on any backend connection
 *                       ({@link SqlClassifier#TRACKED_VARIABLES}), instead of pinning the session
 * @param statementTokens every token of the text when it holds one statement (for rules that look past
 *                       {@code tokens}), else null (several statements, or too long to keep)
 * @param hint           what a {@code /* strata:... *}{@code /} comment asks for ("primary", "replica"), else null
 * @param readsLastInsertId the text calls {@code LAST_INSERT_ID()}: the server connection it runs on must hold the
 *                       session's last insert id, which other sessions' inserts on a shared connection change
 * @param setsLastInsertId the text may set the session's last insert id on its server connection without its response
 *                       showing the value: it calls {@code LAST_INSERT_ID(expr)}, or it is a {@code CALL} (the
 *                       procedure's inserts); both pin the session
 * @param hidesCounts    the text runs what {@code ROW_COUNT()} and {@code FOUND_ROWS()} read afterwards without its
 *                       response showing it: a {@code CALL} (the procedure's own statements) or a
 *                       {@code SQL_CALC_FOUND_ROWS} select (the rows found beyond its LIMIT); both pin the session
 * @param sql            the text classified, for the rules that parse it further (never null; "" when unknown)
 */
public record SqlStatementInfo(SqlKind kind, List<String> tokens, boolean multiStatement, boolean pinsSession,
                               String charset, List<String> trackedVariables, List<String> statementTokens,
                               String hint, boolean readsLastInsertId, boolean setsLastInsertId,
                               boolean hidesCounts, String sql) {

    public SqlStatementInfo(SqlKind kind, List<String> tokens, boolean multiStatement, boolean pinsSession,
                            String charset) {
        this(kind, tokens, multiStatement, pinsSession, charset, List.of(), null, null, false, false, false, "");
    }

    /**
     * Whether this is a single SELECT that only reads table data (no lock, no INTO, no data change inside, no
     * function reading the session's history or taking a lock): a replica may answer it. Judged on each call, so
     * the statements of databases without read/write splitting never pay for it.
     */
    public boolean readOnly() {
        return kind == SqlKind.SELECT && !multiStatement && !pinsSession && statementTokens != null
                && SqlClassifier.replicaSafe(statementTokens);
    }

    /**
     * Whether the statement surely reads or writes a table. The server clears its list of warnings (what SHOW
     * WARNINGS and {@code @@warning_count} read) at the start of such a statement only: one that reads no table and
     * raises nothing (SELECT 1, SET, COMMIT) leaves the earlier warnings in place. Unsure (a long or multi-statement
     * text, DDL, SHOW) is false. Judged on each call: asked only while the session keeps warnings.
     */
    public boolean usesTable() {
        if (multiStatement) {
            return false;
        }
        return switch (kind) {
            case INSERT, UPDATE, DELETE, REPLACE -> true;
            case SELECT -> SqlClassifier.readsTable(tokens);
            default -> false;
        };
    }

    /**
     * SHOW WARNINGS and SHOW ERRORS: they read what the statement before left, and FOUND_ROWS() still counts that
     * statement's rows afterwards (ROW_COUNT() is -1, as after any result set). SHOW COUNT(*) WARNINGS is not one of
     * them: the server runs it as a SELECT of {@code @@warning_count}, which counts as one found row.
     */
    public boolean diagnostic() {
        return kind == SqlKind.SHOW && !multiStatement && (tokenIs(1, "WARNINGS") || tokenIs(1, "ERRORS"));
    }

    /**
     * The schema a single {@code DROP DATABASE | SCHEMA [IF EXISTS] name} drops, unquoted, else null: the server
     * leaves a connection that was in it in none.
     */
    public String droppedSchema() {
        if (kind != SqlKind.DDL || multiStatement || !tokenIs(0, "DROP")
                || !(tokenIs(1, "DATABASE") || tokenIs(1, "SCHEMA"))) {
            return null;
        }
        return SqlClassifier.unquote(token(tokenIs(2, "IF") ? 4 : 2));
    }

    /**
     * Whether the statement may change data (what a session's reads then wait for on replicas, and what a data
     * source counts as a write). SELECT, SHOW, SET, USE and empty statements do not.
     */
    public boolean mayWrite() {
        return kind != SqlKind.SELECT && kind != SqlKind.SHOW && kind != SqlKind.SET && kind != SqlKind.USE
                && kind != SqlKind.EMPTY;
    }

    /**
     * Whether the statement ends an open transaction, as a whole: COMMIT, ROLLBACK (not to a savepoint), BEGIN or
     * START TRANSACTION (which commit the one before), and {@code SET autocommit = 1} (which commits too). A
     * transaction over several data sources ends on all of them.
     */
    public boolean endsTransaction() {
        if (multiStatement) {
            return false;
        }
        return switch (kind) {
            case COMMIT, ROLLBACK, BEGIN -> true;
            case SET -> Boolean.TRUE.equals(autocommitSet());
            default -> false;
        };
    }

    /**
     * The value of {@code SET [SESSION | @@SESSION. | @@] autocommit = 1 | ON | TRUE | 0 | OFF | FALSE}, alone; null
     * for any other statement.
     */
    public Boolean autocommitSet() {
        int at = tokenIs(1, "SESSION") ? 2 : 1;
        String name = token(at).toLowerCase(java.util.Locale.ROOT);
        if (kind != SqlKind.SET || multiStatement || !name.equals("autocommit") && !name.equals("@@autocommit")
                && !name.equals("@@session.autocommit") || !token(at + 1).equals("=") || tokens.size() != at + 3) {
            return null;
        }
        String value = token(at + 2).toUpperCase(java.util.Locale.ROOT);
        return switch (value) {
            case "1", "ON", "TRUE" -> true;
            case "0", "OFF", "FALSE" -> false;
            default -> null;
        };
    }

    /** The token at {@code index}, or "" past the end. */
    public String token(int index) {
        return index < tokens.size() ? tokens.get(index) : "";
    }

    public boolean tokenIs(int index, String keyword) {
        return token(index).equalsIgnoreCase(keyword);
    }
}
