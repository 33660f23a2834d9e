package io.strata.rule;

import io.strata.rule.sql.SqlStatementInfo;

/**
 * What a rule may know of a statement: the logical database it runs in, what the classifier found, and the session
 * facts routing depends on.
 *
 * @param statement        what the classifier found; null for commands without SQL (COM_FIELD_LIST...)
 * @param inTransaction    the session is inside a transaction (explicit, or autocommit off)
 * @param pinnedDataSource the data source holding this session's server-side state (transaction, temporary tables,
 *                         user variables, locks...), where its statements must run; null when it holds none
 * @param keepsState       the command leaves state on its connection (a cursor, long data) that later commands need
 * @param prepare          a COM_STMT_PREPARE: nothing runs yet, so it counts neither as a read nor as a write
 * @param session          routing's memory of the session
 */
public record StatementContext(String database, SqlStatementInfo statement, boolean inTransaction,
                               String pinnedDataSource, boolean keepsState, boolean prepare,
                               SessionRouteState session) {

    /** A plain statement of a session without state. */
    public StatementContext(String database, SqlStatementInfo statement, boolean inTransaction) {
        this(database, statement, inTransaction, null, false, false, new SessionRouteState());
    }
}
