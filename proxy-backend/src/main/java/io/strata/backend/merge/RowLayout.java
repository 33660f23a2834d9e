package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.util.List;

/** What a merge knows of the units' columns: each one's type, and how its values compare. Immutable. */
final class RowLayout {

    private final List<ColumnMetadata> columns;
    private final int[] types;
    private final boolean[] unsigned;
    private final ColumnKind[] kinds;

    RowLayout(List<ColumnMetadata> columns) {
        this.columns = List.copyOf(columns);
        int size = columns.size();
        types = new int[size];
        unsigned = new boolean[size];
        kinds = new ColumnKind[size];
        for (int i = 0; i < size; i++) {
            ColumnMetadata column = columns.get(i);
            types[i] = column.type();
            unsigned[i] = (column.flags() & ColumnType.FLAG_UNSIGNED) != 0;
            kinds[i] = ColumnKind.of(column);
        }
    }

    int size() {
        return types.length;
    }

    ColumnMetadata column(int column) {
        return columns.get(column);
    }

    int type(int column) {
        return types[column];
    }

    boolean unsigned(int column) {
        return unsigned[column];
    }

    ColumnKind kind(int column) {
        return kinds[column];
    }

    /** The NULL bitmap's length in a binary-protocol row of {@code columns} columns (its bits start at 2). */
    static int bitmapBytes(int columns) {
        return (columns + 9) / 8;
    }
}
