package io.strata.rule.sharding;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** What a statement says about one column: the values it may equal, or a range it lies in. */
public sealed interface ColumnCondition {

    /**
     * {@code = v} (one value) or {@code IN (...)}. No values means no row can match ({@code x = 1 AND x = 2}).
     *
     * @param values distinct, in the order written; never null (SQL NULL equals nothing)
     */
    record Exact(List<Comparable<?>> values) implements ColumnCondition {

        public Exact {
            Set<Comparable<?>> distinct = new LinkedHashSet<>(values.size() * 2);
            for (Comparable<?> value : values) {
                distinct.add(Objects.requireNonNull(value, "a sharding value; SQL NULL matches no row, leave it out"));
            }
            values = List.copyOf(distinct);
        }
    }

    /** {@code BETWEEN}, {@code <}, {@code >=} and the like. */
    record InRange(ShardingRange range) implements ColumnCondition {

        public InRange {
            Objects.requireNonNull(range, "range");
        }
    }
}
