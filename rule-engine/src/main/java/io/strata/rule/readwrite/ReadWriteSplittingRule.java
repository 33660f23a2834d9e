package io.strata.rule.readwrite;

import io.strata.rule.RouteResult;
import io.strata.rule.Rule;
import io.strata.rule.StatementContext;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * READWRITE_SPLITTING: a decorating rule. A route to a group (by the group's name, or the name of any of its data
 * sources, as the pass-through route names the first data source) becomes a route to the group's primary or to one
 * of its replicas.
 */
public final class ReadWriteSplittingRule implements Rule {

    private final Map<String, GroupRouter> routers = new HashMap<>();

    ReadWriteSplittingRule(List<GroupRouter> groups) {
        for (GroupRouter group : groups) {
            group.names().forEach(name -> routers.put(name, group));
        }
    }

    @Override
    public RouteResult route(StatementContext context, RouteResult routed) {
        if (!routed.isSingle()) {
            return routed;
        }
        GroupRouter router = routers.get(routed.first().dataSource());
        return router == null ? routed : router.route(context);
    }
}
