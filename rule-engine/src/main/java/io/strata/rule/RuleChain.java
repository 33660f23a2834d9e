package io.strata.rule;

import io.strata.config.ConfigException;
import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.readwrite.ReadWriteSplittingRuleFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The rules of one logical database, applied in order to the pass-through route (every statement to the first data
 * source). An empty chain is that pass-through: the empty-rule proxy.
 */
public final class RuleChain {

    private final List<Rule> rules;
    private final RouteResult passThrough;

    public RuleChain(String defaultDataSource, List<Rule> rules) {
        this.rules = List.copyOf(rules);
        this.passThrough = RouteResult.single(defaultDataSource);
    }

    /** Builds the chain of a logical database with a registry of its own (for tools and tests). */
    public static RuleChain of(DatabaseConfig database, String file) {
        return of(database, file, new HealthRegistry());
    }

    /** Builds the chain of a logical database; an unknown rule type fails with the file, key and known types. */
    public static RuleChain of(DatabaseConfig database, String file, HealthRegistry health) {
        Map<String, RuleFactory> factories = factories();
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < database.rules().size(); i++) {
            RuleConfig config = database.rules().get(i);
            RuleFactory factory = factories.get(config.type());
            if (factory == null) {
                throw new ConfigException(file, "rules[" + i + "].type", "one of " + factories.keySet(),
                        config.type());
            }
            rules.add(factory.create(database, config, file, "rules[" + i + "]", health));
        }
        return new RuleChain(database.defaultDataSource().name(), rules);
    }

    private static Map<String, RuleFactory> factories() {
        Map<String, RuleFactory> factories = new TreeMap<>();
        // Built-in rules are registered here; plugins come from the class path.
        factories.put(ReadWriteSplittingRuleFactory.TYPE, new ReadWriteSplittingRuleFactory());
        for (RuleFactory factory : ServiceLoader.load(RuleFactory.class)) {
            factories.put(factory.type(), factory);
        }
        return factories;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    public RouteResult route(StatementContext context) {
        RouteResult routed = passThrough;
        for (Rule rule : rules) {
            routed = rule.route(context, routed);
        }
        return routed;
    }
}
