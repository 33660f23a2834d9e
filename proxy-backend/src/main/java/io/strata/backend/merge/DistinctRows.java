package io.strata.backend.merge;

/**
 * SELECT DISTINCT: drops a row equal to the one before it on every key of the units' order. The rule orders the
 * units by every visible column, so equal rows come together.
 */
final class DistinctRows implements RowStream {

    private final RowStream source;
    private final RowOrder keys;
    /** The last row given, by its keys' values: the row itself is the client's by now. */
    private RowKey last;

    DistinctRows(RowStream source, RowOrder keys) {
        this.source = source;
        this.keys = keys;
    }

    @Override
    public MergeRow next() throws InterruptedException {
        for (MergeRow row = source.next(); row != null; row = source.next()) {
            RowKey key = keys.key(row);
            if (!key.equals(last)) {
                last = key;
                return row;
            }
            row.release();
        }
        return null;
    }

    @Override
    public void close() {
        source.close();
    }
}
