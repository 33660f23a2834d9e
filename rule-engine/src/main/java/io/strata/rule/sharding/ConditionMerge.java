package io.strata.rule.sharding;

import io.strata.rule.sharding.ColumnCondition.Exact;
import io.strata.rule.sharding.ColumnCondition.InRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * ANDs conditions on one column where the result is certain: numbers with numbers, dates with dates of the same
 * type. Strings are never merged: whether 'a' equals 'A ' depends on the column's collation, so both conditions
 * are kept and routing intersects the nodes each allows, which is always right, only less precise.
 */
final class ConditionMerge {

    private ConditionMerge() {
    }

    /** {@code existing} (already merged as far as possible) AND {@code added}. */
    static List<ColumnCondition> and(List<ColumnCondition> existing, ColumnCondition added) {
        List<ColumnCondition> result = new ArrayList<>(existing.size() + 1);
        ColumnCondition pending = added;
        for (ColumnCondition condition : existing) {
            Optional<ColumnCondition> merged = and(condition, pending);
            if (merged.isPresent()) {
                pending = merged.get();
            } else {
                result.add(condition);
            }
        }
        result.add(pending);
        return result;
    }

    static Optional<ColumnCondition> and(ColumnCondition a, ColumnCondition b) {
        if (a instanceof Exact exact && b instanceof Exact other) {
            return exactAndExact(exact, other);
        }
        if (a instanceof Exact exact && b instanceof InRange range) {
            return exactInRange(exact, range.range());
        }
        if (a instanceof InRange range && b instanceof Exact exact) {
            return exactInRange(exact, range.range());
        }
        return rangeAndRange(((InRange) a).range(), ((InRange) b).range());
    }

    private static Optional<ColumnCondition> exactAndExact(Exact a, Exact b) {
        List<Comparable<?>> kept = new ArrayList<>();
        for (Comparable<?> value : a.values()) {
            for (Comparable<?> other : b.values()) {
                if (!Values.surelyComparable(value, other)) {
                    return Optional.empty();
                }
            }
            if (b.values().stream().anyMatch(other -> Values.compare(value, other) == 0)) {
                kept.add(value);
            }
        }
        return Optional.of(new Exact(kept));
    }

    private static Optional<ColumnCondition> exactInRange(Exact exact, ShardingRange range) {
        List<Comparable<?>> kept = new ArrayList<>();
        for (Comparable<?> value : exact.values()) {
            Boolean inside = Values.inRange(value, range);
            if (inside == null) {
                return Optional.empty();
            }
            if (inside) {
                kept.add(value);
            }
        }
        return Optional.of(new Exact(kept));
    }

    private static Optional<ColumnCondition> rangeAndRange(ShardingRange a, ShardingRange b) {
        if (!boundsComparable(a, b)) {
            return Optional.empty();
        }
        Comparable<?> lower = a.lower();
        boolean lowerInclusive = a.lowerInclusive();
        if (b.hasLower() && (lower == null || tighterLower(b.lower(), b.lowerInclusive(), lower, lowerInclusive))) {
            lower = b.lower();
            lowerInclusive = b.lowerInclusive();
        }
        Comparable<?> upper = a.upper();
        boolean upperInclusive = a.upperInclusive();
        if (b.hasUpper() && (upper == null || tighterUpper(b.upper(), b.upperInclusive(), upper, upperInclusive))) {
            upper = b.upper();
            upperInclusive = b.upperInclusive();
        }
        if (lower != null && upper != null) {
            int order = Values.compare(lower, upper);
            if (order > 0 || order == 0 && !(lowerInclusive && upperInclusive)) {
                return Optional.of(new Exact(List.of()));
            }
        }
        return Optional.of(new InRange(new ShardingRange(lower, lowerInclusive, upper, upperInclusive)));
    }

    private static boolean tighterLower(Comparable<?> candidate, boolean inclusive, Comparable<?> current,
                                        boolean currentInclusive) {
        int order = Values.compare(candidate, current);
        return order > 0 || order == 0 && !inclusive && currentInclusive;
    }

    private static boolean tighterUpper(Comparable<?> candidate, boolean inclusive, Comparable<?> current,
                                        boolean currentInclusive) {
        int order = Values.compare(candidate, current);
        return order < 0 || order == 0 && !inclusive && currentInclusive;
    }

    private static boolean boundsComparable(ShardingRange a, ShardingRange b) {
        List<Comparable<?>> bounds = new ArrayList<>(4);
        for (ShardingRange range : List.of(a, b)) {
            if (range.hasLower()) {
                bounds.add(range.lower());
            }
            if (range.hasUpper()) {
                bounds.add(range.upper());
            }
        }
        for (Comparable<?> bound : bounds) {
            if (!Values.surelyComparable(bound, bounds.get(0))) {
                return false;
            }
        }
        return true;
    }
}
