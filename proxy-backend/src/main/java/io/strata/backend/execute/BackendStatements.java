package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendStatement;
import io.strata.backend.connection.ParseState;
import io.strata.backend.connection.StateSync;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.execute.StatementRunner.Command;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.protocol.CommandType;
import io.strata.protocol.MySQLException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Maps a client's prepared statement onto the backend connection that runs it: prepares it there when the
 * connection does not hold it yet, and rewrites the client's command to carry the backend's statement id (and the
 * parameter types, when the backend statement holds other ones).
 */
final class BackendStatements {

    private BackendStatements() {
    }

    /** The client's command with the backend's statement id, and the client's parameter types if the backend lacks them. */
    static ByteBuf forBackend(Command command, PreparedStatement statement, BackendStatement backend) {
        ByteBuf payload = command.payload();
        ComStmtExecute.statementId(payload, backend.id());
        if (command.kind() != ResponseKind.QUERY || statement.params() == 0) {
            return payload;
        }
        byte[] types = ComStmtExecute.types(payload, statement.params());
        if (types != null) {
            statement.types(types);
            backend.boundTypes(types);
            return payload;
        }
        if (statement.types() == null || Arrays.equals(statement.types(), backend.boundTypes())) {
            return payload;
        }
        ByteBuf withTypes = ComStmtExecute.withTypes(payload, statement.params(), statement.types());
        payload.release();
        backend.boundTypes(statement.types());
        return withTypes;
    }

    /**
     * The backend statement the connection holds for the session's statement, or null: the one of its last execute
     * when this is the same connection and still caches it, else looked up by SQL (and remembered for next time).
     */
    static BackendStatement on(BackendConnection connection, PreparedStatement statement) {
        BackendStatement last = statement.lastBackend(connection);
        if (last != null && connection.holds(last)) {
            return last;
        }
        BackendStatement found = connection.statement(statement.sql(), statement.parsedIn());
        statement.lastBackend(connection, found);
        return found;
    }

    /**
     * The backend statement for the session's statement on this connection, prepared now (its response consumed) if
     * missing. A statement the session prepared before it set another character set or sql_mode is prepared in that
     * earlier state, as the server keeps its parse, and the connection is then given the session's state again
     * ({@code names}, {@code variables}): two round trips more, only then.
     */
    static CompletableFuture<BackendStatement> prepared(BackendConnection connection, PreparedStatement statement,
                                                        String names, Map<String, String> variables) {
        ParseState parsedIn = statement.parsedIn();
        BackendStatement cached = connection.statement(statement.sql(), parsedIn);
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        if (connection.parseState().same(parsedIn)) {
            return prepareHere(connection, statement);
        }
        boolean multi = connection.multiStatements();
        boolean autocommit = connection.autocommit();
        return StateSync.sync(connection, null, parsedIn.names(), multi, autocommit, parsedIn.variables(variables))
                .thenCompose(c -> prepareHere(c, statement))
                .thenCompose(backend -> StateSync.sync(connection, null, names, multi, autocommit, variables)
                        .thenApply(c -> backend));
    }

    /** Prepares the statement in the connection's present state and caches it there. */
    private static CompletableFuture<BackendStatement> prepareHere(BackendConnection connection,
                                                                   PreparedStatement statement) {
        CompletableFuture<BackendStatement> result = new CompletableFuture<>();
        PrepareCapture capture = new PrepareCapture(-1);
        ByteBuf prepare = StateSync.command(connection.channel().alloc(), CommandType.COM_STMT_PREPARE,
                statement.sql(), StandardCharsets.ISO_8859_1); // the client's bytes: see PreparedStatement.sql()
        connection.execute(prepare, ResponseKind.PREPARE, new ResponseListener() {
            @Override
            public void onPacket(ByteBuf packet) {
                capture.tap(packet).release();
            }

            @Override
            public void onComplete(ResponseSummary summary) {
                if (summary.failed()) {
                    result.completeExceptionally(new MySQLException(summary.error()));
                    return;
                }
                BackendStatement backend = capture.statement();
                connection.statement(statement.sql(), backend);
                result.complete(backend);
            }

            @Override
            public void onFailure(Throwable cause) {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }
}
