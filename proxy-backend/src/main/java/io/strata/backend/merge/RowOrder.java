package io.strata.backend.merge;

import io.strata.rule.QueryMerge.SortKey;

import java.util.Comparator;
import java.util.List;

/**
 * An order of rows by keys, as MySQL sorts: each key's value, a string by its weight column where it has one; NULL
 * first ascending, last descending. An order of no keys finds every row equal.
 */
final class RowOrder implements Comparator<MergeRow> {

    /** The column each key compares: its weight column when it has one. */
    private final int[] columns;
    private final boolean[] descending;

    RowOrder(List<SortKey> keys) {
        columns = new int[keys.size()];
        descending = new boolean[keys.size()];
        for (int i = 0; i < columns.length; i++) {
            SortKey key = keys.get(i);
            columns[i] = key.weightColumn() >= 0 ? key.weightColumn() : key.column();
            descending[i] = key.descending();
        }
    }

    @Override
    public int compare(MergeRow a, MergeRow b) {
        for (int i = 0; i < columns.length; i++) {
            int c = Values.compare(a, columns[i], b, columns[i]);
            if (c != 0) {
                return descending[i] ? -c : c;
            }
        }
        return 0;
    }

    boolean isEmpty() {
        return columns.length == 0;
    }

    /** The row's values of these keys, equal to another row's exactly when {@link #compare} finds them equal. */
    RowKey key(MergeRow row) {
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            values[i] = Values.key(row, columns[i]);
        }
        return new RowKey(values);
    }
}
