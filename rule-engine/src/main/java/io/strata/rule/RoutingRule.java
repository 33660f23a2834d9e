package io.strata.rule;

/** Decides which data sources (or groups) a statement goes to, and with what statement: sharding, broadcast. */
@FunctionalInterface
public non-sealed interface RoutingRule extends Rule {

    /** @param routed what the routing rules before this one decided (the pass-through route at the start) */
    RouteResult route(StatementContext context, RouteResult routed);

    /**
     * The rule as its chain runs it, once the chain is built: a rule that needs the database's data sources or the
     * SQL parser returns a copy holding them; others return themselves.
     */
    default RoutingRule bind(RuleBinding binding) {
        return this;
    }
}
