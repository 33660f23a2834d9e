package io.strata.rule.readwrite;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;
import io.strata.rule.Rule;
import io.strata.rule.RuleFactory;
import io.strata.rule.health.DataSourceStatus;
import io.strata.rule.health.HealthCheck;
import io.strata.rule.health.HealthRegistry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a READWRITE_SPLITTING rule (keys in the README) and registers its data sources with the health monitor.
 * Every mistake stops the start with a {@link io.strata.config.ConfigException} naming file, key and expectation.
 */
public final class ReadWriteSplittingRuleFactory implements RuleFactory {

    public static final String TYPE = "READWRITE_SPLITTING";
    private static final List<String> RULE_KEYS = List.of("groups", "healthCheck");
    private static final List<String> GROUP_KEYS = List.of("name", "writeDataSource", "readDataSources",
            "loadBalancer", "weights", "primaryTakesReads", "readYourWrites", "whenNoReplica");
    private static final List<String> CHECK_KEYS = List.of("interval", "timeout", "maxReplicationLag", "username",
            "password");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        YamlMap rule = YamlMap.of(file, path, config.props());
        rule.allowOnly(RULE_KEYS);
        HealthCheck check = healthCheck(rule.optionalMap("healthCheck", "a mapping of health check settings"));
        List<GroupRouter> routers = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (YamlMap entry : rule.maps("groups", "groups like { name: rw, writeDataSource: ..., readDataSources: "
                + "[...] }", true)) {
            ReadWriteGroup group = group(entry, database, used);
            DataSourceStatus primary = health.status(database.databaseName(), group.writeDataSource());
            health.watch(primary, HealthRegistry.Role.PRIMARY, group.name(), check);
            List<DataSourceStatus> replicas = new ArrayList<>();
            for (String name : group.readDataSources()) {
                DataSourceStatus replica = health.status(database.databaseName(), name);
                health.watch(replica, HealthRegistry.Role.REPLICA, group.name(), check);
                replicas.add(replica);
            }
            routers.add(new GroupRouter(group, primary, replicas));
        }
        return new ReadWriteSplittingRule(routers);
    }

    private static ReadWriteGroup group(YamlMap entry, DatabaseConfig database, Set<String> used) {
        entry.allowOnly(GROUP_KEYS);
        String name = entry.string("name");
        String write = dataSource(entry, "writeDataSource", entry.string("writeDataSource"), database, used);
        boolean primaryTakesReads = entry.bool("primaryTakesReads", false);
        List<String> reads = entry.strings("readDataSources", List.of());
        if (reads.isEmpty() && !primaryTakesReads) {
            throw entry.error("readDataSources", "a non-empty list of data source names (or primaryTakesReads: "
                    + "true)", entry.value("readDataSources"));
        }
        for (int i = 0; i < reads.size(); i++) {
            dataSource(entry, "readDataSources[" + i + "]", reads.get(i), database, used);
        }
        String balancer = entry.oneOf("loadBalancer", ReadWriteGroup.LOAD_BALANCERS, "ROUND_ROBIN");
        Map<String, Integer> weights = weights(entry, write, reads);
        return new ReadWriteGroup(name, write, reads, balancer, weights, primaryTakesReads,
                entry.bool("readYourWrites", true),
                entry.oneOf("whenNoReplica", ReadWriteGroup.NO_REPLICA_POLICIES, "PRIMARY"));
    }

    /** A data source name of the file, used by no other group and not twice. */
    private static String dataSource(YamlMap entry, String key, String name, DatabaseConfig database,
                                     Set<String> used) {
        if (!database.dataSources().containsKey(name)) {
            throw entry.error(key, "one of the data sources " + database.dataSources().keySet(), name);
        }
        if (!used.add(name)) {
            throw entry.error(key, "a data source not already in a read/write group", name);
        }
        return name;
    }

    private static Map<String, Integer> weights(YamlMap entry, String write, List<String> reads) {
        if (entry.value("weights") == null) {
            return Map.of();
        }
        YamlMap weights = entry.map("weights", "a mapping of data source name to weight, like { replica_0: 2 }");
        List<String> allowed = new ArrayList<>(reads);
        allowed.add(write);
        weights.allowOnly(allowed);
        Map<String, Integer> result = new LinkedHashMap<>();
        for (String name : weights.keys()) {
            result.put(name, weights.integer(name, 1, 0, 1_000_000));
        }
        return result;
    }

    private static HealthCheck healthCheck(YamlMap check) {
        check.allowOnly(CHECK_KEYS);
        String username = check.value("username") == null ? null : check.string("username");
        if (username == null && check.value("password") != null) {
            throw check.error("username", "a user name to go with the password", null);
        }
        return new HealthCheck(check.longInteger("interval", 1000, 50, 3_600_000),
                check.longInteger("timeout", 1000, 50, 600_000),
                check.longInteger("maxReplicationLag", 10, 0, Long.MAX_VALUE),
                username, username == null ? null : check.secret("password"));
    }
}
