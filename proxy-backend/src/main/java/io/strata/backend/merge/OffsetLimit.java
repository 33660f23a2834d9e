package io.strata.backend.merge;

/** LIMIT offset, count over the merged rows: the first {@code offset} dropped, then at most {@code limit} given. */
final class OffsetLimit implements RowStream {

    private final RowStream source;
    private long toSkip;
    /** Rows still to give, or -1 for all. */
    private long left;

    OffsetLimit(RowStream source, long offset, long limit) {
        this.source = source;
        this.toSkip = offset;
        this.left = limit;
    }

    @Override
    public MergeRow next() throws InterruptedException {
        if (left == 0) {
            return null;
        }
        for (; toSkip > 0; toSkip--) {
            MergeRow skipped = source.next();
            if (skipped == null) {
                left = 0;
                return null;
            }
            skipped.release();
        }
        MergeRow row = source.next();
        if (row != null && left > 0) {
            left--;
        }
        return row;
    }

    @Override
    public void close() {
        source.close();
    }
}
