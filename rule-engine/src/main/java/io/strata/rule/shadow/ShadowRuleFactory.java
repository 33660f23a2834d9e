package io.strata.rule.shadow;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;
import io.strata.rule.DataSourceNames;
import io.strata.rule.Rule;
import io.strata.rule.RuleFactory;
import io.strata.rule.health.HealthRegistry;
import io.strata.rule.shadow.ShadowAlgorithm.Operation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a SHADOW rule, ShardingSphere's keys as written. Every mistake stops the start naming file, key and
 * expectation: an unknown algorithm or data source, a default that is no SQL_HINT, a bad regex.
 */
public final class ShadowRuleFactory implements RuleFactory {

    public static final String TYPE = "SHADOW";
    private static final List<String> TYPES = List.of("VALUE_MATCH", "REGEX_MATCH", "SQL_HINT");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Rule create(DatabaseConfig database, RuleConfig config, String file, String path, HealthRegistry health) {
        YamlMap rule = YamlMap.of(file, path, config.props());
        rule.allowOnly(List.of("dataSources", "tables", "defaultShadowAlgorithmName", "shadowAlgorithms"));
        Map<String, ShadowRule.Pair> pairs = pairs(rule, DataSourceNames.of(database).groupOf());
        Map<String, ShadowAlgorithm> algorithms = algorithms(rule);
        ShadowAlgorithm.SqlHint defaultHint = defaultAlgorithm(rule, algorithms);
        Map<String, ShadowRule.Table> tables = tables(rule, pairs, algorithms, defaultHint);
        return new ShadowRule(List.copyOf(pairs.values()), tables);
    }

    private static Map<String, ShadowRule.Pair> pairs(YamlMap rule, Map<String, String> names) {
        YamlMap section = rule.map("dataSources", "a mapping like { shadow_group: { productionDataSourceName: ds, "
                + "shadowDataSourceName: ds_shadow } }");
        if (section.isEmpty()) {
            throw rule.error("dataSources", "at least one pair of production and shadow data sources", "{}");
        }
        Map<String, ShadowRule.Pair> pairs = new LinkedHashMap<>();
        for (String name : section.keys()) {
            YamlMap pair = section.map(name, "{ productionDataSourceName: ..., shadowDataSourceName: ... }");
            pair.allowOnly(List.of("productionDataSourceName", "shadowDataSourceName"));
            String production = dataSource(pair, "productionDataSourceName", names);
            String shadow = dataSource(pair, "shadowDataSourceName", names);
            if (production.equals(shadow)) {
                throw pair.error("shadowDataSourceName", "another data source than the production one", shadow);
            }
            pairs.put(name, new ShadowRule.Pair(name, production, shadow));
        }
        return pairs;
    }

    private static String dataSource(YamlMap pair, String key, Map<String, String> names) {
        String name = pair.string(key);
        String group = names.get(name);
        if (group == null) {
            throw pair.error(key, "a data source or read/write group of the file (one of "
                    + new TreeSet<>(names.keySet()) + ")", name);
        }
        if (!group.equals(name)) {
            throw pair.error(key, "the read/write group's name " + group + " (" + name + " is one of its members)",
                    name);
        }
        return name;
    }

    private static Map<String, ShadowAlgorithm> algorithms(YamlMap rule) {
        YamlMap section = rule.optionalMap("shadowAlgorithms", "a mapping of algorithm names to { type, props }");
        Map<String, ShadowAlgorithm> algorithms = new LinkedHashMap<>();
        for (String name : section.keys()) {
            YamlMap entry = section.map(name, "{ type: VALUE_MATCH | REGEX_MATCH | SQL_HINT, props: {...} }");
            entry.allowOnly(List.of("type", "props"));
            String type = entry.oneOf("type", TYPES, null);
            if (type == null) {
                throw entry.error("type", "one of " + TYPES, null);
            }
            YamlMap props = entry.optionalMap("props", "a mapping of the algorithm's settings");
            algorithms.put(name, algorithm(name, type, props));
        }
        return algorithms;
    }

    private static ShadowAlgorithm algorithm(String name, String type, YamlMap props) {
        if (type.equals("SQL_HINT")) {
            props.allowOnly(List.of());
            return new ShadowAlgorithm.SqlHint(name);
        }
        props.allowOnly(List.of("operation", "column", type.equals("VALUE_MATCH") ? "value" : "regex"));
        String operationName = props.oneOf("operation", List.of("insert", "update", "delete", "select"), null);
        if (operationName == null) {
            throw props.error("operation", "one of insert, update, delete, select", null);
        }
        Operation operation = Operation.valueOf(operationName.toUpperCase(Locale.ROOT));
        String column = props.string("column");
        if (type.equals("VALUE_MATCH")) {
            Object value = props.value("value");
            if (value == null || value instanceof Map || value instanceof List) {
                throw props.error("value", "the value that marks test traffic (a number or a string)", value);
            }
            return new ShadowAlgorithm.ValueMatch(name, operation, column, String.valueOf(value));
        }
        String regex = props.string("regex");
        try {
            return new ShadowAlgorithm.RegexMatch(name, operation, column, Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw props.error("regex", "a Java regular expression (" + e.getDescription() + ")", regex, e);
        }
    }

    /** defaultShadowAlgorithmName names a SQL_HINT algorithm, as ShardingSphere requires; it may be absent. */
    private static ShadowAlgorithm.SqlHint defaultAlgorithm(YamlMap rule, Map<String, ShadowAlgorithm> algorithms) {
        if (rule.value("defaultShadowAlgorithmName") == null) {
            return null;
        }
        String name = rule.string("defaultShadowAlgorithmName");
        if (!(algorithms.get(name) instanceof ShadowAlgorithm.SqlHint hint)) {
            throw rule.error("defaultShadowAlgorithmName", "the name of a SQL_HINT algorithm of shadowAlgorithms "
                    + hintNames(algorithms), name);
        }
        return hint;
    }

    private static List<String> hintNames(Map<String, ShadowAlgorithm> algorithms) {
        return algorithms.values().stream().filter(a -> a instanceof ShadowAlgorithm.SqlHint)
                .map(ShadowAlgorithm::name).toList();
    }

    private static Map<String, ShadowRule.Table> tables(YamlMap rule, Map<String, ShadowRule.Pair> pairs,
                                                        Map<String, ShadowAlgorithm> algorithms,
                                                        ShadowAlgorithm.SqlHint defaultHint) {
        YamlMap section = rule.optionalMap("tables", "a mapping of table names to { dataSourceNames, "
                + "shadowAlgorithmNames }");
        Map<String, ShadowRule.Table> tables = new LinkedHashMap<>();
        for (String name : section.keys()) {
            YamlMap entry = section.map(name, "{ dataSourceNames: [...], shadowAlgorithmNames: [...] }");
            entry.allowOnly(List.of("dataSourceNames", "shadowAlgorithmNames"));
            List<ShadowRule.Pair> used = new ArrayList<>();
            List<String> pairNames = entry.strings("dataSourceNames", null);
            if (pairNames == null || pairNames.isEmpty()) {
                throw entry.error("dataSourceNames", "a non-empty list of names from dataSources " + pairs.keySet(),
                        entry.value("dataSourceNames"));
            }
            for (int i = 0; i < pairNames.size(); i++) {
                ShadowRule.Pair pair = pairs.get(pairNames.get(i));
                if (pair == null) {
                    throw entry.error("dataSourceNames[" + i + "]", "one of dataSources " + pairs.keySet(),
                            pairNames.get(i));
                }
                used.add(pair);
            }
            List<ShadowAlgorithm.ColumnMatch> columnMatches = new ArrayList<>();
            List<String> algorithmNames = entry.strings("shadowAlgorithmNames", List.of());
            for (int i = 0; i < algorithmNames.size(); i++) {
                ShadowAlgorithm algorithm = algorithms.get(algorithmNames.get(i));
                if (algorithm == null) {
                    throw entry.error("shadowAlgorithmNames[" + i + "]", "one of shadowAlgorithms "
                            + algorithms.keySet(), algorithmNames.get(i));
                }
                if (algorithm instanceof ShadowAlgorithm.ColumnMatch match) {
                    columnMatches.add(match);
                }
            }
            if (algorithmNames.isEmpty() && defaultHint == null) {
                throw entry.error("shadowAlgorithmNames", "the table's algorithms (or a defaultShadowAlgorithmName)",
                        null);
            }
            tables.put(name.toLowerCase(Locale.ROOT), new ShadowRule.Table(name, used, columnMatches));
        }
        return tables;
    }
}
