package io.strata.backend.connection;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the server parsed a prepared statement in, which the statement keeps whatever its session sets later, as
 * MariaDB keeps it: the character set its literals were read in and their collation (a literal 'ł' read as latin1
 * is '?'), and its sql_mode (under ANSI_QUOTES {@code "q"} is a column, not a string; NO_BACKSLASH_ESCAPES reads
 * literals otherwise). An execute runs a backend statement of its own parse state only.
 *
 * @param names     the connection's SET NAMES text ({@code x} or {@code x COLLATE y})
 * @param collation collation_connection when set apart from SET NAMES, else {@link #AS_NAMES_GAVE}
 * @param sqlMode   sql_mode when a session set it, else null (the server's own)
 */
public record ParseState(String names, String collation, String sqlMode) {

    /** A variable SET NAMES set, as it left it (a value no server variable has). */
    static final String AS_NAMES_GAVE = new String("as SET NAMES gave it");

    /** Whether this is the state of those values (the character set's name in any case, as a sync compares it). */
    boolean is(String names, String collation, String sqlMode) {
        return StateSync.sameNames(this.names, names) && Objects.equals(this.collation, collation)
                && Objects.equals(this.sqlMode, sqlMode);
    }

    public boolean same(ParseState other) {
        return is(other.names, other.collation, other.sqlMode);
    }

    /** A session's tracked variables with this state's collation_connection and sql_mode in place of its own. */
    public Map<String, String> variables(Map<String, String> session) {
        Map<String, String> variables = withSqlMode(session, sqlMode);
        if (collation == AS_NAMES_GAVE) {
            variables.remove("collation_connection");
        } else {
            variables.put("collation_connection", collation);
        }
        return variables;
    }

    /** A copy of tracked variables with {@code sqlMode} for sql_mode (null: the server's own, so none). */
    public static Map<String, String> withSqlMode(Map<String, String> tracked, String sqlMode) {
        Map<String, String> variables = new HashMap<>(tracked); // not Map.copyOf: a value may be NULL
        if (sqlMode == null) {
            variables.remove("sql_mode");
        } else {
            variables.put("sql_mode", sqlMode);
        }
        return variables;
    }
}
