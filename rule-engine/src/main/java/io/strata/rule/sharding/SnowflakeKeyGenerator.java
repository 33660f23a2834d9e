package io.strata.rule.sharding;

import java.util.function.LongSupplier;

/**
 * ShardingSphere's SNOWFLAKE keys, bit for bit: 41 bits of milliseconds since 2016-11-01T00:00:00Z, 10 bits of
 * worker id, 12 bits of sequence within the millisecond. Keys of one generator only grow. The first sequence of each
 * new millisecond cycles 0, 1, ... max-vibration-offset, so that keys taken mod a small power of two do not all
 * land on shard 0 at low traffic; 4096 keys in one millisecond wait for the next one.
 *
 * <p>A clock that goes back by less than max-tolerate-time-difference-milliseconds is treated as standing still
 * (ShardingSphere sleeps it off; the keys are the same kind: later than all before); further back, no key is made.
 * Thread-safe: one lock, held for nanoseconds.
 */
public final class SnowflakeKeyGenerator implements KeyGenerator {

    /** 2016-11-01T00:00:00Z, ShardingSphere's epoch (it takes midnight in the JVM's zone; Strata takes UTC). */
    public static final long EPOCH_MILLIS = 1_477_958_400_000L;
    static final int WORKER_ID_SHIFT = 12;
    static final int TIMESTAMP_SHIFT = 22;
    static final long SEQUENCE_MASK = (1 << 12) - 1;
    static final int MAX_WORKER_ID = 1023;

    private final int workerId;
    private final WorkerIds workerIds;
    private final int maxVibrationOffset;
    private final long maxTolerateMillis;
    private final LongSupplier clock;

    private long lastMillis = Long.MIN_VALUE;
    private long sequence;
    private int sequenceOffset = -1;

    /** @param clock milliseconds since 1970 (System::currentTimeMillis; tests pass their own) */
    public SnowflakeKeyGenerator(int workerId, int maxVibrationOffset, long maxTolerateMillis, LongSupplier clock) {
        this(WorkerIds.CONFIGURED, workerId, maxVibrationOffset, maxTolerateMillis, clock);
    }

    /** @param workerIds asked for each key's worker id ({@code workerId} is the prop it is given) */
    public SnowflakeKeyGenerator(WorkerIds workerIds, int workerId, int maxVibrationOffset, long maxTolerateMillis,
                                 LongSupplier clock) {
        if (workerId < 0 || workerId > MAX_WORKER_ID || maxVibrationOffset < 0 || maxVibrationOffset > SEQUENCE_MASK
                || maxTolerateMillis < 0) {
            throw new IllegalArgumentException("worker id 0..1023, vibration offset 0..4095, tolerance >= 0");
        }
        this.workerId = workerId;
        this.workerIds = workerIds;
        this.maxVibrationOffset = maxVibrationOffset;
        this.maxTolerateMillis = maxTolerateMillis;
        this.clock = clock;
    }

    @Override
    public synchronized Long next() {
        long worker = workerIds.workerId(workerId);
        long now = clock.getAsLong();
        if (now < lastMillis) {
            now = clockGoneBack(now);
        }
        if (now == lastMillis) {
            sequence = (sequence + 1) & SEQUENCE_MASK;
            if (sequence == 0) {
                now = nextMillisAfter(lastMillis);
            }
        } else {
            sequenceOffset = sequenceOffset >= maxVibrationOffset ? 0 : sequenceOffset + 1;
            sequence = sequenceOffset;
        }
        lastMillis = now;
        return ((now - EPOCH_MILLIS) << TIMESTAMP_SHIFT) | (worker << WORKER_ID_SHIFT) | sequence;
    }

    private long clockGoneBack(long now) {
        long behind = lastMillis - now;
        if (behind >= maxTolerateMillis) {
            throw new ShardingRouteException("the clock went back " + behind + " ms, as far as or beyond "
                    + "max-tolerate-time-difference-milliseconds (" + maxTolerateMillis + "): no snowflake key is "
                    + "made, it could repeat one");
        }
        return lastMillis;
    }

    private long nextMillisAfter(long millis) {
        long now = clock.getAsLong();
        while (now <= millis) {
            Thread.onSpinWait();
            now = clock.getAsLong();
        }
        return now;
    }

    /** The milliseconds since 1970 at which a key was made. */
    public static long millisOf(long key) {
        return (key >>> TIMESTAMP_SHIFT) + EPOCH_MILLIS;
    }
}
