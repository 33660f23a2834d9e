package io.strata.it;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.ResultMerge;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RoutingRule;
import io.strata.rule.Rule;
import io.strata.rule.RuleBinding;
import io.strata.rule.RuleFactory;
import io.strata.rule.StatementContext;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.sql.SqlKind;

import java.util.List;

/**
 * A plugin rule for the tests (found with ServiceLoader, as any plugin): every SELECT goes to every data source, its
 * result sets concatenated. What sharding will do with its reads, without sharding's rewriting.
 */
public final class EverywhereRuleFactory implements RuleFactory {

    public static final String TYPE = "TEST_EVERYWHERE";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        return new Everywhere(List.of());
    }

    private record Everywhere(List<String> dataSources) implements RoutingRule {

        @Override
        public RouteResult route(StatementContext context, RouteResult routed) {
            if (context.statement() == null || context.statement().kind() != SqlKind.SELECT) {
                return routed;
            }
            return new RouteResult(dataSources.stream().map(RouteUnit::new).toList(), ResultMerge.CONCATENATE,
                    false);
        }

        @Override
        public RoutingRule bind(RuleBinding binding) {
            return new Everywhere(binding.dataSources());
        }
    }
}
