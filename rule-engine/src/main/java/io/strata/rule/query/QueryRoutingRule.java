package io.strata.rule.query;

import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RoutingRule;
import io.strata.rule.StatementContext;
import io.strata.rule.StatementContext.Hold;
import io.strata.rule.Steering;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * QUERY_ROUTING: query rules tried in order; the first that matches decides, unless it says {@code continue}, and
 * then the later ones that match add their actions (a later data source or timeout replacing an earlier one, a
 * rewrite applying to the text as rewritten so far, which later patterns read).
 *
 * <p>Where a statement runs is steered only for a route of one unit with the client's own statement (the rules before
 * it routed nothing of their own): a sharded or broadcast statement keeps its route. A session in a transaction holding
 * state on one data source keeps it, whatever the rules say. Each rule counts its hits (SHOW STRATA QUERY RULES): the
 * one thing this rule remembers, and no session's.
 */
public final class QueryRoutingRule implements RoutingRule {

    private final List<QueryRule> rules;
    private final LongAdder[] hits;

    QueryRoutingRule(List<QueryRule> rules) {
        this.rules = List.copyOf(rules);
        this.hits = new LongAdder[rules.size()];
        for (int i = 0; i < hits.length; i++) {
            hits[i] = new LongAdder();
        }
    }

    /** One rule as SHOW STRATA QUERY RULES lists it. */
    public record RuleStats(String name, String matchers, String actions, long hits) {
    }

    public List<RuleStats> stats() {
        List<RuleStats> stats = new ArrayList<>(rules.size());
        for (int i = 0; i < rules.size(); i++) {
            QueryRule rule = rules.get(i);
            stats.add(new RuleStats(rule.name(), rule.matchersText(), rule.actionsText(), hits[i].sum()));
        }
        return stats;
    }

    @Override
    public RouteResult route(StatementContext context, RouteResult routed) {
        SqlStatementInfo info = context.statement();
        if (info == null) {
            return routed; // COM_FIELD_LIST, COM_STATISTICS: no statement to match
        }
        String sql = info.sql();
        QueryRule.DigestOf digest = null; // made when a rule first reads the statement
        String dataSource = null;
        long timeout = 0;
        String rewritten = null;
        List<String> mirrors = List.of();
        List<String> matched = null;
        for (int i = 0; i < rules.size(); i++) {
            QueryRule rule = rules.get(i);
            if (digest == null && rule.readsStatement()) {
                digest = new QueryRule.DigestOf(context, sql);
            }
            if (!rule.matches(context, sql, digest)) {
                continue;
            }
            hits[i].increment();
            if (rule.error() != null) {
                QueryRule.Error error = rule.error();
                throw new RouteException(error.code(), error.sqlState(), error.message());
            }
            matched = matched == null ? new ArrayList<>(2) : matched;
            matched.add(rule.name());
            dataSource = rule.dataSource() != null ? rule.dataSource() : dataSource;
            timeout = rule.timeoutMillis() > 0 ? rule.timeoutMillis() : timeout;
            if (rule.rewrite() != null) {
                String next = rule.rewrite().apply(sql);
                if (!next.equals(sql)) {
                    sql = rewritten = next;
                    digest = null;
                }
            }
            if (rule.mirror() != null && !mirrors.contains(rule.mirror())) {
                mirrors = mirrors.isEmpty() ? new ArrayList<>(1) : mirrors;
                mirrors.add(rule.mirror());
            }
            if (!rule.continues()) {
                break;
            }
        }
        String held = context.inTransaction() && routed.passThrough() ? soleHeld(context.held()) : null;
        if (matched == null) {
            return held == null || held.equals(routed.first().dataSource()) ? routed : RouteResult.single(held);
        }
        if (rewritten != null && !routed.passThrough()) {
            throw new RouteException(1235, "42000", "Query rule '" + matched.get(matched.size() - 1) + "' rewrites a "
                    + "statement the rules before QUERY_ROUTING already routed: list QUERY_ROUTING first in the rules");
        }
        RouteResult route = routed;
        String target = held != null ? held : dataSource;
        if (target != null && routed.passThrough() && !target.equals(routed.first().dataSource())) {
            route = RouteResult.single(target);
        }
        route = route.withNote("query rules " + String.join(", ", matched) + (held != null && dataSource != null
                && !dataSource.equals(held) ? " (the transaction stays on " + held + ")" : ""));
        return route.withSteering(new Steering(timeout, mirrors, rewritten, matched));
    }

    /** The one data source where the session's transaction holds state, or null when there is none or several. */
    private static String soleHeld(Map<String, Hold> held) {
        String sole = null;
        for (Map.Entry<String, Hold> entry : held.entrySet()) {
            if (entry.getValue() == Hold.STATE) {
                if (sole != null) {
                    return null;
                }
                sole = entry.getKey();
            }
        }
        return sole;
    }
}
