package io.strata.backend.deadlock;

import io.strata.backend.connection.BackendConnection;
import io.strata.backend.connection.BackendPool;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Breaks deadlocks across data sources. Every {@link #PERIOD_MILLIS} it looks for a statement that has been running
 * longer than that; only then does it read each server's lock waits (once per server, whatever number of data
 * sources it holds). A wait between two of Strata's sessions that
 * two reads in a row both show is a standing one (a lock is held to the end of its transaction, and neither
 * transaction moved); a cycle of standing waits that passes through two connections of a session is a deadlock
 * no server sees. Its youngest session is the
 * victim: its connection is marked and its waiting statement killed, and the executor then answers 1213 and rolls
 * the session's transaction back on every data source, as InnoDB does for a deadlock of its own.
 */
public final class DeadlockDetector implements AutoCloseable {

    /**
     * Longer than the 100 ms MariaDB keeps its INNODB_TRX / INNODB_LOCK_WAITS cache after a read (a read sooner
     * than that sees the same rows again, which could pass for a standing wait).
     */
    public static final long PERIOD_MILLIS = 250;
    private static final Logger LOG = LoggerFactory.getLogger(DeadlockDetector.class);

    private final Map<String, List<BackendPool>> poolsByServer;
    private final Map<String, ServerLocks> servers = new LinkedHashMap<>();
    private final AtomicLong broken = new AtomicLong();
    private final Thread thread;
    private Set<LockWait> previous = Set.of();
    private long previousReadAt;
    private volatile boolean closed;

    private DeadlockDetector(Map<String, List<BackendPool>> poolsByServer) {
        this.poolsByServer = poolsByServer;
        poolsByServer.forEach((server, pools) -> servers.put(server,
                new ServerLocks(server, pools.get(0).config())));
        this.thread = Thread.ofPlatform().daemon().name("strata-deadlock-check").start(this::loop);
    }

    /**
     * A running check when there are two pools or more (a session holds at most one connection per pool, and with
     * one connection each, InnoDB sees every cycle), else null.
     */
    public static DeadlockDetector startIfNeeded(Collection<BackendPool> pools) {
        Map<String, List<BackendPool>> byServer = new LinkedHashMap<>();
        for (BackendPool pool : pools) {
            byServer.computeIfAbsent(server(pool), s -> new ArrayList<>()).add(pool);
        }
        return pools.size() < 2 ? null : new DeadlockDetector(byServer);
    }

    private static String server(BackendPool pool) {
        return pool.config().host() + ":" + pool.config().port();
    }

    /**
     * What the client of a victim's statement gets in place of the backend's ER_QUERY_INTERRUPTED, when the
     * connection it ran on was marked; else null.
     */
    public static ErrPacket victimError(BackendConnection connection) {
        return connection.deadlockVictim() ? ErrorCode.DEADLOCK.packet("a cycle of lock waits across data sources; "
                + "Strata rolled the transaction back on every data source") : null;
    }

    /** How many deadlocks across data sources were broken since the start. */
    public long broken() {
        return broken.get();
    }

    private void loop() {
        while (!closed) {
            try {
                Thread.sleep(PERIOD_MILLIS);
                check();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("deadlock check failed in Strata", e);
            }
        }
    }

    /** One round: read the waits when a statement has waited, and break the cycles seen twice. */
    void check() {
        if (!someStatementWaits()) {
            previous = Set.of();
            return;
        }
        long readAt = System.nanoTime();
        Set<LockWait> now = new HashSet<>();
        servers.values().forEach(locks -> now.addAll(locks.waits()));
        Set<LockWait> standing = new HashSet<>(now);
        standing.retainAll(previous);
        previous = now;
        long firstReadAt = previousReadAt;
        previousReadAt = readAt;
        if (standing.isEmpty()) {
            return;
        }
        Map<String, Map<Long, BackendConnection>> byThread = connectionsByThread();
        List<WaitGraph.Edge> edges = new ArrayList<>();
        for (LockWait wait : standing) {
            BackendConnection waiting = byThread.get(wait.server()).get(wait.waitingThread());
            BackendConnection blocking = byThread.get(wait.server()).get(wait.blockingThread());
            if (waiting != null && blocking != null && waiting.heldBy() != 0 && blocking.heldBy() != 0
                    && runningSince(waiting, firstReadAt)) {
                edges.add(new WaitGraph.Edge(waiting.heldBy(), blocking.heldBy(), wait));
            }
        }
        for (List<WaitGraph.Edge> victim : new WaitGraph(edges).victims()) {
            breakCycle(victim, byThread);
        }
    }

    /**
     * Whether the connection has been running one statement since before {@code nanos}: a wait both reads show is
     * then one wait, not a stale read or two statements that each waited for a moment.
     */
    private static boolean runningSince(BackendConnection connection, long nanos) {
        return connection.busy() && connection.lastUsedNanos() - nanos < 0;
    }

    /** Whether some connection has been running one statement for longer than a period (it may be waiting). */
    private boolean someStatementWaits() {
        long before = System.nanoTime() - PERIOD_MILLIS * 1_000_000;
        for (List<BackendPool> pools : poolsByServer.values()) {
            for (BackendPool pool : pools) {
                for (BackendConnection connection : pool.connections()) {
                    if (runningSince(connection, before)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private Map<String, Map<Long, BackendConnection>> connectionsByThread() {
        Map<String, Map<Long, BackendConnection>> byThread = new HashMap<>();
        poolsByServer.forEach((server, pools) -> {
            Map<Long, BackendConnection> ofServer = new HashMap<>();
            pools.forEach(pool -> pool.connections().forEach(c -> ofServer.put(c.connectionId(), c)));
            byThread.put(server, ofServer);
        });
        return byThread;
    }

    /** Marks the victim's waiting connections and kills their statements; the executor does the rest. */
    private void breakCycle(List<WaitGraph.Edge> victim, Map<String, Map<Long, BackendConnection>> byThread) {
        long session = victim.get(0).waiter();
        List<String> waits = new ArrayList<>();
        boolean counted = false;
        for (WaitGraph.Edge edge : victim) {
            BackendConnection waiting = byThread.get(edge.lockWait().server()).get(edge.lockWait().waitingThread());
            if (waiting.heldBy() != session) {
                continue; // the session let go of it since the read: that wait is over
            }
            waiting.markDeadlockVictim();
            if (!counted) {
                broken.incrementAndGet(); // before the kill: its victim may read the count as soon as it answers
                counted = true;
            }
            try {
                servers.get(edge.lockWait().server()).killQuery(edge.lockWait().waitingThread());
                waits.add(waiting.dataSource() + " (" + edge.lockWait().server() + ") for session " + edge.holder());
            } catch (SQLException e) {
                LOG.warn("deadlock check: cannot kill the waiting statement of session {} on {}: {}", session,
                        edge.lockWait().server(), e.getMessage());
            }
        }
        if (!waits.isEmpty()) {
            LOG.warn("deadlock across data sources: session {} (the youngest transaction of the cycle) waited on {}; "
                    + "its transaction is rolled back and it gets error 1213", session, String.join(", ", waits));
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        servers.values().forEach(ServerLocks::close);
    }
}
