package io.strata.rule.builtin;

import io.strata.rule.RuleFactory;
import io.strata.rule.broadcast.BroadcastRuleFactory;
import io.strata.rule.query.QueryRoutingRuleFactory;
import io.strata.rule.readwrite.ReadWriteSplittingRuleFactory;
import io.strata.rule.shadow.ShadowRuleFactory;
import io.strata.rule.single.SingleRuleFactory;

import java.util.List;

/** The rule types Strata ships, which the bootstrap hands to every rule chain (plugins come from the class path). */
public final class BuiltInRules {

    private BuiltInRules() {
    }

    public static List<RuleFactory> factories() {
        return List.of(new ReadWriteSplittingRuleFactory(), new BroadcastRuleFactory(),
                new ShadowRuleFactory(), new io.strata.rule.sharding.ShardingRuleFactory(),
                new QueryRoutingRuleFactory(), new SingleRuleFactory());
    }
}
