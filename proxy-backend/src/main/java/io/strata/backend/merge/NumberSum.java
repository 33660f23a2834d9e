package io.strata.backend.merge;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A sum as MySQL makes it for a column's type: exact for integers and DECIMAL, in a double where the values or the
 * result are FLOAT or DOUBLE. NULLs are skipped; over none the sum is NULL.
 */
final class NumberSum {

    private final boolean floating;
    private final ExactSum exact = new ExactSum();
    private double total;
    private boolean empty = true;

    NumberSum(boolean floating) {
        this.floating = floating;
    }

    /** Summed in a double when the values summed or the column that shows them are floating. */
    static NumberSum of(RowLayout layout, int values, int result) {
        return new NumberSum(layout.kind(values) == ColumnKind.FLOATING || layout.kind(result) == ColumnKind.FLOATING);
    }

    void add(MergeRow row, int column) {
        if (row.isNull(column)) {
            return;
        }
        empty = false;
        if (!floating) {
            exact.add(row, column);
        } else if (row.layout().kind(column) == ColumnKind.FLOATING) {
            total += row.doubleValue(column);
        } else {
            total += Values.decimal(row, column).doubleValue();
        }
    }

    /** A Double, a BigDecimal, or null over no values. */
    Object value() {
        return empty ? null : floating ? (Object) total : exact.value();
    }

    /**
     * The sum divided by {@code count}, at {@code decimals} rounded half up as MySQL rounds a DECIMAL (a double is
     * divided as it is); null over no values.
     */
    Object average(long count, int decimals) {
        if (empty || count == 0) {
            return null;
        }
        if (floating) {
            return total / count;
        }
        return exact.value().divide(BigDecimal.valueOf(count), decimals, RoundingMode.HALF_UP);
    }
}
