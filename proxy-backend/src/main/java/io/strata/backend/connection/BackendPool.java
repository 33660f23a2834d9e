package io.strata.backend.connection;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The native connections of one data source, sized and timed by the data source's HikariCP-named settings
 * (maximumPoolSize, connectionTimeout, idleTimeout, maxLifetime). Connections are kept apart by flavor (the client
 * capability bits that change a server's replies); the size limit covers all flavors together. Idle connections are
 * handed out most-recently-used first, so a light load keeps few connections warm, and from the client's own event
 * loop: another loop's connection is borrowed only when the pool is full.
 *
 * <p>Threads: any. Futures may complete on an event loop: callers must not block in their continuations.
 */
public final class BackendPool implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BackendPool.class);
    private static final long EVICTION_PERIOD_SECONDS = 30;
    /** How often waiters past connectionTimeout are failed: one periodic task instead of a timer per wait. */
    private static final long EXPIRY_SWEEP_MILLIS = 50;
    /**
     * A released connection goes to a waiter on its own event loop (then the statement runs with no hand-off between
     * threads), unless the oldest waiter has waited this much longer: a bound on what that preference may cost.
     */
    private static final long AFFINITY_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private record Waiter(int flavor, EventLoop loop, CompletableFuture<BackendConnection> future,
                          long sinceNanos) {
    }

    /**
     * One event loop's idle connections or waiters, a queue per flavor (a client population has one or two flavors, so
     * a short list beats a map, and looking one up allocates nothing).
     */
    private static final class ByFlavor<T> {
        private final List<Deque<T>> queues = new ArrayList<>(2);
        private final List<Integer> flavors = new ArrayList<>(2);

        Deque<T> get(int flavor, boolean create) {
            for (int i = 0; i < flavors.size(); i++) {
                if (flavors.get(i) == flavor) {
                    return queues.get(i);
                }
            }
            if (!create) {
                return null;
            }
            Deque<T> deque = new ArrayDeque<>();
            flavors.add(flavor);
            queues.add(deque);
            return deque;
        }
    }

    private final DataSourceConfig config;
    private final int maximumPoolSize;
    private final long connectionTimeoutMillis;
    private final long maxLifetimeNanos;
    private final BackendConnector connector;
    private final EventLoopGroup timers;
    private final Map<EventLoop, ByFlavor<BackendConnection>> idle = new IdentityHashMap<>();
    private final Set<BackendConnection> all = new HashSet<>();
    /**
     * Waiters by the client's event loop, oldest first: a released connection finds the oldest waiter of its own loop
     * and the oldest anywhere by looking at the queues' heads, however many wait (hundreds, with a small pool).
     */
    private final Map<EventLoop, ByFlavor<Waiter>> waiting = new IdentityHashMap<>();
    private int waiterCount;
    private final ScheduledFuture<?> eviction;
    private final ScheduledFuture<?> expiry;
    private int opening;
    private String lastFailure = "none";
    private boolean closed;
    /** Retired by a reload: connections given back close, and the pool closes once none is lent. */
    private boolean draining;
    private final LeakDetector leaks;
    private final boolean leakDetection;
    /** The data source's schema, which every command's connection is checked against. */
    private final String schema;

    public BackendPool(DataSourceConfig config, BackendConnector connector, EventLoopGroup timers) {
        this.config = config;
        this.maximumPoolSize = config.maximumPoolSize();
        this.connectionTimeoutMillis = config.connectionTimeoutMillis();
        this.maxLifetimeNanos = TimeUnit.MILLISECONDS.toNanos(config.maxLifetimeMillis());
        this.connector = connector;
        this.timers = timers;
        this.eviction = timers.next().scheduleWithFixedDelay(this::evictIdle, EVICTION_PERIOD_SECONDS,
                EVICTION_PERIOD_SECONDS, TimeUnit.SECONDS);
        this.expiry = timers.next().scheduleWithFixedDelay(this::expireWaiters, EXPIRY_SWEEP_MILLIS,
                EXPIRY_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        this.leaks = new LeakDetector(config.name(), config.leakDetectionThresholdMillis(), timers,
                this::connections);
        this.leakDetection = config.leakDetectionThresholdMillis() > 0;
        this.schema = config.schema();
    }

    /** Connections reported as leaked (leakDetectionThreshold) since the start. */
    public long leaks() {
        return leaks.leaks();
    }

    /** The stack that borrowed the last connection reported as leaked, or null. */
    public Throwable lastLeak() {
        return leaks.lastLeak();
    }

    public String name() {
        return config.name();
    }

    /** The data source's own schema ({@code config().schema()}). */
    public String schema() {
        return schema;
    }

    public DataSourceConfig config() {
        return config;
    }

    /** A connection of the given flavor on any event loop. */
    public CompletableFuture<BackendConnection> acquire(int flavor) {
        return acquire(flavor, timers.next());
    }

    /**
     * A connection of the given flavor: an idle one, a new one, or the next one released, within connectionTimeout.
     * Connections on {@code loop} (the client's event loop) come first and new ones are opened there, so relaying
     * stays on one thread: no task hand-off and no wake-up between loops per packet.
     */
    public CompletableFuture<BackendConnection> acquire(int flavor, EventLoop loop) {
        CompletableFuture<BackendConnection> future = new CompletableFuture<>();
        // the caller's stack, while it is the caller's thread; off (the default), not even a call
        Throwable borrowedAt = leakDetection ? leaks.borrowing() : null;
        BackendConnection ready;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(ErrorCode.BACKEND_UNAVAILABLE.exception(config.describe(), "pool closed"));
            }
            ready = takeIdle(flavor, loop);
            if (ready == null) {
                if (size() < maximumPoolSize || closeIdleOfOtherFlavor(flavor)) {
                    open(flavor, loop, future);
                } else {
                    waiting.computeIfAbsent(loop, l -> new ByFlavor<>()).get(flavor, true)
                            .addLast(new Waiter(flavor, loop, future, System.nanoTime()));
                    waiterCount++;
                }
                return borrowedAt == null ? future
                        : future.whenComplete((connection, error) -> leaks.lent(connection, borrowedAt));
            }
        }
        if (borrowedAt != null) {
            leaks.lent(ready, borrowedAt);
        }
        future.complete(ready);
        return future;
    }

    /**
     * An idle connection of the flavor at once, or null: the allocation-free fast path. One on another loop is only
     * taken when the pool is full; below that, null sends the caller to {@link #acquire}, which opens one here.
     */
    public BackendConnection tryAcquire(int flavor, EventLoop loop) {
        BackendConnection ready;
        synchronized (this) {
            ready = closed ? null : takeIdle(flavor, loop);
        }
        if (leakDetection) {
            leaks.lent(ready, leaks.borrowing());
        }
        return ready;
    }

    /** Gives a connection back: to a waiter, to the idle list, or closed when it holds state or is too old. */
    public void release(BackendConnection connection) {
        connection.returned();
        // lifetime as of the last response (stamped then): no clock read per release
        if (!connection.isActive() || connection.dirty() || connection.busy()
                || expired(connection, connection.lastUsedNanos())) {
            discard(connection);
            return;
        }
        Waiter waiter;
        boolean emptied = false;
        synchronized (this) {
            if (closed) {
                connection.close();
                return;
            }
            waiter = takeWaiter(connection.flavor(), connection.channel().eventLoop());
            if (waiter == null) {
                if (draining || waiterCount > 0) {
                    all.remove(connection);
                    connection.close();
                    if (draining) {
                        emptied = all.isEmpty() && opening == 0 && waiterCount == 0;
                    } else {
                        // Only waiters of another flavor: make room for them.
                        Waiter other = pollOldestWaiter();
                        open(other.flavor(), other.loop(), other.future());
                        return;
                    }
                } else {
                    idleDeque(connection, true).addFirst(connection);
                    return;
                }
            }
        }
        if (emptied) {
            close();
            return;
        }
        if (waiter == null) {
            return;
        }
        if (!waiter.future().complete(connection)) {
            release(connection);
        }
    }

    /** Closes a connection that must not be reused (broken, or holding unknown server state). */
    public void discard(BackendConnection connection) {
        connection.close();
        Waiter waiter;
        boolean emptied;
        synchronized (this) {
            if (!all.remove(connection) || closed) {
                return;
            }
            waiter = pollOldestWaiter();
            if (waiter != null) {
                open(waiter.flavor(), waiter.loop(), waiter.future());
            }
            emptied = draining && all.isEmpty() && opening == 0 && waiterCount == 0;
        }
        if (emptied) {
            close();
        }
    }

    /**
     * Retires the pool (a reload changed or removed its data source): idle connections close now, lent ones when
     * they are given back (a transaction in flight finishes on its connection), waiting statements are still
     * served; once nothing is lent the pool closes.
     */
    public void drain() {
        List<BackendConnection> idleNow = new ArrayList<>();
        boolean emptied;
        synchronized (this) {
            if (closed) {
                return;
            }
            draining = true;
            idle.values().forEach(byFlavor -> byFlavor.queues.forEach(idleNow::addAll));
            idle.clear();
            idleNow.forEach(all::remove);
            emptied = all.isEmpty() && opening == 0 && waiterCount == 0;
        }
        idleNow.forEach(BackendConnection::close);
        if (emptied) {
            close();
        }
    }

    /** Whether the pool is closed: stopped, or drained after a reload retired it. */
    public synchronized boolean closed() {
        return closed;
    }

    /** The pool's open connections, idle or lent, as of now. */
    public synchronized List<BackendConnection> connections() {
        return List.copyOf(all);
    }

    public synchronized PoolStats stats() {
        int idleCount = idle.values().stream().flatMap(l -> l.queues.stream()).mapToInt(Deque::size).sum();
        return new PoolStats(name(), size(), all.size() - idleCount, idleCount, waiterCount);
    }

    @Override
    public void close() {
        List<BackendConnection> toClose;
        List<Waiter> toFail;
        synchronized (this) {
            closed = true;
            leaks.close();
            eviction.cancel(false);
            expiry.cancel(false);
            toClose = new ArrayList<>(all);
            all.clear();
            idle.clear();
            toFail = new ArrayList<>();
            waiting.values().forEach(byFlavor -> byFlavor.queues.forEach(toFail::addAll));
            waiting.clear();
            waiterCount = 0;
        }
        toClose.forEach(BackendConnection::close);
        toFail.forEach(w -> w.future().completeExceptionally(
                ErrorCode.BACKEND_UNAVAILABLE.exception(config.describe(), "pool closed")));
    }

    private int size() {
        return all.size() + opening;
    }

    /** An idle connection of {@code loop}, else, when the pool is full, of another loop; else null. */
    private BackendConnection takeIdle(int flavor, EventLoop loop) {
        BackendConnection connection = pollIdle(flavor, loop);
        return connection != null || size() < maximumPoolSize ? connection : pollIdleElsewhere(flavor, loop);
    }

    /** The most recently used idle connection on {@code loop}; dead ones are dropped. */
    private BackendConnection pollIdle(int flavor, EventLoop loop) {
        ByFlavor<BackendConnection> local = idle.get(loop);
        return local == null ? null : pollIdle(local.get(flavor, false));
    }

    /**
     * An idle connection on another loop, for a full pool only: every statement on it is handed between two threads
     * (a task and a wake-up per packet), so while the pool may grow, a new connection on the client's loop is
     * cheaper over its life than borrowing one.
     */
    private BackendConnection pollIdleElsewhere(int flavor, EventLoop loop) {
        for (Map.Entry<EventLoop, ByFlavor<BackendConnection>> other : idle.entrySet()) {
            BackendConnection connection = other.getKey() == loop ? null
                    : pollIdle(other.getValue().get(flavor, false));
            if (connection != null) {
                return connection;
            }
        }
        return null;
    }

    private Deque<BackendConnection> idleDeque(BackendConnection connection, boolean create) {
        EventLoop loop = connection.channel().eventLoop();
        ByFlavor<BackendConnection> loopIdle = create ? idle.computeIfAbsent(loop, l -> new ByFlavor<>())
                : idle.get(loop);
        return loopIdle == null ? null : loopIdle.get(connection.flavor(), create);
    }

    private BackendConnection pollIdle(Deque<BackendConnection> deque) {
        while (deque != null && !deque.isEmpty()) {
            BackendConnection connection = deque.pollFirst();
            if (connection.isActive() && !expired(connection, System.nanoTime())) {
                return connection;
            }
            all.remove(connection);
            connection.close();
        }
        return null;
    }

    private boolean closeIdleOfOtherFlavor(int flavor) {
        for (ByFlavor<BackendConnection> loopIdle : idle.values()) {
            for (int i = 0; i < loopIdle.flavors.size(); i++) {
                BackendConnection victim = loopIdle.flavors.get(i) == flavor ? null
                        : loopIdle.queues.get(i).pollLast();
                if (victim != null) {
                    all.remove(victim);
                    victim.close();
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The waiter a released connection of {@code loop} goes to: the oldest of the flavor on the same loop (then the
     * statement runs with no hand-off between threads), unless the oldest of the flavor anywhere has waited
     * {@link #AFFINITY_WAIT_NANOS} longer than that one (a bound on what the preference may cost a loop with few
     * connections).
     */
    private Waiter takeWaiter(int flavor, EventLoop loop) {
        if (waiterCount == 0) {
            return null;
        }
        Deque<Waiter> oldest = null;
        for (ByFlavor<Waiter> loopWaiters : waiting.values()) {
            Deque<Waiter> queue = loopWaiters.get(flavor, false);
            if (queue != null && !queue.isEmpty() && (oldest == null || olderFirst(queue, oldest) < 0)) {
                oldest = queue;
            }
        }
        if (oldest == null) {
            return null;
        }
        ByFlavor<Waiter> own = waiting.get(loop);
        Deque<Waiter> mine = own == null ? null : own.get(flavor, false);
        boolean preferMine = mine != null && !mine.isEmpty() && olderFirst(mine, oldest) <= AFFINITY_WAIT_NANOS;
        waiterCount--;
        return (preferMine ? mine : oldest).pollFirst();
    }

    /** The oldest waiter of any flavor and loop (to open a connection for), or null. */
    private Waiter pollOldestWaiter() {
        Deque<Waiter> oldest = null;
        for (ByFlavor<Waiter> loopWaiters : waiting.values()) {
            for (Deque<Waiter> queue : loopWaiters.queues) {
                if (!queue.isEmpty() && (oldest == null || olderFirst(queue, oldest) < 0)) {
                    oldest = queue;
                }
            }
        }
        if (oldest == null) {
            return null;
        }
        waiterCount--;
        return oldest.pollFirst();
    }

    /** How much later the head of {@code a} started waiting than the head of {@code b} (negative: earlier). */
    private static long olderFirst(Deque<Waiter> a, Deque<Waiter> b) {
        return a.peekFirst().sinceNanos() - b.peekFirst().sinceNanos();
    }

    /** Called with the lock held; the connect itself completes later on an event loop. */
    private void open(int flavor, EventLoop loop, CompletableFuture<BackendConnection> future) {
        opening++;
        connector.connect(config, flavor, loop).whenComplete((connection, error) -> {
            synchronized (this) {
                opening--;
                if (error == null) {
                    all.add(connection);
                    connection.pool(this);
                    connection.channel().closeFuture().addListener(f -> forget(connection));
                } else {
                    lastFailure = BackendConnector.describe(error);
                }
            }
            if (error != null) {
                LOG.warn("cannot open a connection to data source {}: {}", name(), lastFailure);
                future.completeExceptionally(error);
            } else if (!future.complete(connection)) {
                release(connection);
            }
        });
    }

    /** A connection closed by the server while idle leaves the pool. */
    private void forget(BackendConnection connection) {
        synchronized (this) {
            if (!all.remove(connection)) {
                return;
            }
            Deque<BackendConnection> deque = idleDeque(connection, false);
            if (deque != null) {
                deque.remove(connection);
            }
            Waiter waiter = closed ? null : pollOldestWaiter();
            if (waiter != null) {
                open(waiter.flavor(), waiter.loop(), waiter.future());
            }
        }
    }

    /** Fails the waiters that have waited connectionTimeout (each queue is oldest first). */
    private void expireWaiters() {
        List<Waiter> expired = new ArrayList<>();
        String message;
        synchronized (this) {
            long now = System.nanoTime();
            long limit = TimeUnit.MILLISECONDS.toNanos(connectionTimeoutMillis);
            for (ByFlavor<Waiter> loopWaiters : waiting.values()) {
                for (Deque<Waiter> queue : loopWaiters.queues) {
                    while (!queue.isEmpty() && now - queue.peekFirst().sinceNanos() >= limit) {
                        expired.add(queue.pollFirst());
                    }
                }
            }
            if (expired.isEmpty()) {
                return;
            }
            waiterCount -= expired.size();
            PoolStats stats = stats();
            message = new PoolStats(name(), stats.total(), stats.active(), stats.idle(),
                    stats.waiting() + expired.size()).exhausted(connectionTimeoutMillis)
                    + ", last connect failure: " + lastFailure;
        }
        expired.forEach(w -> w.future().completeExceptionally(ErrorCode.POOL_EXHAUSTED.exception(message)));
    }

    private boolean expired(BackendConnection connection, long now) {
        return now - connection.createdNanos() > maxLifetimeNanos;
    }

    private void evictIdle() {
        long limit = TimeUnit.MILLISECONDS.toNanos(config.idleTimeoutMillis());
        List<BackendConnection> victims = new ArrayList<>();
        synchronized (this) {
            int keep = config.minimumIdle();
            long now = System.nanoTime();
            for (Deque<BackendConnection> deque : idle.values().stream().flatMap(l -> l.queues.stream()).toList()) {
                for (Iterator<BackendConnection> it = deque.descendingIterator(); it.hasNext(); ) {
                    BackendConnection connection = it.next();
                    boolean stale = now - connection.lastUsedNanos() > limit || expired(connection, now);
                    if (stale && all.size() > keep) {
                        it.remove();
                        all.remove(connection);
                        victims.add(connection);
                    }
                }
            }
        }
        victims.forEach(BackendConnection::close);
    }
}
