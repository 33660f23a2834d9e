package io.strata.rule.health;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live state of one data source: in rotation or not (and why), its replication lag and GTID position as last
 * checked, and the statements routed to it. Written by the health monitor and by sessions on any thread.
 */
public final class DataSourceStatus {

    /** How many primary positions are remembered, one per check: at the default interval, half a minute. */
    private static final int HISTORY = 32;

    private final String database;
    private final String name;
    private volatile boolean inRotation = true;
    /** Taken out by an administrator (ALTER STRATA DATA SOURCE ... DISABLE): out whatever the checks find. */
    private volatile boolean disabled;
    private volatile String reason = "not checked yet";
    private volatile Long lagSeconds;
    private volatile GtidPosition position;
    private volatile long checkedAtMillis;
    private final AtomicInteger active = new AtomicInteger();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final long[] historyNanos = new long[HISTORY];
    private final GtidPosition[] history = new GtidPosition[HISTORY];
    private int historyNext;

    public DataSourceStatus(String database, String name) {
        this.database = database;
        this.name = name;
    }

    public String database() {
        return database;
    }

    public String name() {
        return name;
    }

    /**
     * Whether statements may be routed here: the last check found it fit (a data source nobody checks stays in
     * rotation) and no administrator disabled it.
     */
    public boolean inRotation() {
        return inRotation && !disabled;
    }

    /** Why the data source is out of rotation, or what the last check found. */
    public String reason() {
        return disabled ? "disabled by ALTER STRATA DATA SOURCE (" + reason + ")" : reason;
    }

    /** Whether an administrator took it out of the rotation. */
    public boolean disabled() {
        return disabled;
    }

    /** An administrator takes it out of the rotation (its running statements finish) or lets it back. */
    public void disabled(boolean disabled) {
        this.disabled = disabled;
    }

    /** Replication lag in seconds as last checked, null when unknown or not a replica. */
    public Long lagSeconds() {
        return lagSeconds;
    }

    /** The GTID position as last checked, null when unknown. */
    public GtidPosition position() {
        return position;
    }

    public long checkedAtMillis() {
        return checkedAtMillis;
    }

    /** A check found the data source fit to serve. */
    public void up(String what, Long lag, GtidPosition position) {
        this.lagSeconds = lag;
        this.position = position;
        this.reason = what;
        this.checkedAtMillis = System.currentTimeMillis();
        this.inRotation = true;
    }

    /** A check, or a failed statement, found it unfit: it leaves the rotation until a check finds it fit again. */
    public void down(String why, Long lag) {
        this.lagSeconds = lag;
        this.reason = why;
        this.checkedAtMillis = System.currentTimeMillis();
        this.inRotation = false;
    }

    /**
     * Remembers a primary's position read by a check that started at {@code startedNanos} ({@link System#nanoTime()}):
     * it holds every transaction committed before that moment.
     */
    public synchronized void recordPosition(long startedNanos, GtidPosition position) {
        historyNanos[historyNext] = startedNanos;
        history[historyNext] = position;
        historyNext = (historyNext + 1) % HISTORY;
        this.position = position;
    }

    /**
     * The first remembered position read after {@code nanos}: it holds a write that completed at {@code nanos}.
     * Null when no check has started since (then nothing proves a replica has the write yet).
     */
    public synchronized GtidPosition positionAfter(long nanos) {
        GtidPosition found = null;
        long foundAt = 0;
        for (int i = 0; i < HISTORY; i++) {
            GtidPosition candidate = history[i];
            if (candidate != null && historyNanos[i] - nanos > 0 && (found == null || historyNanos[i] - foundAt < 0)) {
                found = candidate;
                foundAt = historyNanos[i];
            }
        }
        return found;
    }

    /** Statements running here now (for LEAST_ACTIVE). */
    public int active() {
        return active.get();
    }

    public long reads() {
        return reads.sum();
    }

    public long writes() {
        return writes.sum();
    }

    public long retries() {
        return retries.sum();
    }

    /** A statement was routed here. */
    public void started(boolean write) {
        active.incrementAndGet();
        (write ? writes : reads).increment();
    }

    /** A statement routed here has ended (answered, failed, or never started). */
    public void finished() {
        active.decrementAndGet();
    }

    /** A statement routed here found it dead before it started and went elsewhere. */
    public void retried() {
        retries.increment();
    }
}
