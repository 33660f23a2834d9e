package io.strata.rule.single;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;
import io.strata.rule.DataSourceNames;
import io.strata.rule.Rule;
import io.strata.rule.RuleFactory;
import io.strata.rule.health.HealthRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a SINGLE rule with ShardingSphere's keys as written: {@code tables} (patterns {@code *.*}, {@code ds.*},
 * {@code ds.table}, and {@code *.table}) and {@code defaultDataSource}. Every mistake stops the start naming file, key
 * and expectation.
 */
public final class SingleRuleFactory implements RuleFactory {

    public static final String TYPE = "SINGLE";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        YamlMap rule = YamlMap.of(file, path, config.props());
        rule.allowOnly(List.of("tables", "defaultDataSource"));
        List<String> tables = rule.strings("tables", List.of());
        List<SingleRule.Pattern> patterns = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            patterns.add(pattern(rule, database, "tables[" + i + "]", tables.get(i).strip()));
        }
        String defaultDataSource = rule.value("defaultDataSource") == null ? null
                : dataSource(rule, database, "defaultDataSource", rule.string("defaultDataSource"));
        return new SingleRule(database.databaseName(), patterns, defaultDataSource, new SinglePlacements(), null);
    }

    private static SingleRule.Pattern pattern(YamlMap rule, DatabaseConfig database, String key, String written) {
        String[] parts = written.split("\\.", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty() || written.contains("`")) {
            throw rule.error(key, "a pattern \"*.*\", \"<data source>.*\" or \"<data source>.<table>\" (a schema "
                    + "part, as PostgreSQL's \"*.*.*\", is not MySQL's)", written);
        }
        String dataSource = parts[0].equals("*") ? null : dataSource(rule, database, key, parts[0]);
        return new SingleRule.Pattern(dataSource, parts[1].equals("*") ? null : parts[1].toLowerCase(Locale.ROOT));
    }

    /** A data source or read/write group of the database (a group's member is refused, naming its group). */
    private static String dataSource(YamlMap rule, DatabaseConfig database, String key, String name) {
        return DataSourceNames.of(database).check(rule, key, name, name);
    }
}
