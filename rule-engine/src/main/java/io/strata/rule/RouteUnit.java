package io.strata.rule;

/** One piece of work: run the statement on this data source. */
public record RouteUnit(String dataSource) {
}
