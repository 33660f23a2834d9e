package io.strata.backend.merge;

import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.Aggregation;
import io.strata.rule.QueryMerge.Concat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How one aggregate column of a merged group comes from the units' rows of that group, each of which already holds
 * the unit's own aggregate ({@link Aggregation}): counts and sums are summed, MIN and MAX compared, AVG divided
 * from the derived SUM and COUNT, the DISTINCT functions computed over the distinct values the units list,
 * GROUP_CONCAT joined from the tuples the units list.
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
            case GROUP_CONCAT -> new GroupConcat(column, aggregation.concat(), layout.column(column).collationId(),
                    held);
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

    /**
     * GROUP_CONCAT: the group's tuples from every unit, in the order of the ORDER BY inside it (strings by their
     * weights), told apart under DISTINCT, each repeated as often as the rows it stands for, joined by the separator
     * and cut at the unit session's {@code group_concat_max_len} bytes as the server cuts (whole characters). The
     * tuples are held in memory until the group ends, bounded.
     */
    final class GroupConcat implements Accumulator {
        private final int column;
        private final Concat concat;
        private final int collationId;
        private final HeldRows held;
        private final List<MergeRow> rows = new ArrayList<>();
        private final Set<List<Object>> seen = new HashSet<>();
        private long maxLength = -1;

        GroupConcat(int column, Concat concat, int collationId, HeldRows held) {
            this.column = column;
            this.concat = concat;
            this.collationId = collationId;
            this.held = held;
        }

        @Override
        public void add(MergeRow row) {
            if (maxLength < 0 && !row.isNull(concat.maxLength())) {
                maxLength = row.longValue(concat.maxLength());
            }
            if (row.isNull(concat.value())) {
                return; // an argument was NULL: GROUP_CONCAT skips the row
            }
            if (!concat.distinct().isEmpty()) {
                List<Object> tuple = new ArrayList<>(concat.distinct().size());
                concat.distinct().forEach(c -> tuple.add(Values.key(row, c)));
                if (!seen.add(tuple)) {
                    return;
                }
            }
            row.retain();
            rows.add(row);
            held.add(1);
        }

        @Override
        public void writeTo(GroupRow row) {
            if (rows.isEmpty()) {
                row.set(column, null);
                return;
            }
            if (!concat.order().isEmpty()) {
                rows.sort(this::compare);
            }
            boolean cells = rows.getFirst() instanceof CellsRow;
            byte[] separator = TextCut.encode(concat.separator(), collationId, cells);
            long limit = maxLength < 0 ? Long.MAX_VALUE : maxLength;
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            boolean first = true;
            joined:
            for (MergeRow r : rows) {
                long times = concat.count() < 0 ? 1 : r.longValue(concat.count());
                byte[] value = Values.copy(r, concat.value());
                for (long t = 0; t < times; t++) {
                    if (!first) {
                        out.writeBytes(separator);
                    }
                    first = false;
                    out.writeBytes(value);
                    if (out.size() > limit) {
                        break joined; // the rest would be cut anyway
                    }
                }
            }
            byte[] joined = out.toByteArray();
            row.set(column, joined.length > limit ? TextCut.cut(joined, (int) limit, collationId, cells) : joined);
        }

        private int compare(MergeRow a, MergeRow b) {
            for (QueryMerge.SortKey key : concat.order()) {
                int c = key.weightColumn() >= 0 ? Values.compare(a, key.weightColumn(), b, key.weightColumn())
                        : Values.compare(a, key.column(), b, key.column());
                if (c != 0) {
                    return key.descending() ? -c : c;
                }
            }
            return 0;
        }

        @Override
        public void release() {
            rows.forEach(MergeRow::release);
            held.remove(rows.size());
            rows.clear();
            seen.clear();
        }
    }
}
