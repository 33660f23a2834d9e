package io.strata.backend.merge;

/**
 * Groups whose rows come one group after another (the units' order begins with the group key): one group in hand
 * at a time, its row given as soon as the next group's first row shows. With no group key every row is one group,
 * which exists even over no rows ({@code SELECT COUNT(*)} over nothing is one row).
 */
final class StreamingGroups implements RowStream {

    private final RowStream source;
    private final RowOrder groupKey;
    private final Aggregates aggregates;
    /** The next group's first row, read while finishing the one before. */
    private MergeRow pending;
    private Group current;
    private boolean ended;
    private boolean any;

    StreamingGroups(RowStream source, RowOrder groupKey, Aggregates aggregates) {
        this.source = source;
        this.groupKey = groupKey;
        this.aggregates = aggregates;
    }

    @Override
    public MergeRow next() throws InterruptedException {
        MergeRow row = pending != null ? pending : ended ? null : source.next();
        pending = null;
        if (row == null) {
            ended = true;
            if (any || !groupKey.isEmpty()) {
                return null;
            }
            any = true;
            return aggregates.finish(aggregates.group(null));
        }
        any = true;
        current = aggregates.group(row);
        while ((row = source.next()) != null) {
            if (groupKey.compare(current.first(), row) != 0) {
                pending = row;
                break;
            }
            try {
                current.add(row);
            } finally {
                row.release();
            }
        }
        ended = row == null;
        Group done = current;
        current = null;
        return aggregates.finish(done);
    }

    @Override
    public void close() {
        if (current != null) {
            current.release();
            current = null;
        }
        if (pending != null) {
            pending.release();
            pending = null;
        }
        source.close();
    }
}
