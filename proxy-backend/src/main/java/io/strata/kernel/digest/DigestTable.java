package io.strata.kernel.digest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The digest rows, bounded: when a new digest finds the table full, the tenth of the rows least used (by count) is
 * folded into the one "others" row, whose {@code folded} says how many went there. Folding sorts the table, so it
 * happens once per {@code max / 10} new digests, not per statement.
 */
public final class DigestTable {

    /** The key of the row where folded digests are counted. */
    public static final DigestKey OTHERS = new DigestKey("(others)", "", "", "");

    /** Wall-clock milliseconds are derived from the statement's own nanoTime: no third clock read per statement. */
    private static final long EPOCH_MILLIS = System.currentTimeMillis();
    private static final long EPOCH_NANOS = System.nanoTime();

    private final int max;
    private final Map<DigestKey, DigestStats> rows = new ConcurrentHashMap<>();
    private volatile DigestStats others = new DigestStats();

    /** @param max how many digest rows the table keeps besides "others" */
    public DigestTable(int max) {
        this.max = max;
    }

    /**
     * Counts one statement.
     *
     * @param endNanos {@link System#nanoTime()} when it ended
     */
    public void add(DigestKey key, long endNanos, long micros, long rowsSent, long rowsAffected, boolean failed,
                    int warnings) {
        DigestStats stats = rows.get(key);
        if (stats == null) {
            if (rows.size() >= max) {
                fold();
            }
            stats = rows.computeIfAbsent(key, k -> new DigestStats());
        }
        stats.add(EPOCH_MILLIS + (endNanos - EPOCH_NANOS) / 1_000_000, micros, rowsSent, rowsAffected, failed,
                warnings);
    }

    /** Folds the least used tenth of the rows (at least one) into "others". */
    private synchronized void fold() {
        if (rows.size() < max) {
            return; // another thread folded while this one waited
        }
        List<Map.Entry<DigestKey, DigestStats.Snapshot>> all = new ArrayList<>(rows.size());
        rows.forEach((key, stats) -> all.add(Map.entry(key, stats.snapshot())));
        all.sort(Comparator.comparingLong(e -> e.getValue().count()));
        int fold = Math.max(1, all.size() / 10);
        for (int i = 0; i < fold; i++) {
            DigestStats removed = rows.remove(all.get(i).getKey());
            if (removed != null) {
                others.fold(removed.snapshot()); // counts added since the sort go along too
            }
        }
    }

    /** Every row, "others" last when it holds anything. */
    public List<Map.Entry<DigestKey, DigestStats.Snapshot>> snapshot() {
        List<Map.Entry<DigestKey, DigestStats.Snapshot>> all = new ArrayList<>(rows.size() + 1);
        rows.forEach((key, stats) -> all.add(Map.entry(key, stats.snapshot())));
        DigestStats.Snapshot folded = others.snapshot();
        if (folded.count() > 0) {
            all.add(Map.entry(OTHERS, folded));
        }
        return all;
    }

    /** FLUSH STRATA DIGESTS: every row goes, "others" too. */
    public synchronized void clear() {
        rows.clear();
        others = new DigestStats();
    }

    public int size() {
        return rows.size();
    }
}
