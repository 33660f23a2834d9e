package io.strata.frontend.command;

import io.strata.config.UserConfig;
import io.strata.frontend.Databases;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.packet.ColumnDefinition41;
import io.strata.frontend.packet.LocalResultSet;
import io.strata.protocol.Charsets;
import io.strata.kernel.Session;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLException;
import io.strata.rule.SessionRouteState;

import java.util.Arrays;
import java.util.Locale;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Statements Strata answers itself because only it knows the answer: the logical databases (which clients see in
 * place of the backends' schemas), the session's own connection id, last insert id, row count and found rows (the
 * backend connection behind a session changes from statement to statement), the status of the data sources, and the
 * session's read switch.
 */
final class LocalQueries {

    private LocalQueries() {
    }

    /** A result set for the statement, or empty when the statement goes to a backend. */
    static Optional<LocalResultSet> answer(FrontendContext context, Session session, SqlStatementInfo info) {
        if (info.multiStatement()) {
            return Optional.empty();
        }
        List<String> t = info.tokens();
        if (info.kind() == SqlKind.SHOW && t.size() >= 2
                && (info.tokenIs(1, "DATABASES") || info.tokenIs(1, "SCHEMAS"))) {
            return showDatabases(context, session, t);
        }
        if (info.kind() == SqlKind.SHOW && t.size() == 4 && info.tokenIs(1, "STRATA") && info.tokenIs(2, "DATA")
                && info.tokenIs(3, "SOURCES")) {
            return Optional.of(DataSourcesStatus.resultSet(context, session));
        }
        if (info.kind() == SqlKind.SELECT && t.size() == 2 && isReadFrom(t.get(1))) {
            return Optional.of(LocalResultSet.single(ColumnDefinition41.varchar(t.get(1)),
                    session.routeState().readFrom().name().toLowerCase(Locale.ROOT)));
        }
        if (info.kind() == SqlKind.SELECT && t.size() == 4 && t.get(2).equals("(") && t.get(3).equals(")")) {
            return function(session, t.get(1), context.backendIsMariaDb());
        }
        return Optional.empty();
    }

    /**
     * {@code SELECT f()} of a function whose answer is the session's own; the column is named as written.
     *
     * @param mariaDb the backends are MariaDB (not MySQL), whose column definitions the answer copies
     */
    private static Optional<LocalResultSet> function(Session session, String name, boolean mariaDb) {
        String column = name + "()";
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "DATABASE", "SCHEMA" -> {
                int collation = session.state().resultsCollation();
                yield Optional.of(LocalResultSet.single(ColumnDefinition41.databaseFunction(column, mariaDb,
                        collation, Charsets.maxBytesPerChar(collation)), session.state().databaseShown()));
            }
            case "LAST_INSERT_ID" -> session.state().lastInsertIdOnServer() ? Optional.empty()
                    : Optional.of(LocalResultSet.single(ColumnDefinition41.integerFunction(column, true),
                            Long.toUnsignedString(session.state().lastInsertId())));
            case "CONNECTION_ID" -> Optional.of(LocalResultSet.single(
                    ColumnDefinition41.integerFunction(column, true), session.connectionId()));
            // The server connection may have run another session's statement since: it would answer for that one.
            case "ROW_COUNT" -> session.state().countsOnServer() ? Optional.empty() : Optional.of(LocalResultSet.single(
                    ColumnDefinition41.integerFunction(column, false), session.state().rowCount()));
            case "FOUND_ROWS" -> session.state().countsOnServer() ? Optional.empty() : Optional.of(LocalResultSet.single(
                    ColumnDefinition41.integerFunction(column, false), session.state().foundRows()));
            default -> Optional.empty();
        };
    }

    /**
     * {@code SET [SESSION] strata_read_from = 'primary' | 'replica' | 'auto'}: where this session's reads go until it
     * says otherwise or resets. False when the statement is something else.
     *
     * @throws io.strata.protocol.MySQLException 1231 for a value that is none of those
     */
    static boolean setReadFrom(Session session, SqlStatementInfo info) {
        if (info.kind() != SqlKind.SET || info.multiStatement()) {
            return false;
        }
        List<String> t = info.tokens();
        int at = info.tokenIs(1, "SESSION") ? 2 : 1;
        if (t.size() != at + 3 || !isReadFrom(t.get(at)) || !t.get(at + 1).equals("=")) {
            return false;
        }
        String value = SqlClassifier.unquote(t.get(at + 2));
        try {
            session.routeState().readFrom(SessionRouteState.ReadFrom.valueOf(value.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new MySQLException(new ErrPacket(1231, "42000", "Variable 'strata_read_from' can't be set to the "
                    + "value of '" + value + "' (use 'primary', 'replica' or 'auto')"));
        }
        return true;
    }

    private static boolean isReadFrom(String token) {
        String name = token.toLowerCase(Locale.ROOT);
        return name.equals("strata_read_from") || name.equals("@@strata_read_from")
                || name.equals("@@session.strata_read_from");
    }

    /**
     * SHOW DATABASES: the logical databases the user may use; in one that exposes its backend's schemas, the
     * backend's answer (the schemas its account sees), as a client of that backend expects.
     */
    private static Optional<LocalResultSet> showDatabases(FrontendContext context, Session session, List<String> t) {
        UserConfig user = context.authenticator().loggedIn(session.user());
        if (Databases.exposing(context, user, session.state().database()) != null) {
            return Optional.empty();
        }
        Pattern like = t.size() >= 4 && t.get(2).equalsIgnoreCase("LIKE") ? likePattern(t.get(3)) : null;
        if (t.size() > 2 && like == null) {
            return Optional.empty();
        }
        List<List<Object>> rows = context.config().databases().keySet().stream()
                .filter(user::mayUse)
                .filter(name -> like == null || like.matcher(name).matches())
                .map(name -> Arrays.<Object>asList(name))
                .toList();
        String header = like == null ? "Database" : "Database (" + SqlClassifier.unquote(t.get(3)) + ")";
        return Optional.of(new LocalResultSet(List.of(ColumnDefinition41.varchar(header)), rows));
    }

    /** A quoted SQL LIKE pattern as a regex. */
    static Pattern likePattern(String quoted) {
        return io.strata.rule.sql.SqlLike.pattern(SqlClassifier.unquote(quoted));
    }
}
