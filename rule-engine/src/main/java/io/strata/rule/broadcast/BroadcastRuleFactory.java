package io.strata.rule.broadcast;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;
import io.strata.rule.Rule;
import io.strata.rule.RuleFactory;
import io.strata.rule.health.HealthRegistry;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a BROADCAST rule, ShardingSphere's keys as written ({@code tables: [t_dict, t_country]}). Every mistake stops
 * the start with a {@link io.strata.config.ConfigException} naming file, key and expectation.
 */
public final class BroadcastRuleFactory implements RuleFactory {

    public static final String TYPE = "BROADCAST";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        YamlMap rule = YamlMap.of(file, path, config.props());
        rule.allowOnly(List.of("tables"));
        List<String> tables = rule.strings("tables", List.of());
        if (tables.isEmpty()) {
            throw rule.error("tables", "a non-empty list of table names, like [t_dict, t_country]",
                    rule.value("tables"));
        }
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < tables.size(); i++) {
            String table = tables.get(i).trim();
            if (table.isEmpty() || table.contains(".") || table.contains("`")) {
                throw rule.error("tables[" + i + "]", "a table name without schema or quotes", tables.get(i));
            }
            if (!names.add(table.toLowerCase(Locale.ROOT))) {
                throw rule.error("tables[" + i + "]", "a table not already listed", tables.get(i));
            }
        }
        return new BroadcastRule(database.databaseName(), List.copyOf(tables), health, null);
    }
}
