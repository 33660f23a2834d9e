package io.strata.rule;

import java.util.List;

/**
 * Where a statement runs: one unit for pass-through and single-shard routes, several when results must be merged.
 *
 * @param retryable the statement has no effect (a read), so when its data source proves unreachable before it
 *                  starts, it may be routed again
 */
public record RouteResult(List<RouteUnit> units, boolean retryable) {

    public RouteResult {
        units = List.copyOf(units);
    }

    public static RouteResult single(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)), false);
    }

    /** A read that another data source of the same data may answer instead. */
    public static RouteResult read(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)), true);
    }

    public boolean isSingle() {
        return units.size() == 1;
    }

    public RouteUnit first() {
        return units.get(0);
    }
}
