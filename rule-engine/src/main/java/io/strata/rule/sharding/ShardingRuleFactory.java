package io.strata.rule.sharding;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.rule.Rule;
import io.strata.rule.RuleFactory;
import io.strata.rule.health.HealthRegistry;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Reads a SHARDING rule, ShardingSphere's keys as written ({@link ShardingRuleConfig}). */
public final class ShardingRuleFactory implements RuleFactory {

    public static final String TYPE = "SHARDING";

    private final WorkerIds workerIds;

    /** SNOWFLAKE worker ids as the props say (a single process). */
    public ShardingRuleFactory() {
        this(WorkerIds.CONFIGURED);
    }

    /** @param workerIds where SNOWFLAKE generators take their worker ids (a cluster member's lease) */
    public ShardingRuleFactory(WorkerIds workerIds) {
        this.workerIds = workerIds;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        ShardingRuleConfig sharding = ShardingRuleConfig.read(database, config, file, path);
        return new ShardingRule(database.databaseName(), ShardingTables.of(sharding, workerIds), broadcastTables(database), null);
    }

    /** The tables of the database's BROADCAST rules: they may join a sharded table on any node. */
    private static Set<String> broadcastTables(DatabaseConfig database) {
        Set<String> tables = new HashSet<>();
        for (RuleConfig rule : database.rules()) {
            if (rule.type().equals("BROADCAST") && rule.props().get("tables") instanceof List<?> listed) {
                listed.forEach(t -> tables.add(String.valueOf(t).toLowerCase(Locale.ROOT)));
            }
        }
        return tables;
    }
}
