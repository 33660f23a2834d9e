package io.strata.backend.execute;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.strata.backend.Backends;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.BackendStatement;
import io.strata.backend.connection.StateSync;
import io.strata.backend.execute.StatementRunner.Command;
import io.strata.backend.execute.StatementRunner.Completion;
import io.strata.backend.merge.ResultMerger;
import io.strata.backend.merge.UnitAnswer;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseSummary;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import io.strata.rule.ResultMerge;
import io.strata.rule.RouteUnit;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a route of several units over native connections: each unit's statement on its data source's connection
 * (the one the session holds there, as in a transaction, else a pooled one made equal to the session), all at once;
 * their answers are read into protocol-neutral results, merged as the route says, and written by the frontend. Each
 * connection is then kept or given back as after any statement. One instance per command.
 *
 * <p>Threads: connections are found and settled on the client's event loop; the merge pulls rows and writes them on
 * a virtual thread of its own.
 */
final class NativeFanOut {

    private static final Logger LOG = LoggerFactory.getLogger(NativeFanOut.class);

    private final Backends backends;
    private final NativeConnections connections;
    private final SessionState session;
    private final Completion completion;
    private final Channel client;
    private final Command command;
    private final List<RouteUnit> units;
    private final ResultMerge merge;
    /** The prepared statement an execute runs, or null for a text statement. */
    private final PreparedStatement statement;

    NativeFanOut(Backends backends, NativeConnections connections, SessionState session, Completion completion,
                 Channel client, Command command, List<RouteUnit> units, ResultMerge merge,
                 PreparedStatement statement) {
        this.backends = backends;
        this.connections = connections;
        this.session = session;
        this.completion = completion;
        this.client = client;
        this.command = command;
        this.units = units;
        this.merge = merge;
        this.statement = statement;
    }

    /** Finds a ready connection for every unit, then runs them all; the command's payload is released here. */
    void run() {
        Set<String> dataSources = new HashSet<>();
        List<BackendPool> pools = new ArrayList<>(units.size());
        for (RouteUnit unit : units) {
            if (!dataSources.add(unit.dataSource())) {
                command.payload().release();
                throw ErrorCode.UNSUPPORTED.exception("a statement routed twice to one data source ("
                        + unit.dataSource() + ")");
            }
            if (unit.rewritten() && !unit.params().isEmpty()) {
                command.payload().release();
                throw ErrorCode.UNSUPPORTED.exception("rewritten statements with parameters");
            }
            pools.add(backends.pool(command.database(), unit.dataSource()));
        }
        connections.releaseWarningsOnly(pools);
        List<CompletableFuture<BackendConnection>> found = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            found.add(ready(pools.get(i), units.get(i)));
        }
        CompletableFuture.allOf(found.toArray(CompletableFuture[]::new)).whenComplete((ignored, error) ->
                onLoop(() -> {
                    if (error != null) {
                        notFound(found, error);
                    } else {
                        send(found.stream().map(CompletableFuture::join).toList());
                    }
                }));
    }

    /** The unit's connection, in the session's state (its transaction joined, its statement prepared). */
    private CompletableFuture<BackendConnection> ready(BackendPool pool, RouteUnit unit) {
        String schema = command.schemaOn(pool.config().schema());
        SqlStatementInfo info = unit.rewritten() ? null : command.info();
        PreparedStatement prepared = unit.rewritten() ? null : statement;
        BackendConnection held = connections.heldOn(pool);
        CompletableFuture<BackendConnection> connection = held != null ? CompletableFuture.completedFuture(held)
                : pool.acquire(session.flavor(), client.eventLoop());
        return connection.thenCompose(c -> connections.readyFor(c, schema, prepared, info)
                ? CompletableFuture.completedFuture(c) : connections.prepareState(c, schema, prepared, info));
    }

    /** A unit found no connection: nothing ran; those found go back, and the client hears which data source. */
    private void notFound(List<CompletableFuture<BackendConnection>> found, Throwable error) {
        command.payload().release();
        for (CompletableFuture<BackendConnection> f : found) {
            if (f.isDone() && !f.isCompletedExceptionally()) {
                connections.keepOrRelease(f.join());
            }
        }
        if (!completion.closed()) {
            completion.fail(command.next(), MySQLException.toErrPacket(error));
        }
    }

    /** Sends every unit's statement, then merges and writes their answers on a virtual thread. */
    private void send(List<BackendConnection> ready) {
        if (completion.closed()) {
            command.payload().release();
            ready.forEach(connections::keepOrRelease);
            return;
        }
        boolean binary = statement != null;
        List<NativeResult> results = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            BackendConnection connection = ready.get(i);
            connections.running(connection);
            NativeResult result = new NativeResult(connection, binary && !units.get(i).rewritten());
            results.add(result);
            connection.execute(payload(units.get(i), connection), ResponseKind.QUERY, result);
        }
        command.payload().release();
        session.running(() -> CompletableFuture.allOf(ready.stream().map(StateSync::killQuery)
                .toArray(CompletableFuture[]::new)));
        ResultWriter out = completion.results(command.next(), binary);
        Thread.ofVirtual().name("strata-merge-", session.connectionId()).start(() -> mergeAndWrite(results, out));
    }

    /** What a unit's connection is sent: the unit's own statement, or the client's command for that connection. */
    private ByteBuf payload(RouteUnit unit, BackendConnection connection) {
        if (unit.rewritten()) {
            return StateSync.command(connection.channel().alloc(), CommandType.COM_QUERY, unit.sql());
        }
        ByteBuf own = command.payload().copy(); // an execute's statement id is rewritten per connection
        if (statement == null) {
            return own;
        }
        BackendStatement backend = BackendStatements.on(connection, statement);
        return BackendStatements.forBackend(command.to(unit.dataSource(), false, own), statement, backend);
    }

    private void mergeAndWrite(List<NativeResult> results, ResultWriter out) {
        List<UnitAnswer> answers = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            answers.add(new UnitAnswer(units.get(i).dataSource(), results.get(i).answer().join()));
        }
        Result merged = ResultMerger.merge(answers, merge);
        try {
            out.write(merged);
        } catch (InterruptedException e) {
            LOG.debug("session {}: client went away mid-result", session.connectionId());
        } finally {
            if (merged instanceof QueryResult query) {
                query.close();
            }
            out.flush();
        }
        CompletableFuture.allOf(results.stream().map(NativeResult::ended).toArray(CompletableFuture[]::new))
                .handle((ignored, error) -> null)
                .thenRun(() -> onLoop(() -> settle(results, merged, out)));
    }

    /** Every unit's response has ended: the session follows what happened, and each connection is kept or goes. */
    private void settle(List<NativeResult> results, Result merged, ResultWriter out) {
        session.running(null);
        SqlStatementInfo info = command.info();
        session.afterStatement(out.statusFlags(), out.lastInsertId(), out.warnings(), info, out.failed());
        session.counted(info, merged instanceof UpdateResult update ? update.affectedRows() : -1,
                merged instanceof QueryResult ? out.foundRows() : ResponseSummary.UNCHANGED);
        for (NativeResult result : results) {
            BackendConnection connection = result.connection();
            if (result.ended().isCompletedExceptionally()) {
                connections.forget(connection);
                connection.pool().discard(connection);
                continue;
            }
            if (info != null && info.pinsSession()) {
                connection.markDirty();
            }
            connections.keepOrRelease(connection);
        }
        if (completion.closed()) {
            connections.releaseAll();
            return;
        }
        if (merged instanceof ErrorResult && session.inTransaction()) {
            LOG.debug("session {}: a unit failed inside a transaction", session.connectionId());
        }
        completion.done();
    }

    private void onLoop(Runnable task) {
        Runnable guarded = () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("session {}: command failed in Strata", session.connectionId(), e);
                if (!completion.closed()) {
                    completion.fail(command.next(), MySQLException.toErrPacket(e));
                }
            }
        };
        if (client.eventLoop().inEventLoop()) {
            guarded.run();
        } else {
            client.eventLoop().execute(guarded);
        }
    }
}
