package io.strata.rule.readwrite;

import io.strata.rule.DecoratingRule;
import io.strata.rule.StatementContext;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * READWRITE_SPLITTING: a decorating rule. A unit routed to a group (by the group's name, or the name of any of its
 * data sources, as the pass-through route names the first data source) is placed on the group's primary or on one
 * of its replicas. A group's name stands wherever another rule names a data source.
 */
public final class ReadWriteSplittingRule implements DecoratingRule {

    private final Map<String, GroupRouter> routers = new HashMap<>();
    private final Map<String, Set<String>> members = new HashMap<>();
    private final Map<String, String> groupNames = new HashMap<>();

    ReadWriteSplittingRule(List<GroupRouter> groups) {
        for (GroupRouter group : groups) {
            Set<String> names = Set.copyOf(group.names());
            names.forEach(name -> {
                routers.put(name, group);
                members.put(name, names);
                groupNames.put(name, group.name());
            });
        }
    }

    @Override
    public Placement place(String dataSource, StatementContext context) {
        GroupRouter router = routers.get(dataSource);
        return router == null ? null : router.place(context);
    }

    @Override
    public Set<String> sameData(String dataSource) {
        return members.getOrDefault(dataSource, Set.of());
    }

    @Override
    public String groupOf(String dataSource) {
        return groupNames.get(dataSource);
    }
}
