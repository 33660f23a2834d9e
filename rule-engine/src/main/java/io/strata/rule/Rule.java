package io.strata.rule;

/**
 * One rule of a logical database's chain: a {@link RoutingRule} creates route units, a {@link DecoratingRule}
 * changes the data sources of the units it is given (ShardingSphere's split). Rules are pure: they read the
 * statement and the session's facts and return a route; they count nothing and touch no session or connection.
 */
public sealed interface Rule permits RoutingRule, DecoratingRule {
}
