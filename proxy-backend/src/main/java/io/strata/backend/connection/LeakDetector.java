package io.strata.backend.connection;

import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * HikariCP's leakDetectionThreshold for the native pool: a connection lent longer than the threshold is reported once
 * in the log with the stack that borrowed it, and counted. As in HikariCP, any long hold counts (a long transaction or
 * a pinned session too), so the threshold belongs above the longest a session may rightly keep a connection; a
 * connection reported and then returned is logged as such. Off (no clock read, no stack per borrow) at 0.
 */
final class LeakDetector {

    private static final Logger LOG = LoggerFactory.getLogger(LeakDetector.class);

    private final String dataSource;
    private final long thresholdNanos;
    private final Supplier<List<BackendConnection>> connections;
    private final AtomicLong leaks = new AtomicLong();
    private final ScheduledFuture<?> check;
    private volatile Throwable lastLeak;

    /** @param connections every connection of the pool, lent or idle, at the moment asked */
    LeakDetector(String dataSource, long thresholdMillis, EventLoopGroup timers,
                 Supplier<List<BackendConnection>> connections) {
        this.dataSource = dataSource;
        this.thresholdNanos = TimeUnit.MILLISECONDS.toNanos(thresholdMillis);
        this.connections = connections;
        long period = Math.max(50, thresholdMillis / 4);
        this.check = thresholdMillis <= 0 ? null
                : timers.next().scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    /** The stack of a borrower asking now, which a leak report shows; null when the check is off. */
    Throwable borrowing() {
        return check == null ? null : new Exception("connection of data source " + dataSource + " borrowed here");
    }

    /** A connection leaves the pool for the borrower whose stack is {@code borrowedAt} (null: the check is off). */
    void lent(BackendConnection connection, Throwable borrowedAt) {
        if (borrowedAt != null && connection != null) {
            connection.lent(System.nanoTime(), borrowedAt);
        }
    }

    private void check() {
        long now = System.nanoTime();
        for (BackendConnection connection : connections.get()) {
            BackendConnection.Lending lease = connection.lending();
            if (lease != null && !lease.reported() && now - lease.sinceNanos() > thresholdNanos
                    && connection.reportLeak(lease)) {
                leaks.incrementAndGet();
                lastLeak = lease.borrowedAt();
                LOG.warn("Connection {} of data source {} was borrowed {} ms ago and not returned "
                                + "(leakDetectionThreshold {} ms): a leak, or a hold longer than the threshold",
                        connection.connectionId(), dataSource, TimeUnit.NANOSECONDS.toMillis(now - lease.sinceNanos()),
                        TimeUnit.NANOSECONDS.toMillis(thresholdNanos), lease.borrowedAt());
            }
        }
    }

    /** Connections reported as leaked since the start. */
    long leaks() {
        return leaks.get();
    }

    /** The stack that borrowed the last connection reported, or null. */
    Throwable lastLeak() {
        return lastLeak;
    }

    void close() {
        if (check != null) {
            check.cancel(false);
        }
    }
}
