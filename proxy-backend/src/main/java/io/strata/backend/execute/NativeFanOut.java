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
import io.strata.backend.deadlock.DeadlockDetector;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.CommandType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.ServerStatus;
import io.strata.protocol.MySQLException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.sql.SqlStatementInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

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
    /** Merges of at most this many rows, all read, run on the client's loop; larger ones on a thread. */
    private static final int MERGE_ON_LOOP_ROWS = 1_000;

    private final Backends backends;
    private final NativeConnections connections;
    private final SessionState session;
    private final Completion completion;
    private final Channel client;
    private final Command command;
    private final List<RouteUnit> units;
    /** How the units' answers become the client's: merged, with a generated key, renamed. */
    private final RouteResult route;
    /** Each data source's units, by index, in route order: they run one after another on its connection. */
    private final Map<String, List<Integer>> byDataSource = new LinkedHashMap<>();
    /** The prepared statement an execute runs, or null for a text statement. */
    private final PreparedStatement statement;

    NativeFanOut(Backends backends, NativeConnections connections, SessionState session, Completion completion,
                 Channel client, Command command, RouteResult route, PreparedStatement statement) {
        this.backends = backends;
        this.connections = connections;
        this.session = session;
        this.completion = completion;
        this.client = client;
        this.command = command;
        this.units = route.units();
        this.route = route;
        this.statement = statement;
        for (int i = 0; i < units.size(); i++) {
            byDataSource.computeIfAbsent(units.get(i).dataSource(), ds -> new ArrayList<>()).add(i);
        }
    }

    /** Finds a ready connection for every data source, then runs the units; the command's payload is released here. */
    void run() {
        List<BackendPool> pools = new ArrayList<>(byDataSource.size());
        for (RouteUnit unit : units) {
            if (unit.rewritten() && !unit.params().isEmpty() && statement == null) {
                command.payload().release(); // a unit's values are an execute's, which a text command has none of
                throw ErrorCode.UNSUPPORTED.exception("rewritten statements with parameters");
            }
        }
        for (String dataSource : byDataSource.keySet()) {
            pools.add(backends.pool(command.database(), dataSource));
        }
        connections.releaseWarningsOnly(pools);
        List<CompletableFuture<BackendConnection>> found = new ArrayList<>(pools.size());
        int i = 0;
        for (List<Integer> indexes : byDataSource.values()) {
            found.add(ready(pools.get(i++), indexes));
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

    /** The unit among these that runs the client's own statement (its connection then prepares it), else the first. */
    private RouteUnit own(List<Integer> indexes) {
        for (int index : indexes) {
            if (!units.get(index).rewritten()) {
                return units.get(index);
            }
        }
        return units.get(indexes.get(0));
    }

    /**
     * The connection of a data source's units, in the session's state: its transaction joined, the statement of
     * the client's own unit prepared, and the statements of units that run prepared statements of their own.
     */
    private CompletableFuture<BackendConnection> ready(BackendPool pool, List<Integer> indexes) {
        RouteUnit own = own(indexes);
        CompletableFuture<BackendConnection> ready = ready(pool, own);
        for (int index : indexes) {
            PreparedStatement unit = units.get(index).rewritten() ? prepared(units.get(index)) : null;
            if (unit != null && units.get(index) != own) {
                ready = ready.thenCompose(c -> BackendStatements.on(c, unit) != null
                        ? CompletableFuture.completedFuture(c)
                        : BackendStatements.prepared(c, unit, session.names(), session.variables()).thenApply(s -> c));
            }
        }
        return ready;
    }

    /** The unit's connection, in the session's state (its transaction joined, its statement prepared). */
    private CompletableFuture<BackendConnection> ready(BackendPool pool, RouteUnit unit) {
        String schema = command.schemaOn(pool.schema());
        SqlStatementInfo info = unit.rewritten() ? null : command.info();
        PreparedStatement prepared = prepared(unit);
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

    /**
     * Sends each data source's first unit, and each later one when the one before it has been read (the
     * connection then holds only rows it already read), then merges and writes their answers on a virtual thread.
     * The merge starts once every unit's response has been read (on the client's loop), or as soon as one unit's rows
     * fill their queue (on a virtual thread): a merge that ran alongside the reading would hand each row from the
     * backend's loop to its thread, a wake-up per row.
     */
    private void send(List<BackendConnection> ready) {
        if (completion.closed()) {
            command.payload().release();
            ready.forEach(connections::keepOrRelease);
            return;
        }
        boolean binary = statement != null;
        NativeResult[] results = new NativeResult[units.size()];
        int c = 0;
        for (List<Integer> indexes : byDataSource.values()) {
            BackendConnection connection = ready.get(c++);
            connections.running(connection);
            for (int k = 0; k < indexes.size(); k++) {
                int index = indexes.get(k);
                results[index] = new NativeResult(connection, binary && !runsAsText(units.get(index)),
                        k == indexes.size() - 1);
            }
        }
        ResultWriter out = completion.results(command.next(), binary);
        List<NativeResult> all = List.of(results);
        AtomicBoolean started = new AtomicBoolean();
        // A unit whose rows fill their queue has more to come: the merge then pulls on a thread of its own, where it
        // may wait for rows and for the client to take what it wrote.
        Runnable mergeOnThread = () -> {
            if (started.compareAndSet(false, true)) {
                Thread.ofVirtual().name("strata-merge-", session.connectionId()).start(() -> mergeAndWrite(all, out));
            }
        };
        all.forEach(result -> result.onPause(mergeOnThread));
        ByteBuf[] payloads = payloads(ready);
        c = 0;
        for (List<Integer> indexes : byDataSource.values()) {
            sendInTurn(ready.get(c++), indexes, results, payloads, 0);
        }
        session.running(() -> CompletableFuture.allOf(ready.stream().map(StateSync::killQuery)
                .toArray(CompletableFuture[]::new)));
        // Every answer read in full: nothing can make the merge wait. A small one (the common case) runs here on the
        // client's loop, writing straight to the client, with no thread to start or wake; a large one still goes to
        // a thread, so that sorting or grouping many rows does not hold up the loop's other sessions.
        CompletableFuture.allOf(all.stream().map(NativeResult::ended).toArray(CompletableFuture[]::new))
                .whenComplete((ignored, error) -> onLoop(() -> {
                    if (all.stream().mapToInt(NativeResult::rowsHeld).sum() > MERGE_ON_LOOP_ROWS) {
                        mergeOnThread.run();
                    } else if (started.compareAndSet(false, true)) {
                        mergeAndWrite(all, out);
                    }
                }));
    }

    /**
     * What each unit's connection is sent, made at once while the client's command is still held (a unit sent after
     * another on its connection may need it too); the command is then released.
     */
    private ByteBuf[] payloads(List<BackendConnection> ready) {
        ByteBuf[] payloads = new ByteBuf[units.size()];
        try {
            int c = 0;
            for (List<Integer> indexes : byDataSource.values()) {
                BackendConnection connection = ready.get(c++);
                for (int index : indexes) {
                    payloads[index] = payload(units.get(index), connection);
                }
            }
        } catch (RuntimeException e) {
            for (ByteBuf made : payloads) {
                if (made != null) {
                    made.release();
                }
            }
            throw e;
        } finally {
            command.payload().release();
        }
        return payloads;
    }

    /** Runs the {@code k}th unit of a connection, and the next once its response has ended. */
    private void sendInTurn(BackendConnection connection, List<Integer> indexes, NativeResult[] results,
                            ByteBuf[] payloads, int k) {
        int index = indexes.get(k);
        NativeResult result = results[index];
        connection.execute(payloads[index], ResponseKind.QUERY, result);
        if (k + 1 < indexes.size()) {
            result.ended().whenComplete((summary, error) -> onLoop(() -> {
                if (error != null) {
                    for (int rest = k + 1; rest < indexes.size(); rest++) {
                        payloads[indexes.get(rest)].release();
                        results[indexes.get(rest)].onFailure(error); // the connection broke: they never ran
                    }
                } else {
                    sendInTurn(connection, indexes, results, payloads, k + 1);
                }
            }));
        }
    }

    /**
     * The prepared statement a unit runs, or null for a text statement: the client's for its own statement, the
     * unit's own for a rewritten one with the execute's values (it runs prepared with them), none for other rewritten
     * units (their values are written into their text).
     */
    private PreparedStatement prepared(RouteUnit unit) {
        if (!unit.rewritten()) {
            return statement;
        }
        return statement != null && !unit.params().isEmpty() ? statement.unit(unit.sql()) : null;
    }

    /**
     * What a unit's connection is sent: the unit's own text statement, or the client's command for that connection,
     * for its statement or the unit's own prepared one (the execute's values and types as the client sent them).
     */
    private ByteBuf payload(RouteUnit unit, BackendConnection connection) {
        PreparedStatement prepared = prepared(unit);
        if (unit.rewritten() && prepared == null) {
            return StateSync.command(connection.channel().alloc(), CommandType.COM_QUERY, unit.sql());
        }
        ByteBuf own = command.payload().copy(); // an execute's statement id is rewritten per connection
        if (prepared == null) {
            return own;
        }
        BackendStatement backend = BackendStatements.on(connection, prepared);
        if (backend == null) { // ready() prepared it, and the connection has run nothing since
            own.release();
            throw new IllegalStateException("the statement of a unit is no longer prepared on " + unit.dataSource());
        }
        return BackendStatements.forBackend(command.to(unit.dataSource(), false, own), statement, backend);
    }

    /** Whether the unit runs as a text statement, its rows then in the text protocol. */
    private boolean runsAsText(RouteUnit unit) {
        return prepared(unit) == null;
    }

    private void mergeAndWrite(List<NativeResult> results, ResultWriter out) {
        List<UnitAnswer> answers = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            answers.add(new UnitAnswer(units.get(i).dataSource(), results.get(i).answer().join()));
        }
        Result combined = ResultMerger.merge(answers, route);
        if (combined instanceof ErrorResult) {
            for (NativeResult result : results) {
                ErrPacket deadlock = DeadlockDetector.victimError(result.connection());
                if (deadlock != null) {
                    combined = new ErrorResult(deadlock);
                }
            }
        }
        // units that ran as text statements answered text rows; the client's execute wants binary rows
        Result merged = combined instanceof QueryResult rows && statement != null
                && units.stream().anyMatch(this::runsAsText) ? new TextAsBinary(rows) : combined;
        try {
            out.write(merged);
        } catch (InterruptedException e) {
            LOG.debug("session {}: client went away mid-result", session.connectionId());
        } finally {
            if (merged instanceof QueryResult query) {
                query.close();
            }
        }
        CompletableFuture<Void> ended = CompletableFuture.allOf(
                results.stream().map(NativeResult::ended).toArray(CompletableFuture[]::new));
        if (!ended.isDone()) {
            // units still drain rows the merge did not need (a LIMIT met early): the client need not wait for them
            out.flush();
        }
        ended
                .handle((ignored, error) -> null)
                .thenRun(() -> onLoop(() -> settle(results, merged, out)));
    }

    /** Every unit's response has ended: the session follows what happened, and each connection is kept or goes. */
    private void settle(List<NativeResult> results, Result merged, ResultWriter out) {
        session.running(null);
        boolean deadlocked = false;
        for (NativeResult result : results) {
            deadlocked |= result.connection().takeDeadlockVictim();
        }
        if (deadlocked && merged instanceof ErrorResult) {
            // the deadlock check killed a unit to break a cycle across data sources: the whole transaction goes
            List<BackendConnection> ran = results.stream().map(NativeResult::connection).distinct().toList();
            connections.rollBackAll(ran).whenComplete((ignored, error) -> onLoop(() -> {
                session.statusFlags(session.statusFlags() & ~ServerStatus.IN_TRANS);
                connections.releaseWarningsOnly(ran.stream().map(BackendConnection::pool).toList());
                keepOrRelease(results, merged, out);
            }));
            return;
        }
        keepOrRelease(results, merged, out);
    }

    private void keepOrRelease(List<NativeResult> results, Result merged, ResultWriter out) {
        SqlStatementInfo info = command.info();
        session.afterStatement(out.statusFlags(), out.lastInsertId(), out.warnings(), info, out.failed());
        session.counted(info, merged instanceof UpdateResult update ? update.affectedRows() : -1,
                merged instanceof QueryResult ? out.foundRows() : ResponseSummary.UNCHANGED);
        Map<BackendConnection, Boolean> broken = new LinkedHashMap<>();
        for (NativeResult result : results) {
            broken.merge(result.connection(), result.ended().isCompletedExceptionally(), Boolean::logicalOr);
        }
        broken.forEach((connection, failed) -> {
            if (failed) {
                connections.forget(connection);
                connection.pool().discard(connection);
                return;
            }
            if (info != null && info.pinsSession()) {
                connection.markDirty();
            }
            connections.keepOrRelease(connection);
        });
        if (completion.closed()) {
            connections.releaseAll();
            return;
        }
        if (merged instanceof ErrorResult && session.inTransaction()) {
            LOG.debug("session {}: a unit failed inside a transaction", session.connectionId());
        }
        completion.done(out);
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
