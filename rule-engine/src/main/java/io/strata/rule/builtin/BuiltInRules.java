package io.strata.rule.builtin;

import io.strata.rule.RuleFactory;
import io.strata.rule.broadcast.BroadcastRuleFactory;
import io.strata.rule.query.QueryRoutingRuleFactory;
import io.strata.rule.readwrite.ReadWriteSplittingRuleFactory;
import io.strata.rule.shadow.ShadowRuleFactory;
import io.strata.rule.sharding.WorkerIds;
import io.strata.rule.single.SingleRuleFactory;

import java.util.List;

/** The rule types Strata ships, which the bootstrap hands to every rule chain (plugins come from the class path). */
public final class BuiltInRules {

    private BuiltInRules() {
    }

    public static List<RuleFactory> factories() {
        return factories(WorkerIds.CONFIGURED);
    }

    /** @param workerIds where SNOWFLAKE key generators take their worker ids (a cluster member's lease) */
    public static List<RuleFactory> factories(WorkerIds workerIds) {
        return List.of(new ReadWriteSplittingRuleFactory(), new BroadcastRuleFactory(),
                new ShadowRuleFactory(), new io.strata.rule.sharding.ShardingRuleFactory(workerIds),
                new QueryRoutingRuleFactory(), new SingleRuleFactory());
    }
}
