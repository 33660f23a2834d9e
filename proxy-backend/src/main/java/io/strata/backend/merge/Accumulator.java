package io.strata.backend.merge;

import io.strata.rule.QueryMerge.Aggregation;

import java.util.HashSet;
import java.util.Set;

/**
 * How one aggregate column of a merged group comes from the units' rows of that group, each of which already holds
 * the unit's own aggregate ({@link Aggregation}): counts and sums are summed, MIN and MAX compared, AVG divided
 * from the derived SUM and COUNT, the DISTINCT functions computed over the distinct values the units list.
 */
sealed interface Accumulator {

    /** Takes a row of the group into account; the row stays the caller's. */
    void add(MergeRow row);

    /** Puts the column's value into the group's row. */
    void writeTo(GroupRow row);

    /** Lets go of what it holds (a picked row, distinct values). */
    default void release() {
    }

    static Accumulator of(Aggregation aggregation, RowLayout layout, HeldRows held) {
        int column = aggregation.column();
        return switch (aggregation.function()) {
            case COUNT -> new Count(column);
            case SUM -> new Sum(column, NumberSum.of(layout, column, column));
            case MIN -> new Extreme(column, aggregation.weightColumn(), -1);
            case MAX -> new Extreme(column, aggregation.weightColumn(), 1);
            case AVG -> new Average(aggregation, NumberSum.of(layout, aggregation.argument(), column),
                    layout.column(column).decimals());
            case COUNT_DISTINCT -> new Distinct(aggregation, null, 0, held);
            case SUM_DISTINCT, AVG_DISTINCT -> new Distinct(aggregation,
                    NumberSum.of(layout, aggregation.argument(), column), layout.column(column).decimals(), held);
        };
    }

    /** COUNT: the units' counts summed (never NULL: 0 over no rows). */
    final class Count implements Accumulator {
        private final int column;
        private long count;

        Count(int column) {
            this.column = column;
        }

        @Override
        public void add(MergeRow row) {
            if (!row.isNull(column)) {
                count += row.longValue(column);
            }
        }

        @Override
        public void writeTo(GroupRow row) {
            row.set(column, count);
        }
    }

    /** SUM: the units' sums summed; NULL when every one is. */
    final class Sum implements Accumulator {
        private final int column;
        private final NumberSum sum;

        Sum(int column, NumberSum sum) {
            this.column = column;
            this.sum = sum;
        }

        @Override
        public void add(MergeRow row) {
            sum.add(row, column);
        }

        @Override
        public void writeTo(GroupRow row) {
            row.set(column, sum.value());
        }
    }

    /**
     * MIN or MAX: the least or greatest of the units' values (strings by their weight), whose row is kept so its
     * bytes are what the client gets, its weight with it.
     */
    final class Extreme implements Accumulator {
        private final int column;
        private final int weightColumn;
        private final int sign;
        private MergeRow picked;

        Extreme(int column, int weightColumn, int sign) {
            this.column = column;
            this.weightColumn = weightColumn;
            this.sign = sign;
        }

        @Override
        public void add(MergeRow row) {
            int compared = weightColumn >= 0 ? weightColumn : column;
            if (row.isNull(column)) {
                return;
            }
            if (picked == null || sign * Values.compare(row, compared, picked, compared) > 0) {
                row.retain();
                release();
                picked = row;
            }
        }

        @Override
        public void writeTo(GroupRow row) {
            if (picked == null) {
                row.set(column, null);
                if (weightColumn >= 0) {
                    row.set(weightColumn, null);
                }
                return;
            }
            row.take(column, picked);
            if (weightColumn >= 0) {
                row.take(weightColumn, picked);
            }
        }

        @Override
        public void release() {
            if (picked != null) {
                picked.release();
                picked = null;
            }
        }
    }

    /** AVG: the derived SUM summed, divided by the derived COUNT summed, at the AVG column's decimals. */
    final class Average implements Accumulator {
        private final Aggregation aggregation;
        private final NumberSum sum;
        private final int decimals;
        private long count;

        Average(Aggregation aggregation, NumberSum sum, int decimals) {
            this.aggregation = aggregation;
            this.sum = sum;
            this.decimals = decimals;
        }

        @Override
        public void add(MergeRow row) {
            sum.add(row, aggregation.argument());
            if (!row.isNull(aggregation.count())) {
                count += row.longValue(aggregation.count());
            }
        }

        @Override
        public void writeTo(GroupRow row) {
            row.set(aggregation.column(), sum.average(count, decimals));
        }
    }

    /**
     * COUNT, SUM or AVG of DISTINCT values: each unit lists its distinct values of the group, one a row; a value
     * counts once however many units list it (strings told equal by their weights). Held in memory, bounded.
     */
    final class Distinct implements Accumulator {
        private final Aggregation aggregation;
        /** The distinct values' sum, or null when only their count is asked. */
        private final NumberSum sum;
        private final int decimals;
        private final HeldRows held;
        private final Set<Object> seen = new HashSet<>();

        Distinct(Aggregation aggregation, NumberSum sum, int decimals, HeldRows held) {
            this.aggregation = aggregation;
            this.sum = sum;
            this.decimals = decimals;
            this.held = held;
        }

        @Override
        public void add(MergeRow row) {
            int value = aggregation.argument();
            if (row.isNull(value)) {
                return;
            }
            int key = aggregation.weightColumn() >= 0 ? aggregation.weightColumn() : value;
            if (seen.add(Values.key(row, key))) {
                held.add(1);
                if (sum != null) {
                    sum.add(row, value);
                }
            }
        }

        @Override
        public void writeTo(GroupRow row) {
            int column = aggregation.column();
            switch (aggregation.function()) {
                case COUNT_DISTINCT -> row.set(column, (long) seen.size());
                case SUM_DISTINCT -> row.set(column, sum.value());
                default -> row.set(column, sum.average(seen.size(), decimals));
            }
        }

        @Override
        public void release() {
            held.remove(seen.size());
            seen.clear();
        }
    }
}
