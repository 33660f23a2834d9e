package io.strata.kernel.digest;

/**
 * The counts of one digest row. Sessions on different event loops may add to one row at once: each update takes the
 * row's monitor, which nobody else holds for long.
 */
public final class DigestStats {

    private long count;
    private long firstSeenMillis;
    private long lastSeenMillis;
    private long sumMicros;
    private long minMicros = Long.MAX_VALUE;
    private long maxMicros;
    private long rowsSent;
    private long rowsAffected;
    private long errors;
    private long warnings;
    /** For the "others" row: how many digests were folded into it. */
    private long folded;

    synchronized void add(long nowMillis, long micros, long sent, long affected, boolean failed, int warned) {
        if (count++ == 0) {
            firstSeenMillis = nowMillis;
        }
        lastSeenMillis = nowMillis;
        sumMicros += micros;
        minMicros = Math.min(minMicros, micros);
        maxMicros = Math.max(maxMicros, micros);
        rowsSent += sent;
        rowsAffected += affected;
        errors += failed ? 1 : 0;
        warnings += warned;
    }

    /** Adds another row's counts to this one (a row folded into "others"). */
    synchronized void fold(Snapshot other) {
        if (other.count() == 0) {
            return;
        }
        firstSeenMillis = count == 0 ? other.firstSeenMillis() : Math.min(firstSeenMillis, other.firstSeenMillis());
        lastSeenMillis = Math.max(lastSeenMillis, other.lastSeenMillis());
        count += other.count();
        sumMicros += other.sumMicros();
        minMicros = Math.min(minMicros, other.minMicros());
        maxMicros = Math.max(maxMicros, other.maxMicros());
        rowsSent += other.rowsSent();
        rowsAffected += other.rowsAffected();
        errors += other.errors();
        warnings += other.warnings();
        folded += 1 + other.folded();
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(count, firstSeenMillis, lastSeenMillis, sumMicros, count == 0 ? 0 : minMicros,
                maxMicros, rowsSent, rowsAffected, errors, warnings, folded);
    }

    /** The counts at one moment. Times in microseconds, seen times in epoch milliseconds. */
    public record Snapshot(long count, long firstSeenMillis, long lastSeenMillis, long sumMicros, long minMicros,
                           long maxMicros, long rowsSent, long rowsAffected, long errors, long warnings,
                           long folded) {

        public long avgMicros() {
            return count == 0 ? 0 : sumMicros / count;
        }
    }
}
