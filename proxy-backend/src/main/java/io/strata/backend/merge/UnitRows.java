package io.strata.backend.merge;

import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;

/** One unit's rows as the merge reads them: packets read in place, or a driver's cells. */
final class UnitRows {

    private final QueryResult result;
    private final RowLayout layout;

    UnitRows(QueryResult result, RowLayout layout) {
        this.result = result;
        this.layout = layout;
    }

    MergeRow next() throws InterruptedException {
        return switch (result.next()) {
            case null -> null;
            case Row.Packet packet -> new PacketRow(packet.payload(), packet.binary(), layout);
            case Row.Cells cells -> new CellsRow(cells.values(), layout);
        };
    }

    /** Reads the rows the merge no longer needs, so the unit's status is known (its own LIMIT bounds them). */
    void drain() throws InterruptedException {
        for (Row row = result.next(); row != null; row = result.next()) {
            if (row instanceof Row.Packet packet) {
                packet.payload().release();
            }
        }
    }

    QueryResult result() {
        return result;
    }
}
