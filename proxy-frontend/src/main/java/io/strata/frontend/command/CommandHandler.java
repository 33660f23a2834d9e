package io.strata.frontend.command;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseSummary;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.FrontendStats;
import io.strata.frontend.Phases;
import io.strata.frontend.packet.Responses;
import io.strata.backend.execute.ResultWriter;
import io.strata.backend.execute.SessionState;
import io.strata.backend.execute.StatementRunner;
import io.strata.protocol.Charsets;
import io.strata.kernel.Session;
import io.strata.kernel.SessionThread;
import io.strata.kernel.StatementLife;
import io.strata.kernel.StrataRuntime;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.MySQLException;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.OkPacket;
import io.strata.protocol.command.ClientCommand;
import io.strata.protocol.command.ComChangeUser;
import io.strata.protocol.command.ComFieldList;
import io.strata.protocol.command.ComInitDb;
import io.strata.protocol.command.ComPing;
import io.strata.protocol.command.ComProcessKill;
import io.strata.protocol.command.ComQuery;
import io.strata.protocol.command.ComQuit;
import io.strata.protocol.command.ComResetConnection;
import io.strata.protocol.command.ComSetOption;
import io.strata.protocol.command.ComStatistics;
import io.strata.protocol.command.ComStmtClose;
import io.strata.protocol.command.ComStmtExecute;
import io.strata.protocol.command.ComStmtFetch;
import io.strata.protocol.command.ComStmtPrepare;
import io.strata.protocol.command.ComStmtReset;
import io.strata.protocol.command.ComStmtSendLongData;
import io.strata.protocol.command.CommandDecoder;
import io.strata.protocol.command.UnknownCommand;
import io.strata.rule.RouteException;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The command phase of one client connection, the MySQL adapter around the kernel. Commands run one at a time in
 * arrival order (clients may pipeline; reading pauses while they queue): each is decoded into a {@link ClientCommand},
 * passes the kernel's {@link StatementLife} stages, and is answered here (session commands: ping, reset, change user,
 * KILL...) or by {@link StatementCommands} (those carrying a statement, routed and handed to the session's runner).
 * The session closes when idle past server.idleTimeout, and at its next statement boundary when Strata stops.
 * Everything here runs on the client channel's event loop and never blocks.
 */
public final class CommandHandler extends SimpleChannelInboundHandler<MySQLFrame> {

    private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);

    private final FrontendContext context;
    private final Phases phases;
    private final Session session;
    /** What the session's backends mirror (its own object: looked up on every command). */
    private final SessionState state;
    /** The kernel's stages around each command: process list, routing, counts, steering, digests, slow log. */
    private StatementLife life;
    private final ArrayDeque<MySQLFrame> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private StatementRunner runner;
    /** Where this connection's commands are counted (its event loop's row). */
    private FrontendStats.CommandCounter commands;
    /** While LOAD DATA LOCAL INFILE runs: where the client's packets go (they are its file), else null. */
    private StatementRunner.LocalDataSink localData;
    /** COM_FIELD_LIST and COM_STATISTICS have no JDBC form: they are relayed whatever the executor. */
    private StatementRunner relayRunner;
    /** The runtime whose pools the runners take connections from. */
    private StrataRuntime runnersRuntime;
    /** Where the commands carrying a statement go. */
    private StatementCommands statements;
    private boolean busy;
    private boolean draining;
    /**
     * Reading the client may be paused: commands queued behind a running one, a file upload waiting for its backend,
     * or the handler before this one. When a command ends, the channel's setting is read only then: reading it after
     * every command cost a cold cache line each (2-6% of Strata's user time at 64 clients).
     */
    private boolean readingMayBePaused = true;
    private volatile boolean closed;
    /** When the last command ended (or the session logged in): server.idleTimeout counts from there. */
    private long idleSinceNanos = System.nanoTime();
    /** The check of server.idleTimeout, or null when there is none. */
    private ScheduledFuture<?> idleCheck;
    /** Strata is stopping: the session closes at its next statement boundary outside a transaction. */
    private boolean stopping;

    /** The event a stop sends every session ({@link #stopAtBoundary}). */
    public static final Object STOP_AT_BOUNDARY = new Object() {
        @Override
        public String toString() {
            return "stop at the next statement boundary";
        }
    };

    public CommandHandler(FrontendContext context, Phases phases, Session session) {
        this.context = context;
        this.phases = phases;
        this.session = session;
        this.state = session.state();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.commands = context.stats().commandsOn(ctx.executor());
        this.life = new StatementLife(context.kernel(), session, SessionThread.of(ctx.channel().eventLoop()));
        StatementRunner.Completion completion = new StatementRunner.Completion() {
            @Override
            public void done() {
                CommandHandler.this.done();
            }

            @Override
            public void done(ResultWriter answer) {
                answered(answer::flush);
            }

            @Override
            public boolean closed() {
                return closed;
            }

            @Override
            public StatementRunner.Command reroute(StatementRunner.Command command, ByteBuf payload,
                                                   Throwable why) {
                return statements.reroute(command, payload, why);
            }

            @Override
            public void localData(StatementRunner.LocalDataSink sink) {
                localData = sink;
                readingMayBePaused = true; // while the file comes, reading pauses whenever the backend is full
                ctx.channel().config().setAutoRead(true); // the file must come in while the command is running
            }

            @Override
            public void fail(int sequenceId, ErrPacket error) {
                state.answerFailed(true);
                answered(() -> Responses.err(ctx.channel(), sequenceId, error));
            }

            @Override
            public void ok(int sequenceId) {
                CommandHandler.this.ok(sequenceId);
            }

            @Override
            public ResultWriter results(int sequenceId, boolean binary) {
                return new ResultPackets(ctx.channel(), sequenceId, state.deprecateEof(),
                        state.extendedTypeInfo(), Charsets.java(state.charset()), binary, state::interruption);
            }
        };
        // a reload reaches the session between transactions, once it holds no backend connection
        life.takesNewRuntimeWhen(() -> !state.inTransaction() && relayRunner.held().isEmpty()
                && (runner == relayRunner || runner.held().isEmpty()));
        this.runnersRuntime = life.runtime();
        this.relayRunner = runnersRuntime.relay(ctx.channel(), state, completion);
        long idleMillis = context.config().server().limits().idleTimeoutMillis();
        if (idleMillis > 0) {
            // checked a tenth of the limit apart: a session is closed after 1 to 1.1 times its idle limit, never sooner
            long period = Math.max(10, idleMillis / 10);
            idleCheck = ctx.executor().scheduleAtFixedRate(() -> closeIfIdle(idleMillis), period, period,
                    TimeUnit.MILLISECONDS);
        }
        this.runner = runnersRuntime.runner(ctx.channel(), state, completion, relayRunner);
        this.statements = new StatementCommands(context, session, life, ctx.channel(), runner, relayRunner,
                new StatementCommands.Answers() {
                    @Override
                    public void ok(int next) {
                        CommandHandler.this.ok(next);
                    }

                    @Override
                    public void done() {
                        CommandHandler.this.done();
                    }

                    @Override
                    public boolean kill(SqlStatementInfo info, int next) {
                        return CommandHandler.this.kill(info, next);
                    }

                    @Override
                    public void fail(int lastSequenceId, Throwable error) {
                        CommandHandler.this.fail(lastSequenceId, error);
                    }
                });
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, MySQLFrame frame) {
        if (localData != null) {
            if (localData.accept(frame.retain())) {
                localData = null; // the file has ended; what follows are commands again
            }
            return;
        }
        queue.add(frame.retain());
        if (busy) {
            readingMayBePaused = true;
            ctx.channel().config().setAutoRead(false);
        }
        runQueued();
    }

    private void runQueued() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            MySQLFrame frame;
            while (!busy && !closed && (frame = queue.poll()) != null) {
                busy = true;
                try {
                    dispatch(frame);
                } catch (RuntimeException e) {
                    fail(frame.lastSequenceId(), e);
                } finally {
                    frame.release();
                }
            }
            if (!busy && !closed && readingMayBePaused) {
                readingMayBePaused = false;
                if (!ctx.channel().config().isAutoRead()) {
                    ctx.channel().config().setAutoRead(true); // reading paused while commands queued: go on
                }
            }
        } finally {
            draining = false;
        }
    }

    /** The current command has been answered completely; the next may run. */
    private void done() {
        answered(null);
    }

    /**
     * The current command's answer is complete: its end is recorded (digests, slow log, process list) before
     * {@code send} lets the client see the answer, so a client that reads the digests next finds it counted; then
     * the next command may run.
     */
    private void answered(Runnable send) {
        localData = null; // an answer ends a file transfer too (the server may refuse it half-way)
        idleSinceNanos = life.ends();
        if (send != null) {
            send.run();
        }
        busy = false;
        if (stopping && stopAtBoundary()) {
            return;
        }
        runQueued();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == STOP_AT_BOUNDARY) {
            stopping = true;
            stopAtBoundary();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    /**
     * A graceful stop: the session closes, after MySQL's 1053, once no statement runs, none waits and no transaction
     * is open; until then it goes on, so a running statement is answered and an open transaction can commit.
     *
     * @return whether it closed
     */
    private boolean stopAtBoundary() {
        if (busy || closed || !queue.isEmpty() || state.inTransaction()) {
            return false;
        }
        goodbye(ErrorCode.SHUTDOWN.packet());
        return true;
    }

    /** Closes the session after an error telling the client why (MySQL's way for a server-side close). */
    private void goodbye(ErrPacket why) {
        closed = true;
        ByteBuf out = ctx.alloc().buffer(64 + why.message().length());
        why.encode(out);
        ctx.writeAndFlush(new MySQLFrame(0, out)).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }

    /** Decodes the command and runs it: one case per command, so a command without a handler does not compile. */
    private void dispatch(MySQLFrame frame) {
        int next = (frame.lastSequenceId() + 1) & 0xFF;
        ClientCommand command = decode(frame.payload());
        if (command == null) {
            done();
            return;
        }
        commands.count(command.type());
        commandStarts(command);
        switch (command) {
            case ComQuery query -> statements.query(query, next);
            case ComInitDb initDb -> statements.initDb(initDb.schemaName(), next);
            case ComPing ping -> ok(next);
            case ComQuit quit -> {
                closed = true;
                ctx.close();
            }
            case ComFieldList fields -> statements.relayed(fields.payload(), next, ResponseKind.FIELD_LIST);
            case ComStatistics statistics -> statements.relayed(statistics.payload(), next,
                    ResponseKind.SINGLE_PACKET);
            case ComResetConnection reset -> resetConnection(next);
            case ComChangeUser changeUser -> changeUser(changeUser, next);
            case ComSetOption option -> setOption(option.option(), next);
            case ComProcessKill kill -> kill(kill.connectionId(), false, next);
            case ComStmtPrepare prepare -> statements.prepare(prepare, next);
            case ComStmtExecute execute -> statements.execute(execute, next);
            case ComStmtFetch fetch -> statements.fetch(fetch, next);
            case ComStmtReset reset -> statements.reset(reset, next);
            case ComStmtSendLongData longData -> statements.longData(longData, next);
            case ComStmtClose close -> statements.closeStatement(close.statementId());
            case UnknownCommand unknown -> throw ErrorCode.UNKNOWN_COMMAND.exception(unknown.name());
        }
    }

    /**
     * The command, or null for a malformed one that gets no answer: COM_STMT_SEND_LONG_DATA and COM_STMT_CLOSE have
     * none, even for an error, and the server ignores a short one. Any other malformed command gets MySQL's error.
     */
    private static ClientCommand decode(ByteBuf payload) {
        try {
            return CommandDecoder.decode(payload);
        } catch (MySQLException e) {
            int code = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
            if (code == CommandType.COM_STMT_SEND_LONG_DATA.code() || code == CommandType.COM_STMT_CLOSE.code()) {
                return null;
            }
            throw e;
        }
    }

    private void ok(int next) {
        answered(() -> Responses.ok(ctx.channel(), next, new OkPacket(0, 0, state.statusFlags(), 0)));
    }

    private void setOption(int option, int next) {
        state.multiStatements(option == ComSetOption.MULTI_STATEMENTS_ON);
        Responses.eof(ctx.channel(), next, state.deprecateEof(), state.statusFlags(), true);
        done();
    }

    private void resetConnection(int next) {
        runner.releaseSession().whenComplete((ignored, error) -> ctx.executor().execute(() -> {
            session.resetState();
            ok(next);
        }));
    }

    /**
     * COM_CHANGE_USER: the session's state goes, then the connection phase runs again (an auth switch with a fresh
     * nonce) for the new user.
     */
    private void changeUser(ComChangeUser change, int next) {
        HandshakeResponse41 response = new HandshakeResponse41(state.capabilities(), 0, change.characterSet(),
                change.user(), change.authResponse(), change.database(), null, Map.of(),
                state.mariaDbCapabilities());
        closed = true;
        runner.releaseSession().whenComplete((ignored, error) -> ctx.executor().execute(() -> {
            context.sessions().remove(session);
            releaseQueue();
            ctx.pipeline().replace(this, "auth", phases.changeUser(session, response, next));
            ctx.channel().config().setAutoRead(true);
        }));
    }

    /** KILL [QUERY|CONNECTION] n as SQL; false when the statement is not of that form (the backend judges it). */
    private boolean kill(SqlStatementInfo info, int next) {
        return KillCommand.parse(info).map(kill -> {
            kill(kill.id(), kill.queryOnly(), next);
            return true;
        }).orElse(false);
    }

    private void kill(long id, boolean queryOnly, int next) {
        KillCommand.run(context, session, id, queryOnly).whenComplete((result, error) ->
                ctx.executor().execute(() -> {
                    if (error != null) {
                        // a refusal from another cluster member comes wrapped: it is the client's error, not ours
                        fail(next - 1, error instanceof java.util.concurrent.CompletionException
                                && error.getCause() != null ? error.getCause() : error);
                    } else if (result == KillCommand.Outcome.KILLED_SELF) {
                        closed = true;
                    } else {
                        ok(next);
                    }
                }));
    }

    private void fail(int lastSequenceId, Throwable error) {
        ErrPacketLog.log(LOG, session, error);
        state.answerFailed(true);
        state.counted(-1, ResponseSummary.UNCHANGED); // as after a statement the server refused
        answered(() -> Responses.err(ctx.channel(), (lastSequenceId + 1) & 0xFF, MySQLException.toErrPacket(error)));
    }

    /** A command starts: the process list shows it, and what its statement's answer says is counted from nothing. */
    private void commandStarts(ClientCommand command) {
        life.starts(command.type().processListName(), command instanceof ComQuery query ? query.sql() : null);
        StrataRuntime runtime = life.runtime();
        if (runtime != runnersRuntime) {
            // a reload swapped the runtime since the last command: new connections come from its pools
            runnersRuntime = runtime;
            relayRunner.runtimeChanged(runtime.backends(), runtime.jdbc(), runtime.config());
            if (runner != relayRunner) {
                runner.runtimeChanged(runtime.backends(), runtime.jdbc(), runtime.config());
            }
        }
    }

    /** The command runs {@code info} in {@code database}; {@code dataSources} where, when already known. */
    private void statementIs(SqlStatementInfo info, String database, String dataSources) {
        life.statementIs(info, database, dataSources);
    }

    /**
     * server.idleTimeout: a session that has run no command for longer is closed, as the server's wait_timeout
     * does, after MySQL 8's goodbye (4031). A running statement is no idleness, however long it takes.
     */
    private void closeIfIdle(long idleMillis) {
        if (busy || closed || !queue.isEmpty()
                || System.nanoTime() - idleSinceNanos <= TimeUnit.MILLISECONDS.toNanos(idleMillis)) {
            return;
        }
        LOG.debug("session {}: idle longer than server.idleTimeout ({} ms), closed", session.connectionId(),
                idleMillis);
        goodbye(ErrorCode.IDLE_TIMEOUT.packet(idleMillis));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        runner.writabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (idleCheck != null) {
            idleCheck.cancel(false); // COM_CHANGE_USER hands the connection back to the connection phase
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        life.close();
        releaseQueue();
        context.sessions().remove(session);
        runner.clientClosed();
        if (relayRunner != runner) {
            relayRunner.clientClosed();
        }
        ctx.fireChannelInactive();
    }

    private void releaseQueue() {
        MySQLFrame frame;
        while ((frame = queue.poll()) != null) {
            frame.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException) {
            // the client's socket failed (reset by peer, broken pipe): the network's doing, not a fault of Strata's
            LOG.debug("session {}: the client's connection failed: {}", session.connectionId(), cause.getMessage());
            ctx.close();
            return;
        }
        ErrPacketLog.log(LOG, session, cause);
        if (ctx.channel().isActive()) {
            Responses.err(ctx.channel(), 1, MySQLException.toErrPacket(cause));
        }
        ctx.close();
    }

    /** Expected errors (SQL a client got wrong) at debug; Strata's own failures at warn with the stack. */
    private static final class ErrPacketLog {
        static void log(Logger log, Session session, Throwable error) {
            if (error instanceof MySQLException || error instanceof RouteException) {
                log.debug("session {}: {}", session.connectionId(), error.getMessage());
            } else {
                log.warn("session {}: unexpected failure", session.connectionId(), error);
            }
        }
    }
}
