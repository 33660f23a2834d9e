package io.strata.rule;

import java.util.List;

/** Where a statement runs: one unit for pass-through and single-shard routes, several when results must be merged. */
public record RouteResult(List<RouteUnit> units) {

    public RouteResult {
        units = List.copyOf(units);
    }

    public static RouteResult single(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)));
    }

    public boolean isSingle() {
        return units.size() == 1;
    }

    public RouteUnit first() {
        return units.get(0);
    }
}
