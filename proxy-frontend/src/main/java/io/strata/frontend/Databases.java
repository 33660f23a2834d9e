package io.strata.frontend;

import io.netty.channel.EventLoop;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.StateSync;
import io.strata.config.DatabaseConfig;
import io.strata.config.UserConfig;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.concurrent.CompletableFuture;

/**
 * What a database name a client asks for (at connect, USE, COM_INIT_DB, COM_CHANGE_USER) means: a logical database,
 * or, in a logical database with {@code exposeSchemas}, another schema of its data sources, which the backend judges
 * (it exists, and its account may use it).
 */
public final class Databases {

    /**
     * @param database the logical database the session is then in
     * @param schema   the backend schema it runs in, or null for its data sources' own
     */
    public record Choice(String database, String schema) {
    }

    private Databases() {
    }

    /**
     * Resolves {@code name}: a logical database the user may use at once; else a schema of {@code current}'s data
     * sources (or of the first database the user may use, when none is current) if that database exposes them,
     * once the backend accepted it there (COM_INIT_DB on a connection of its default data source). The future fails
     * with MySQL's error: 1044 or 1049 as the server orders them, or the backend's own.
     *
     * @param flavor the client's flavor ({@code Session.flavor()}), for the connection asked
     * @param loop   the client's event loop, where that connection comes from
     */
    public static CompletableFuture<Choice> resolve(FrontendContext context, UserConfig user, String host,
                                                    String name, String current, int flavor, EventLoop loop) {
        if (user.mayUse(name) && context.config().databases().containsKey(name)) {
            return CompletableFuture.completedFuture(new Choice(name, null));
        }
        DatabaseConfig exposing = exposing(context, user, current);
        if (exposing == null) {
            // MySQL's order: an unknown database is 1049 for users who may see every database, 1044 for the others
            return CompletableFuture.failedFuture(user.mayUse(name)
                    ? ErrorCode.BAD_DB.exception(name) : ErrorCode.DB_ACCESS_DENIED.exception(user.name(), host, name));
        }
        BackendPool pool = context.backends().pool(exposing.databaseName(), exposing.defaultDataSource().name());
        return pool.acquire(flavor, loop).thenCompose(connection -> initDb(connection, name))
                .thenApply(ignored -> new Choice(exposing.databaseName(), name));
    }

    /** COM_INIT_DB on the connection, which goes back to its pool whatever the answer. */
    private static CompletableFuture<Void> initDb(BackendConnection connection, String schema) {
        return StateSync.run(connection, StateSync.command(connection.channel().alloc(), CommandType.COM_INIT_DB,
                schema)).handle((c, failure) -> {
                    Throwable error = failure instanceof java.util.concurrent.CompletionException
                            && failure.getCause() != null ? failure.getCause() : failure;
                    if (error == null) {
                        connection.schema(schema);
                    }
                    if (error == null || error instanceof MySQLException) {
                        connection.pool().release(connection); // the server answered: the connection is fine
                    } else {
                        connection.pool().discard(connection);
                    }
                    if (error != null) {
                        throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
                    }
                    return null;
                });
    }

    /**
     * Where a session that chose no database runs its statements: the first database the user may use that exposes
     * its backend's schemas (a client of no database is a client of the backend, and a USE of one of its schemas
     * then stays on the same data sources), else the first the user may use; null when the user may use none.
     */
    public static String defaultFor(FrontendContext context, UserConfig user) {
        DatabaseConfig exposing = exposing(context, user, null);
        return exposing != null ? exposing.databaseName() : context.config().databases().keySet().stream()
                .filter(user::mayUse).findFirst().orElse(null);
    }

    /**
     * The logical database whose backend schemas a session of {@code user} in {@code current} (null: none chosen
     * yet) may use: {@code current} when it exposes them, else the first database the user may use that does; null
     * when there is none.
     */
    public static DatabaseConfig exposing(FrontendContext context, UserConfig user, String current) {
        DatabaseConfig database = current == null ? null : context.config().databases().get(current);
        if (database != null) {
            return database.exposeSchemas() ? database : null;
        }
        return context.config().databases().values().stream()
                .filter(d -> d.exposeSchemas() && user.mayUse(d.databaseName())).findFirst().orElse(null);
    }

    /**
     * Where CREATE or DROP DATABASE (or SCHEMA) runs: in the session's logical database ({@code current}), or with
     * none chosen yet, in the first the user may use that exposes its backend's schemas (where its USE of the new
     * schema would go). A database that does not expose them refuses it: no client could then USE the schema it
     * made (and one it drops may be another logical database's). Null for any other statement.
     */
    public static String schemaStatementDatabase(FrontendContext context, UserConfig user, String host,
                                                 SqlStatementInfo info, String current) {
        int at = schemaKeywordAt(info);
        if (at < 0) {
            return null;
        }
        DatabaseConfig exposing = exposing(context, user, current);
        if (exposing != null) {
            return exposing.databaseName();
        }
        String database = current != null ? current : defaultFor(context, user);
        throw new MySQLException(new ErrPacket(ErrorCode.DB_ACCESS_DENIED.code(), "42000", "Access denied for user '"
                + user.name() + "'@'" + host + "' to database '" + unquotedName(info, at + 1) + "': the logical "
                + "database '" + database + "' does not expose its backend's schemas, so no client could use a "
                + "schema made through Strata (exposeSchemas: true in config-" + database + ".yaml allows it)"));
    }

    /** The position of DATABASE / SCHEMA in CREATE [OR REPLACE] {DATABASE | SCHEMA} or DROP ..., else -1. */
    private static int schemaKeywordAt(SqlStatementInfo info) {
        if (info.kind() != SqlKind.DDL || info.multiStatement()) {
            return -1;
        }
        int at = info.tokenIs(0, "CREATE") && info.tokenIs(1, "OR") && info.tokenIs(2, "REPLACE") ? 3 : 1;
        boolean verb = info.tokenIs(0, "CREATE") || info.tokenIs(0, "DROP");
        return verb && (info.tokenIs(at, "DATABASE") || info.tokenIs(at, "SCHEMA")) ? at : -1;
    }

    /** The schema's name: past IF [NOT] EXISTS, without quotes. */
    private static String unquotedName(SqlStatementInfo info, int at) {
        int i = at;
        if (info.tokenIs(i, "IF")) {
            i += info.tokenIs(i + 1, "NOT") ? 3 : 2;
        }
        return io.strata.rule.sql.SqlClassifier.unquote(info.token(i));
    }
}
