package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.strata.backend.result.Row;

/**
 * A row inside the merge: a unit's row, or one the merge built (a group's). It answers for the values the merge
 * compares or aggregates, each decoded as its column's {@link ColumnKind} says, and leaves the others as they are.
 * A row with a packet holds one reference to it: whoever holds the row either passes it on, or releases it.
 */
sealed interface MergeRow permits PacketRow, CellsRow {

    RowLayout layout();

    boolean isNull(int column);

    /**
     * A non-NULL value of kind {@link ColumnKind#SIGNED} or {@link ColumnKind#UNSIGNED} (its 64 bits), {@link
     * ColumnKind#DATE_TIME} (its fields packed in order) or {@link ColumnKind#TIME} (signed microseconds).
     */
    long longValue(int column);

    /** A non-NULL value of kind {@link ColumnKind#FLOATING}. */
    double doubleValue(int column);

    /**
     * Where a non-NULL value's bytes are: a string's, a weight's, a DECIMAL's text. Valid while the row is held;
     * {@link #start} and {@link #length} index into it.
     */
    ByteBuf bytes(int column);

    int start(int column);

    int length(int column);

    void retain();

    void release();

    /** The row as the client gets it, its first {@code visibleColumns} columns only; takes this row's reference. */
    Row toRow(int visibleColumns);
}
