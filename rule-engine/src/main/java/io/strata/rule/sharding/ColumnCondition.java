package io.strata.rule.sharding;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** What a statement says about one column: the values it may equal, or a range it lies in. */
public sealed interface ColumnCondition {

    String NOT_NULL = "a sharding value; SQL NULL matches no row, leave it out";

    /**
     * {@code = v} (one value) or {@code IN (...)}. No values means no row can match ({@code x = 1 AND x = 2}).
     *
     * @param values distinct, in the order written; never null (SQL NULL equals nothing)
     */
    record Exact(List<Comparable<?>> values) implements ColumnCondition {

        public Exact {
            values = values.size() == 1 ? List.of(Objects.requireNonNull(values.get(0), NOT_NULL)) : distinct(values);
        }

        private static List<Comparable<?>> distinct(List<Comparable<?>> values) {
            Set<Comparable<?>> distinct = new LinkedHashSet<>(values.size() * 2);
            for (Comparable<?> value : values) {
                distinct.add(Objects.requireNonNull(value, NOT_NULL));
            }
            return List.copyOf(distinct);
        }
    }

    /** {@code BETWEEN}, {@code <}, {@code >=} and the like. */
    record InRange(ShardingRange range) implements ColumnCondition {

        public InRange {
            Objects.requireNonNull(range, "range");
        }
    }
}
