package io.strata.frontend.command;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.StateSync;
import io.strata.backend.relay.ResponseSummary;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.packet.Responses;
import io.strata.frontend.session.Session;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;

/**
 * The relay executor's side of a client connection: borrows a native backend connection (or uses the one the
 * session keeps), makes its session state equal, sends the client's command as it came and relays the response
 * untouched. Non-blocking throughout.
 */
final class RelayRunner implements StatementRunner {

    private static final Logger LOG = LoggerFactory.getLogger(RelayRunner.class);

    private final FrontendContext context;
    private final ChannelHandlerContext ctx;
    private final Session session;
    private final Completion completion;
    private BackendConnection pinned;
    private volatile BackendConnection inFlight;

    RelayRunner(FrontendContext context, ChannelHandlerContext ctx, Session session, Completion completion) {
        this.context = context;
        this.ctx = ctx;
        this.session = session;
        this.completion = completion;
    }

    @Override
    public void run(Command command) {
        BackendPool pool = context.backends().pool(command.database(), command.dataSource());
        borrow(pool).thenCompose(connection -> StateSync.sync(connection, pool.config().schema(), session.charset(),
                        session.multiStatements()))
                .whenComplete((connection, error) -> ctx.executor().execute(() -> {
                    if (error != null) {
                        command.payload().release();
                        borrowFailed(error, command.next());
                    } else {
                        start(connection, command);
                    }
                }));
    }

    private CompletableFuture<BackendConnection> borrow(BackendPool pool) {
        if (pinned != null && pinned.pool() == pool) {
            return CompletableFuture.completedFuture(pinned);
        }
        if (pinned != null) {
            if (session.needsPinnedConnection()) {
                throw ErrorCode.UNSUPPORTED.exception("moving a session with an open transaction or session "
                        + "state to another data source (" + pinned.dataSource() + " -> " + pool.name() + ")");
            }
            giveBack(unpin());
        }
        return pool.acquire(session.flavor());
    }

    private void start(BackendConnection connection, Command command) {
        if (completion.closed() || !ctx.channel().isActive()) {
            command.payload().release();
            giveBack(connection);
            return;
        }
        pinned = connection;
        inFlight = connection;
        session.running(() -> killQuery(connection));
        connection.execute(command.payload(), command.kind(), new RelayListener(ctx.channel(),
                (summary, lastSeq) -> finish(connection, summary, command.info()),
                error -> broken(connection, error, command.next())));
    }

    /** After the backend's last packet: follow the session state it reported, then keep or return the connection. */
    private void finish(BackendConnection connection, ResponseSummary summary, SqlStatementInfo info) {
        inFlight = null;
        session.running(null);
        session.afterStatement(summary.statusFlags(), summary.failed() ? 0 : summary.lastInsertId(),
                summary.warnings(), info, summary.failed());
        if (info != null) {
            if (info.pinsSession()) {
                connection.markDirty();
            }
            if (info.charset() != null && !summary.failed()) {
                connection.charset(info.charset());
            }
        }
        if (completion.closed()) {
            giveBack(unpin());
            return;
        }
        if (!session.needsPinnedConnection()) {
            unpin();
            connection.pool().release(connection);
        }
        completion.done();
    }

    /** The backend connection broke mid-command: the client gets an error and keeps its session. */
    private void broken(BackendConnection connection, Throwable error, int next) {
        inFlight = null;
        session.running(null);
        unpin();
        connection.pool().discard(connection);
        // Whatever lived on that connection (a transaction, variables) is gone with it.
        session.lostServerState();
        if (completion.closed()) {
            return;
        }
        int lastSeq = error instanceof RelayListener.RelayFailure f ? f.lastSequenceId : -1;
        Responses.err(ctx.channel(), lastSeq < 0 ? next : (lastSeq + 1) & 0xFF, MySQLException.toErrPacket(error));
        completion.done();
    }

    private void borrowFailed(Throwable error, int next) {
        LOG.debug("session {}: no backend connection: {}", session.connectionId(), error.getMessage());
        if (!completion.closed()) {
            Responses.err(ctx.channel(), next, MySQLException.toErrPacket(error));
            completion.done();
        }
    }

    /** KILL QUERY: the backend's own KILL QUERY for the backend thread, sent over another connection. */
    private CompletableFuture<Void> killQuery(BackendConnection running) {
        BackendPool pool = running.pool();
        return pool.acquire(running.flavor())
                .thenCompose(killer -> StateSync.run(killer, StateSync.command(killer.channel().alloc(),
                        CommandType.COM_QUERY, "KILL QUERY " + running.connectionId())))
                .thenAccept(pool::release);
    }

    @Override
    public CompletableFuture<Void> releaseSession() {
        BackendConnection connection = unpin();
        return connection == null ? CompletableFuture.completedFuture(null) : giveBack(connection);
    }

    @Override
    public void clientClosed() {
        BackendConnection running = inFlight;
        if (running != null) {
            unpin();
            running.pool().discard(running); // mid-response: it cannot be reused
        } else {
            releaseSession();
        }
    }

    @Override
    public void writabilityChanged() {
        BackendConnection running = inFlight;
        if (running != null && ctx.channel().isWritable()) {
            running.resume();
        }
    }

    private BackendConnection unpin() {
        BackendConnection connection = pinned;
        pinned = null;
        return connection;
    }

    private CompletableFuture<Void> giveBack(BackendConnection connection) {
        if (connection.busy()) {
            connection.pool().discard(connection);
            return CompletableFuture.completedFuture(null);
        }
        if (!connection.dirty() && !session.inTransaction() && session.autocommit()) {
            connection.pool().release(connection);
            return CompletableFuture.completedFuture(null);
        }
        return StateSync.reset(connection).handle((c, error) -> {
            if (error != null) {
                connection.pool().discard(connection);
            } else {
                connection.pool().release(connection);
            }
            return null;
        });
    }
}
