package io.strata.rule.health;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A replication position as a server reports it: MariaDB's {@code gtid_binlog_pos} / {@code gtid_slave_pos}
 * ({@code domain-server-seq} per domain) or MySQL's {@code gtid_executed} ({@code uuid:1-100:105} per source). The one
 * question asked of it: has a replica applied everything in a primary's position?
 */
public final class GtidPosition {

    public static final GtidPosition EMPTY = new GtidPosition("", Map.of());

    private final String text;
    /** MariaDB: domain -> highest sequence number, as one interval [1, seq]; MySQL: source uuid -> intervals. */
    private final Map<String, long[][]> sources;

    private GtidPosition(String text, Map<String, long[][]> sources) {
        this.text = text;
        this.sources = sources;
    }

    /** @throws IllegalArgumentException when the text is neither form */
    public static GtidPosition parse(String text) {
        String trimmed = text == null ? "" : text.replaceAll("\\s", "");
        if (trimmed.isEmpty()) {
            return EMPTY;
        }
        Map<String, long[][]> sources = new HashMap<>();
        for (String part : trimmed.split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.contains(":")) {
                String[] pieces = part.split(":");
                List<long[]> intervals = new ArrayList<>();
                for (int i = 1; i < pieces.length; i++) {
                    String[] bounds = pieces[i].split("-");
                    long from = Long.parseLong(bounds[0]);
                    intervals.add(new long[] {from, bounds.length > 1 ? Long.parseLong(bounds[1]) : from});
                }
                sources.put(pieces[0].toLowerCase(), intervals.toArray(long[][]::new));
            } else {
                String[] pieces = part.split("-");
                if (pieces.length != 3) {
                    throw new IllegalArgumentException("not a GTID position: " + text);
                }
                sources.put(pieces[0], new long[][] {{1, Long.parseLong(pieces[2])}});
            }
        }
        return new GtidPosition(trimmed, Map.copyOf(sources));
    }

    /** Whether every transaction of {@code other} is in this position. */
    public boolean contains(GtidPosition other) {
        for (Map.Entry<String, long[][]> source : other.sources.entrySet()) {
            long[][] mine = sources.get(source.getKey());
            for (long[] interval : source.getValue()) {
                if (!covered(mine, interval)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean covered(long[][] intervals, long[] wanted) {
        if (intervals == null) {
            return false;
        }
        for (long[] interval : intervals) {
            if (interval[0] <= wanted[0] && wanted[1] <= interval[1]) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return sources.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }
}
