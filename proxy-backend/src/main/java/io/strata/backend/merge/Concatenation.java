package io.strata.backend.merge;

import java.util.List;

/** The units' rows one unit after another, when they have no order to merge by. */
final class Concatenation implements RowStream {

    private final List<UnitRows> units;
    private int current;

    Concatenation(List<UnitRows> units) {
        this.units = List.copyOf(units);
    }

    @Override
    public MergeRow next() throws InterruptedException {
        while (current < units.size()) {
            MergeRow row = units.get(current).next();
            if (row != null) {
                return row;
            }
            current++;
        }
        return null;
    }

    @Override
    public void close() {
        current = units.size();
    }
}
