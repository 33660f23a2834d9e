package io.strata.backend.execute;

import io.netty.channel.EventLoop;
import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.backend.connection.StateSync;
import io.strata.protocol.CommandType;
import io.strata.rule.StatementContext.Hold;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The native backend connections one client session holds, at most one per data source: where its transaction,
 * variables, locks, cursors or last warnings live. A session may hold them on several data sources at once (a
 * transaction that wrote to two keeps both until it ends). This class decides what a connection must have before a
 * command (the session's state, its statement, its last insert id, the session's open transaction) and whether the
 * session keeps it afterwards. Used on the client's event loop only.
 */
final class NativeConnections {

    private final SessionState session;
    private final EventLoop loop;
    private final Map<BackendPool, BackendConnection> held = new HashMap<>(2);
    /** The connection the last statement ran on: where its warnings are, if the session keeps them. */
    private BackendConnection lastRan;
    /** The connection holding the session's long data or open cursor, if any. */
    private BackendConnection statementState;

    NativeConnections(SessionState session, EventLoop loop) {
        this.session = session;
        this.loop = loop;
    }

    /**
     * The connection the session holds on {@code pool}, else an idle pooled one, else null. Connections the session
     * kept only for the last statement's warnings go back first: the next statement replaces those warnings.
     */
    BackendConnection take(BackendPool pool) {
        BackendConnection kept = held.get(pool);
        if (kept != null) {
            return kept;
        }
        releaseWarningsOnly();
        return pool.tryAcquire(session.flavor(), loop);
    }

    /** The connection the session holds on {@code pool}, or null. */
    BackendConnection heldOn(BackendPool pool) {
        return held.get(pool);
    }

    private void releaseWarningsOnly() {
        releaseWarningsOnly(List.of());
    }

    /**
     * Gives back the connections, other than those of {@code keep}, that the session holds only for the last
     * statement's warnings: the statement about to run replaces them.
     */
    void releaseWarningsOnly(Collection<BackendPool> keep) {
        if (held.isEmpty()) {
            return;
        }
        for (BackendConnection connection : new ArrayList<>(held.values())) {
            if (!holdsState(connection) && !keep.contains(connection.pool())) {
                held.remove(connection.pool());
                giveBack(connection);
            }
        }
    }

    /** A command is about to run on the connection: the session holds it at least until the command ends. */
    void running(BackendConnection connection) {
        connection.heldBy(session.connectionId());
        held.put(connection.pool(), connection);
        lastRan = connection;
    }

    /** Long data or a cursor of the session's now lives on the connection. */
    void statementStateOn(BackendConnection connection) {
        held.put(connection.pool(), connection);
        statementState = connection;
    }

    /** Keeps the connection (something of the session's lives on it, or only its last warnings), or gives it back. */
    void keepOrRelease(BackendConnection connection) {
        if (keeps(connection)) {
            held.put(connection.pool(), connection);
        } else {
            held.remove(connection.pool(), connection);
            connection.pool().release(connection);
        }
    }

    /** The connection is unusable: the session lets go of it (its caller discards it). */
    void forget(BackendConnection connection) {
        held.remove(connection.pool(), connection);
        if (lastRan == connection) {
            lastRan = null;
        }
        if (statementState == connection) {
            statementState = null;
        }
    }

    boolean holds(BackendConnection connection) {
        return held.get(connection.pool()) == connection;
    }

    /**
     * Whether what lives on the connection is the session's own and cannot move: an open transaction, state
     * Strata does not track (a user variable, a temporary table, a lock...), long data or a cursor.
     */
    boolean holdsState(BackendConnection connection) {
        return connection.inTransaction() || connection.dirty()
                || connection == statementState && session.hasStatementState();
    }

    private boolean keeps(BackendConnection connection) {
        return holdsState(connection) || connection == lastRan && session.keepsWarnings();
    }

    /** The data sources the session holds connections on, and what for (what routing must respect). */
    Map<String, Hold> held() {
        if (held.isEmpty()) {
            return Map.of();
        }
        if (held.size() == 1) { // a transaction's every statement: one connection, no map to build
            BackendConnection only = held.values().iterator().next();
            return Map.of(only.dataSource(), holdsState(only) ? Hold.STATE : Hold.WARNINGS);
        }
        Map<String, Hold> holds = new HashMap<>(held.size() * 2);
        held.values().forEach(c -> holds.put(c.dataSource(), holdsState(c) ? Hold.STATE : Hold.WARNINGS));
        return holds;
    }

    /** The held connections with an open transaction (those a COMMIT or ROLLBACK must reach). */
    List<BackendConnection> inTransaction() {
        List<BackendConnection> open = List.of();
        for (BackendConnection c : held.values()) {
            if (c.inTransaction()) {
                if (open.isEmpty()) {
                    open = new ArrayList<>(held.size());
                }
                open.add(c);
            }
        }
        return open;
    }

    /**
     * Rolls the session's transaction back on every data source it reached (a deadlock ended it): on every
     * connection the session holds and on {@code also}, since a statement killed with autocommit off leaves a
     * transaction open that its lone error packet did not report. A connection that cannot be rolled back is closed,
     * which ends its transaction too.
     */
    CompletableFuture<Void> rollBackAll(Collection<BackendConnection> also) {
        Set<BackendConnection> all = new LinkedHashSet<>(held.values());
        all.addAll(also);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (BackendConnection connection : all) {
            done.add(StateSync.run(connection, StateSync.command(connection.channel().alloc(),
                    CommandType.COM_QUERY, "ROLLBACK")).handle((c, error) -> {
                        if (error != null) {
                            loop.execute(() -> {
                                forget(connection);
                                connection.pool().discard(connection);
                            });
                        }
                        return null;
                    }));
        }
        return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
    }

    /** Gives back every connection the session holds (it resets or leaves); resets those with state first. */
    CompletableFuture<Void> releaseAll() {
        if (held.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Void>> done = new ArrayList<>(held.size());
        for (BackendConnection connection : held.values()) {
            done.add(giveBack(connection));
        }
        held.clear();
        lastRan = null;
        statementState = null;
        return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
    }

    /**
     * Back to the pool. What the session kept the connection for (a transaction, warnings that may quote its
     * values...) is not the next session's: such a connection is reset first, and closed if that fails.
     */
    CompletableFuture<Void> giveBack(BackendConnection connection) {
        if (connection.busy()) {
            connection.pool().discard(connection);
            return CompletableFuture.completedFuture(null);
        }
        if (!keeps(connection)) {
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

    /**
     * Whether a connection can take the command as it is: in the session's state, in its open transaction, holding
     * its statement, and not needing the session's last insert id.
     */
    boolean readyFor(BackendConnection connection, String schema, PreparedStatement statement,
                     SqlStatementInfo info) {
        return StateSync.inSync(connection, schema, session.names(), session.multiStatements(),
                session.autocommit(), session.variables()) && !needsBegin(connection)
                && (statement == null || BackendStatements.on(connection, statement) != null)
                && !session.needsLastInsertId(info, connection, connection.lease());
    }

    /**
     * The session began a transaction (on another data source) that this connection is not in yet: it joins it
     * before its first statement, as a transaction over several data sources does (with autocommit off, the
     * session's autocommit on the connection does the same).
     */
    private boolean needsBegin(BackendConnection connection) {
        return session.inTransaction() && session.autocommit() && !connection.inTransaction();
    }

    /**
     * Makes the connection's state the session's, lets it join the session's open transaction, prepares the
     * statement there, and gives it the session's last insert id when the command reads it, as far as each is
     * missing.
     */
    CompletableFuture<BackendConnection> prepareState(BackendConnection connection, String schema,
                                                      PreparedStatement statement, SqlStatementInfo info) {
        CompletableFuture<BackendConnection> synced = StateSync.sync(connection, schema, session.names(),
                session.multiStatements(), session.autocommit(), session.variables());
        if (needsBegin(connection)) {
            String begin = session.transactionStart();
            synced = synced.thenCompose(c -> StateSync.run(c,
                    StateSync.command(c.channel().alloc(), CommandType.COM_QUERY, begin)));
        }
        if (session.needsLastInsertId(info, connection, connection.lease())) {
            String set = session.lastInsertIdStatement();
            synced = synced.thenCompose(c -> StateSync.run(c,
                    StateSync.command(c.channel().alloc(), CommandType.COM_QUERY, set))).thenApply(c -> {
                        // the client's loop reads it only after this future hands the connection over to it
                        session.lastInsertIdGiven(c, c.lease());
                        return c;
                    });
        }
        return statement == null ? synced
                : synced.thenCompose(c -> BackendStatements.prepared(c, statement, session.names(),
                        session.variables()).thenApply(s -> c));
    }
}
