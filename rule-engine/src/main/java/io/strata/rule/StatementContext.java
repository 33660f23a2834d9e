package io.strata.rule;

import io.strata.rule.sql.SqlStatementInfo;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a rule may know of a statement: the logical database it runs in, what the classifier found, and the session
 * facts routing depends on. Read only: rules change nothing here.
 *
 * @param statement     what the classifier found; null for commands without SQL (COM_FIELD_LIST...)
 * @param inTransaction the session is inside a transaction (explicit, or autocommit off)
 * @param held          the data sources where the session holds server-side state, and of what kind
 * @param keepsState    the command leaves state on its connection (a cursor, long data) that later commands need
 * @param session       what routing remembers of the session (its read switch, its last write)
 * @param parameters    a prepared statement's parameter values for this execute, decoded when a rule asks (the
 *                      relay passes them on undecoded); empty for a text statement; null values are SQL NULLs
 * @param preparing     the statement is being prepared (COM_STMT_PREPARE): nothing runs yet, its {@code ?} have no
 *                      values, and the route's first unit answers with the statement's parameters and columns
 */
public record StatementContext(String database, SqlStatementInfo statement, boolean inTransaction,
                               Map<String, Hold> held, boolean keepsState, SessionRouteState session,
                               Supplier<List<Object>> parameters, boolean preparing) {

    /** What a session holds on a data source's connection. */
    public enum Hold {
        /** A transaction, session variables, locks, temporary tables...: the session's statements must go there. */
        STATE,
        /** Only the last statement's warnings: reads and SHOW WARNINGS stay there, anything else may go elsewhere. */
        WARNINGS
    }

    private static final Supplier<List<Object>> NONE = List::of;

    public StatementContext {
        held = held == null || held.isEmpty() ? Map.of() : Map.copyOf(held);
        parameters = parameters == null ? NONE : parameters;
    }

    /** An execute or a text statement. */
    public StatementContext(String database, SqlStatementInfo statement, boolean inTransaction,
                            Map<String, Hold> held, boolean keepsState, SessionRouteState session,
                            Supplier<List<Object>> parameters) {
        this(database, statement, inTransaction, held, keepsState, session, parameters, false);
    }

    /** A statement without parameters. */
    public StatementContext(String database, SqlStatementInfo statement, boolean inTransaction,
                            Map<String, Hold> held, boolean keepsState, SessionRouteState session) {
        this(database, statement, inTransaction, held, keepsState, session, NONE);
    }

    /** The same facts about another statement (the text a query rule rewrote). */
    public StatementContext withStatement(SqlStatementInfo other) {
        return new StatementContext(database, other, inTransaction, held, keepsState, session, parameters, preparing);
    }

    /** A plain statement of a session without state. */
    public StatementContext(String database, SqlStatementInfo statement, boolean inTransaction) {
        this(database, statement, inTransaction, Map.of(), false, new SessionRouteState());
    }
}
