package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundInvoker;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.BackendStatement;
import io.strata.backend.connection.StateSync;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.Backends;
import io.strata.backend.deadlock.DeadlockDetector;
import io.strata.backend.relay.RelayListener;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.ServerStatus;
import io.strata.rule.sql.SqlClassifier;
import io.strata.rule.sql.SqlKind;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.strata.rule.ResultMerge;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.StatementContext.Hold;

import java.util.List;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The relay executor's side of a client connection: borrows a native backend connection (or uses the one the
 * session keeps), makes its session state equal, sends the client's command as it came and relays the response
 * untouched. Non-blocking throughout.
 *
 * <p>The relay executor's central algorithm (borrow, sync, send, relay, keep or return), for plain and prepared
 * statements alike.
 */
public final class RelayRunner implements StatementRunner {

    private static final Logger LOG = LoggerFactory.getLogger(RelayRunner.class);

    private Backends backends;
    private final Channel client;
    /** Where relayed packets are written to the client from: past its encoder. */
    private final ChannelOutboundInvoker clientWire;
    private final SessionState session;
    private final Completion completion;
    /** The connections the session holds, on every data source it has state on. */
    private final NativeConnections connections;
    /** LOAD DATA LOCAL INFILE: the client is sending its file (client loop only). */
    private boolean sendingFile;
    private volatile BackendConnection inFlight;

    public RelayRunner(Backends backends, Channel client, SessionState session, Completion completion) {
        this.backends = backends;
        this.client = client;
        this.clientWire = PacketEncoder.wire(client);
        this.session = session;
        this.completion = completion;
        this.connections = new NativeConnections(session, client.eventLoop());
    }

    @Override
    public void run(Command command) {
        List<BackendConnection> open = command.info() != null && command.info().endsTransaction()
                ? connections.inTransaction() : List.of();
        if (reachesOthers(open, command)) {
            // COMMIT, ROLLBACK...: to every data source the session's transaction reached, as one statement
            List<RouteUnit> units = open.stream().map(c -> new RouteUnit(c.dataSource())).toList();
            fanOut(command, new RouteResult(units, ResultMerge.ONE_COPY, false), null);
            return;
        }
        withConnection(command, null, error -> { }, this::run, connection ->
                start(connection, command.payload(), command.kind(), command.info(), command.next(), null,
                        summary -> {
                            if (!summary.failed()) {
                                session.ranOnBackend(command.database(), command.info());
                            }
                        }, Retry.of(command, this::run)));
    }

    /** Whether the session's open transaction spans another data source than the command's own. */
    private static boolean reachesOthers(List<BackendConnection> open, Command command) {
        for (BackendConnection connection : open) {
            if (!connection.dataSource().equals(command.dataSource())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void fanOut(Command command, RouteResult route, PreparedStatement statement) {
        new NativeFanOut(backends, connections, session, completion, client, command, route, statement).run();
    }

    /**
     * COM_STMT_PREPARE: answered from the backend connection's statement cache when it already holds the SQL, else
     * relayed with the backend's statement id replaced by the client's.
     */
    @Override
    public void prepare(Command command, int clientId) {
        withConnection(command, null, error -> session.prepareFailed(), again -> prepare(again, clientId),
                connection -> {
                    // read-only, the server refuses to prepare a write: the cache, of any session, would not
                    boolean refusable = session.readOnly() && command.info().kind() != SqlKind.SELECT;
                    BackendStatement cached = refusable ? null : connection.statement(command.sql());
                    if (cached != null) {
                        command.payload().release();
                        client.write(PrepareCapture.forClient(cached, clientId, client.alloc()));
                        session.prepared(new PreparedStatement(clientId, command.sql(), command.info(),
                                command.database(), command.schema(), cached.parsedIn(), cached.params(), cached.columns()));
                        connections.keepOrRelease(connection);
                        client.flush();
                        completion.done();
                        return;
                    }
                    PrepareCapture capture = new PrepareCapture(clientId);
                    start(connection, command.payload(), ResponseKind.PREPARE, null, command.next(), capture::tap,
                            summary -> {
                                if (summary.failed()) {
                                    session.prepareFailed();
                                    return;
                                }
                                BackendStatement statement = capture.statement();
                                connection.statement(command.sql(), statement);
                                session.prepared(new PreparedStatement(clientId, command.sql(), command.info(),
                                        command.database(), command.schema(), statement.parsedIn(), statement.params(),
                                        statement.columns()));
                            }, null);
                });
    }

    /**
     * COM_STMT_EXECUTE, COM_STMT_FETCH, COM_STMT_RESET and COM_STMT_SEND_LONG_DATA ({@code command.kind()} null: no
     * response): the statement is prepared on the connection that runs it when needed, and the command goes there
     * with the backend's statement id.
     */
    @Override
    public void runStatement(Command command, PreparedStatement statement) {
        if (command.kind() == ResponseKind.QUERY && statement.info() != null && statement.info().endsTransaction()) {
            List<BackendConnection> open = connections.inTransaction();
            if (reachesOthers(open, command)) {
                // a prepared COMMIT, ROLLBACK, BEGIN...: to every data source the transaction reached, as run() does
                List<RouteUnit> units = open.stream().map(c -> new RouteUnit(c.dataSource())).toList();
                fanOut(command, new RouteResult(units, ResultMerge.ONE_COPY, false), statement);
                return;
            }
        }
        withConnection(command, statement, error -> { }, again -> runStatement(again, statement), connection -> {
            boolean cursorRequested = command.kind() == ResponseKind.QUERY
                    && ComStmtExecute.opensCursor(command.payload());
            // taken before forBackend, which may release the client's payload
            Retry retry = command.kind() == null ? null : Retry.of(command, again -> runStatement(again, statement));
            BackendStatement backend = BackendStatements.on(connection, statement);
            // may replace (and release) the client's payload: read nothing from it after this
            ByteBuf payload = BackendStatements.forBackend(command, statement, backend);
            if (command.kind() == null) {
                connections.statementStateOn(connection);
                connection.send(payload);
                session.longDataPending(true);
                completion.done();
                return;
            }
            start(connection, payload, command.kind(), statement.info(), command.next(), null,
                    summary -> afterStatement(command.kind(), statement, cursorRequested, summary), retry);
        });
    }

    /**
     * Finds the backend connection for a command and continues with it on the client's loop. In the common case (the
     * session's pinned connection, or an idle one of this loop, already in the session's state and holding the
     * statement) that happens at once, with no future and no hand-off; otherwise after borrowing, syncing state and
     * preparing the statement. On failure the client hears the error (long data has no response: it only ends).
     */
    private void withConnection(Command command, PreparedStatement statement, Consumer<Throwable> onError,
                                Consumer<Command> rerun, Consumer<BackendConnection> then) {
        Runnable retry = () -> rerun.accept(command);
        BackendPool pool = backends.pool(command.database(), command.dataSource());
        String schema = command.schemaOn(pool.schema());
        BackendConnection ready;
        try {
            ready = connections.take(pool);
        } catch (RuntimeException e) {
            command.payload().release();
            throw e;
        }
        // what the command runs, if it runs a statement (not a fetch, a reset or long data)
        SqlStatementInfo info = command.kind() == ResponseKind.QUERY ? command.info() : null;
        if (ready != null && connections.readyFor(ready, schema, statement, info)) {
            onLoop(command.next(), () -> {
                if (usable(ready, command.next(), retry)) {
                    then.accept(ready);
                }
            });
            return;
        }
        BiConsumer<BackendConnection, Throwable> found = (connection, error) -> onLoop(command.next(), () -> {
            Command again = error != null && unreachable(error)
                    ? completion.reroute(command, command.payload(), error) : null;
            if (again != null) {
                rerun.accept(again);
            } else if (error != null) {
                command.payload().release();
                onError.accept(error);
                if (command.kind() == null) {
                    completion.done();
                } else {
                    borrowFailed(error, command.next());
                }
            } else if (usable(connection, command.next(), retry)) {
                then.accept(connection);
            }
        });
        if (ready != null) {
            connections.prepareState(ready, schema, statement, info).whenComplete(found);
            return;
        }
        // A full pool hands connections over as they are released; most need nothing more before the command.
        pool.acquire(session.flavor(), client.eventLoop()).whenComplete((connection, error) -> {
            if (error == null && !connections.readyFor(connection, schema, statement, info)) {
                connections.prepareState(connection, schema, statement, info).whenComplete(found);
            } else {
                found.accept(connection, error);
            }
        });
    }

    /**
     * A failure while finding the connection, before the command was sent, that says the data source is gone: no
     * connection could be made (refused, timed out, handshake failed), or the one found broke while its state was
     * being made equal or its statement prepared. Not a full pool, and not an error of the statement itself.
     */
    private static boolean unreachable(Throwable error) {
        int code = MySQLException.toErrPacket(error).errorCode();
        return code == ErrorCode.BACKEND_UNAVAILABLE.code() || code == ErrorCode.BACKEND_LOST.code();
    }

    /**
     * A command that may go to another data source when its own dies before answering: a spare reference to the
     * client's payload to send again, and how to run it again.
     */
    private record Retry(Command command, ByteBuf spare, Consumer<Command> rerun) {
        static Retry of(Command command, Consumer<Command> rerun) {
            return command.retryable() ? new Retry(command, command.payload().retainedDuplicate(), rerun) : null;
        }

        void release() {
            spare.release();
        }

        /**
         * Sends the command to another data source, unless the client has gone or there is none; then the spare is
         * released and false says the caller answers the client.
         */
        boolean elsewhere(Completion completion, Throwable why) {
            Command again = completion.closed() ? null : completion.reroute(command, spare, why);
            if (again == null) {
                spare.release();
                return false;
            }
            rerun.accept(again);
            return true;
        }
    }

    /** Closes a client's statement; backend statements stay cached for other sessions unless a cursor held one. */
    @Override
    public void closeStatement(PreparedStatement statement) {
        session.closeStatement(statement);
    }

    private void afterStatement(ResponseKind kind, PreparedStatement statement, boolean cursorRequested,
                                ResponseSummary summary) {
        int status = Math.max(summary.statusFlags(), 0);
        boolean cursorOpen = ServerStatus.has(status, ServerStatus.CURSOR_EXISTS)
                && !ServerStatus.has(status, ServerStatus.LAST_ROW_SENT);
        switch (kind) {
            case QUERY -> {
                session.longDataPending(false);
                session.cursor(statement, cursorRequested && cursorOpen && !summary.failed());
            }
            case FETCH -> session.cursor(statement, cursorOpen && !summary.failed());
            default -> {
                session.longDataPending(false);
                session.cursor(statement, false);
            }
        }
    }

    /**
     * Runs a step on the client's event loop: at once when already there (a connection of the same loop), else
     * queued. A step that fails unexpectedly answers the client with an error rather than leaving it waiting.
     */
    private void onLoop(int next, Runnable task) {
        Runnable guarded = () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("session {}: command failed in Strata", session.connectionId(), e);
                if (!completion.closed()) {
                    completion.fail(next, MySQLException.toErrPacket(e));
                }
            }
        };
        onLoop(guarded);
    }

    /**
     * A pooled connection can die while idle (the server restarted, or killed it) after the pool handed it out. Nothing
     * was sent on it yet, so the command simply goes to another connection. The session's pinned connection is
     * different: what lived on it (a transaction...) is gone, and the client must hear so.
     */
    private boolean usable(BackendConnection connection, int next, Runnable retry) {
        if (connection.isActive()) {
            return true;
        }
        boolean wasPinned = connections.holds(connection);
        connections.forget(connection);
        connection.pool().discard(connection);
        if (wasPinned) {
            session.lostServerState();
            completion.fail(next, ErrorCode.BACKEND_LOST.packet(connection.pool().config().describe(),
                    "the connection holding this session's transaction or state was closed"));
        } else {
            retry.run();
        }
        return false;
    }

    private void start(BackendConnection connection, ByteBuf payload, ResponseKind kind, SqlStatementInfo info,
                       int next, UnaryOperator<ByteBuf> tap, Consumer<ResponseSummary> after, Retry retry) {
        if (completion.closed() || !client.isActive()) {
            payload.release();
            if (retry != null) {
                retry.release();
            }
            connections.giveBack(connection);
            return;
        }
        connections.running(connection);
        inFlight = connection;
        session.running(() -> StateSync.killQuery(connection));
        connection.execute(payload, kind, new RelayListener(client, clientWire, tap,
                summary -> {
                    if (retry != null) {
                        retry.release();
                    }
                    finish(connection, summary, info, after);
                },
                error -> broken(connection, error, next, retry),
                retry == null ? null : summary -> shutDown(connection, summary, next, retry),
                kind == ResponseKind.QUERY ? listener -> onLoop(next, () -> sendLocalFile(connection, listener))
                        : null, () -> interruption(connection)));
    }

    /** The error to send in place of the server's: a deadlock victim's, or the one Strata interrupted for, or null. */
    private ErrPacket interruption(BackendConnection connection) {
        return connection.deadlockVictim() ? DeadlockDetector.victimError(connection) : session.interruption();
    }

    /**
     * LOAD DATA LOCAL INFILE: the server asked for the client's file (the client has the request). The client's
     * packets now go to the backend as they come, with their own sequence ids, up to the empty one that ends the
     * file; the server's answer is then relayed like any other. Reading the client pauses while the backend's socket
     * is full, so a large file never piles up in Strata.
     */
    private void sendLocalFile(BackendConnection connection, RelayListener listener) {
        if (completion.closed()) {
            return;
        }
        sendingFile = true;
        completion.localData(packet -> {
            boolean last = !packet.payload().isReadable();
            sendingFile = !last;
            listener.clientSent(packet.lastSequenceId(), last);
            connection.sendLocalData(packet);
            if (!last && !connection.writable()) {
                client.config().setAutoRead(false); // the listener turns it back on (onBackendWritable)
                if (connection.writable()) {
                    client.config().setAutoRead(true); // it drained before the pause: nobody else will
                }
            }
            return last;
        });
    }

    /**
     * The backend said only that it is shutting down: the read never ran, so it goes to another data source; when
     * there is none the client hears the backend's error.
     */
    private void shutDown(BackendConnection connection, ResponseSummary summary, int next, Retry retry) {
        abandon(connection);
        if (retry.elsewhere(completion, new MySQLException(summary.error()))) {
            return;
        }
        if (!completion.closed()) {
            completion.fail(next, summary.error());
        }
    }

    /** After the backend's last packet: follow the session state it reported, then keep or return the connection. */
    private void finish(BackendConnection connection, ResponseSummary summary, SqlStatementInfo info,
                        Consumer<ResponseSummary> after) {
        inFlight = null;
        session.running(null);
        session.afterStatement(summary.statusFlags(), summary.lastInsertId(),
                summary.warnings(), info, summary.failed());
        session.counted(info, summary.rowCount(), summary.foundRows());
        after.accept(summary);
        if (info != null) {
            if (info.pinsSession()) {
                connection.markDirty();
            }
            if (info.droppedSchema() != null && !summary.failed()) {
                connection.schema(null); // if it was this connection's, the server left it in none
            }
            if (info.kind() == SqlKind.USE && !info.multiStatement() && !summary.failed()) {
                connection.schema(SqlClassifier.unquote(info.token(1)));
            }
            if (info.charset() != null && !summary.failed()) {
                connection.names(info.charset());
            }
        }
        if (info != null && !info.trackedVariables().isEmpty() && !summary.failed()) {
            followVariables(connection, info.trackedVariables());
            return;
        }
        if (connection.takeDeadlockVictim() && summary.failed()) {
            rollBackDeadlocked(connection);
            return;
        }
        if (summary.failed() && (connection.inTransaction() || !session.autocommit())) {
            readStatus(connection);
            return;
        }
        settle(connection);
    }

    /** The command's last step: the connection stays pinned or goes back, and the client's next command may run. */
    private void settle(BackendConnection connection) {
        if (completion.closed()) {
            connections.releaseAll();
            return;
        }
        connections.keepOrRelease(connection);
        completion.done();
    }

    /**
     * The deadlock check killed the session's waiting statement to break a cycle across data sources (the client has
     * 1213): as InnoDB does for its own deadlocks, the whole transaction goes, on every data source it reached.
     */
    private void rollBackDeadlocked(BackendConnection connection) {
        connections.rollBackAll(List.of(connection)).whenComplete((ignored, error) -> onLoop(() -> {
            session.statusFlags(session.statusFlags() & ~ServerStatus.IN_TRANS);
            connections.releaseWarningsOnly(List.of(connection.pool()));
            settle(connection);
        }));
    }

    /**
     * After an error in a transaction, or with autocommit off: the error carried no status, and the server's may have
     * changed (a deadlock rolls the transaction back; with autocommit off a failed statement may have begun one). It
     * is read before the client's next command, which may be one Strata answers with the session's status.
     */
    private void readStatus(BackendConnection connection) {
        StateSync.status(connection).whenComplete((status, error) -> onLoop(() -> {
            if (error != null) {
                LOG.debug("session {}: {}", session.connectionId(), error.getMessage());
            } else {
                session.statusFlags(status);
            }
            settle(connection);
        }));
    }

    /** Runs {@code task} on the client's event loop (at once when already there). */
    private void onLoop(Runnable task) {
        if (client.eventLoop().inEventLoop()) {
            task.run();
        } else {
            client.eventLoop().execute(task);
        }
    }

    /**
     * After a SET of tracked variables: their values are read back on the same connection (the SET may be relative,
     * e.g. CONCAT(@@sql_mode, ...)), so any connection can be made equal later. The client already has its OK; its
     * next command waits for this. If the values cannot be read, the session keeps this connection for good.
     */
    private void followVariables(BackendConnection connection, java.util.List<String> names) {
        StateSync.readVariables(connection, names).whenComplete((values, error) -> onLoop(() -> {
            if (error != null) {
                LOG.debug("session {}: {}", session.connectionId(), error.getMessage());
                session.holdsServerState(true);
                connection.markDirty();
            } else {
                StateSync.follow(session.variables(), values);
                StateSync.follow(connection.variables(), values);
            }
            settle(connection);
        }));
    }

    /**
     * The backend connection broke mid-command: the client gets an error and keeps its session. A read that had
     * sent the client nothing yet goes to another data source instead.
     */
    private void broken(BackendConnection connection, Throwable error, int next, Retry retry) {
        abandon(connection);
        int sent = error instanceof RelayListener.RelayFailure f ? f.lastSequenceId : -1;
        if (retry != null) {
            if (sent < 0 && retry.elsewhere(completion, error)) {
                return;
            }
            if (sent >= 0) {
                retry.release();
            }
        }
        // Whatever lived on that connection (a transaction, variables) is gone with it.
        session.lostServerState();
        if (completion.closed()) {
            return;
        }
        if (sendingFile) {
            // The client is still sending its file and reads nothing before its end: the rest is dropped, then the
            // client hears the error (its next packets are not commands).
            completion.localData(packet -> {
                boolean last = !packet.payload().isReadable();
                int lastSent = packet.lastSequenceId();
                packet.release();
                if (last) {
                    sendingFile = false;
                    completion.fail((lastSent + 1) & 0xFF, MySQLException.toErrPacket(error));
                }
                return last;
            });
            return;
        }
        completion.fail(sent < 0 ? next : (sent + 1) & 0xFF, MySQLException.toErrPacket(error));
    }

    /** The command's backend connection is unusable: the session lets go of it and it leaves the pool. */
    private void abandon(BackendConnection connection) {
        inFlight = null;
        session.running(null);
        connections.forget(connection);
        connection.pool().discard(connection);
    }

    private void borrowFailed(Throwable error, int next) {
        LOG.debug("session {}: no backend connection: {}", session.connectionId(), error.getMessage());
        if (!completion.closed()) {
            completion.fail(next, MySQLException.toErrPacket(error));
        }
    }

    @Override
    public CompletableFuture<Void> releaseSession() {
        return connections.releaseAll();
    }

    @Override
    public void clientClosed() {
        BackendConnection running = inFlight;
        if (running != null) {
            connections.forget(running);
            running.pool().discard(running); // mid-response: it cannot be reused
        }
        connections.releaseAll();
    }

    @Override
    public void writabilityChanged() {
        BackendConnection running = inFlight;
        if (running != null && client.isWritable()) {
            running.resume();
        }
    }

    @Override
    public Map<String, Hold> held() {
        return connections.held();
    }

    @Override
    public void runtimeChanged(Backends backends, io.strata.backend.jdbc.JdbcDataSources jdbc,
                               io.strata.config.StrataConfig config) {
        this.backends = backends;
    }
}
