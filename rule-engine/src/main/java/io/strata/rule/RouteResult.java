package io.strata.rule;

import java.util.List;

/**
 * Where a statement runs: one unit for pass-through and single-shard routes, several when their answers are merged.
 *
 * @param merge     how the units' answers combine
 * @param retryable the statement has no effect (a read), so when its data source proves unreachable before it
 *                  starts, it may be routed again (a single unit only)
 */
public record RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable) {

    public RouteResult {
        units = List.copyOf(units);
        if (units.isEmpty()) {
            throw new IllegalArgumentException("a route needs at least one unit");
        }
    }

    public static RouteResult single(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)), ResultMerge.CONCATENATE, false);
    }

    /** A read that another data source of the same data may answer instead. */
    public static RouteResult read(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)), ResultMerge.CONCATENATE, true);
    }

    public boolean isSingle() {
        return units.size() == 1;
    }

    public RouteUnit first() {
        return units.get(0);
    }

    /** One unit running the client's own statement: its bytes and its answer can pass through untouched. */
    public boolean passThrough() {
        return units.size() == 1 && !units.get(0).rewritten();
    }

    /** The same route over other units (the decorated ones). */
    public RouteResult withUnits(List<RouteUnit> others, boolean stillRetryable) {
        return new RouteResult(others, merge, stillRetryable);
    }
}
