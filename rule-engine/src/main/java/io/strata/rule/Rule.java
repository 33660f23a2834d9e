package io.strata.rule;

/**
 * One rule of a logical database's chain. A routing rule creates route units; a decorating rule (read/write
 * splitting, shadow) changes the data sources of the units it is given.
 */
public interface Rule {

    /** @param routed what the rules before this one decided (the pass-through route at the start of the chain) */
    RouteResult route(StatementContext context, RouteResult routed);
}
