package io.strata.rule;

/** Decides which data sources (or groups) a statement goes to, and with what statement: sharding, broadcast. */
@FunctionalInterface
public non-sealed interface RoutingRule extends Rule {

    /** @param routed what the routing rules before this one decided (the pass-through route at the start) */
    RouteResult route(StatementContext context, RouteResult routed);
}
