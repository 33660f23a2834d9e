package io.strata.rule.sharding;

import io.strata.config.DatabaseConfig;
import io.strata.config.RuleConfig;
import io.strata.config.YamlMap;
import io.strata.rule.DataSourceNames;
import io.strata.rule.sharding.TableRuleConfig.KeyGenerateConfig;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads one SHARDING rule into a {@link ShardingRuleConfig}; see that class for the keys. */
final class ShardingRuleReader {

    private static final List<String> RULE_KEYS = List.of("tables", "autoTables", "bindingTables",
            "defaultDatabaseStrategy", "defaultTableStrategy", "defaultShardingColumn", "defaultKeyGenerateStrategy",
            "shardingAlgorithms", "keyGenerators", "auditors", "defaultAuditStrategy", "defaultDataSource",
            "shardingCache");
    /** The one auditor ShardingSphere ships. */
    static final String DML_SHARDING_CONDITIONS = "DML_SHARDING_CONDITIONS";
    private static final Map<String, String> NOT_SUPPORTED = Map.of(
            "broadcastTables", "no broadcastTables here (since ShardingSphere 5.4 they are a rule of their own: "
                    + "- type: BROADCAST, tables: [...])");
    private static final List<String> TABLE_KEYS = List.of("actualDataNodes", "databaseStrategy", "tableStrategy",
            "keyGenerateStrategy", "auditStrategy");
    private static final List<String> AUTO_TABLE_KEYS = List.of("actualDataSources", "shardingStrategy",
            "keyGenerateStrategy", "auditStrategy");

    private final YamlMap rule;
    private final DataSourceNames names;

    ShardingRuleReader(DatabaseConfig database, RuleConfig config, String file, String path) {
        this.rule = YamlMap.of(file, path, config.props());
        this.names = DataSourceNames.of(database);
    }

    ShardingRuleConfig read() {
        refuseUnsupported(rule);
        rule.allowOnly(RULE_KEYS);
        // ShardingSphere's route cache (capacity, routeCache): Strata caches its plans per statement shape itself
        rule.optionalMap("shardingCache", "ShardingSphere's { capacity, routeCache: {...} }, which Strata reads "
                + "and does not need");
        Map<String, AlgorithmConfig> algorithms = ShardingAlgorithms.read(rule.optionalMap("shardingAlgorithms",
                "a mapping of algorithm names to { type, props }"));
        Map<String, KeyGeneratorConfig> generators = KeyGenerators.read(rule.optionalMap("keyGenerators",
                "a mapping of key generator names to { type, props }"));
        StrategyReader strategies = new StrategyReader(algorithms, rule.string("defaultShardingColumn", null));
        List<String> auditors = auditors();
        Defaults defaults = new Defaults(orNone(strategies.read(rule, "defaultDatabaseStrategy")),
                orNone(strategies.read(rule, "defaultTableStrategy")),
                keyGenerate(rule, "defaultKeyGenerateStrategy", generators),
                audit(rule, "defaultAuditStrategy", auditors), auditors);
        List<TableRuleConfig> tables = tables(strategies, defaults, generators, algorithms);
        List<List<String>> bindings = bindingGroups(tables, algorithms);
        return new ShardingRuleConfig(tables, bindings, algorithms, generators, defaultDataSource());
    }

    private record Defaults(StrategyConfig database, StrategyConfig table, Optional<KeyGenerateConfig> keys,
                            Optional<AuditConfig> audit, List<String> auditors) {
    }

    /** The names of {@code auditors}, each { type: DML_SHARDING_CONDITIONS }. */
    private List<String> auditors() {
        YamlMap section = rule.optionalMap("auditors", "a mapping of auditor names to { type: "
                + DML_SHARDING_CONDITIONS + " }");
        for (String name : section.keys()) {
            YamlMap auditor = section.map(name, "{ type: " + DML_SHARDING_CONDITIONS + " }");
            auditor.allowOnly(List.of("type", "props"));
            if (!DML_SHARDING_CONDITIONS.equalsIgnoreCase(auditor.string("type"))) {
                throw auditor.error("type", DML_SHARDING_CONDITIONS + " (the auditor ShardingSphere ships)",
                        auditor.value("type"));
            }
        }
        return List.copyOf(section.keys());
    }

    private static Optional<AuditConfig> audit(YamlMap owner, String key, List<String> auditors) {
        if (owner.value(key) == null) {
            return Optional.empty();
        }
        YamlMap strategy = owner.map(key, "{ auditorNames: [name], allowHintDisable: true }");
        strategy.allowOnly(List.of("auditorNames", "allowHintDisable"));
        List<String> names = strategy.strings("auditorNames", null);
        if (names == null || names.isEmpty()) {
            throw strategy.error("auditorNames", "a list of auditors, one of " + auditors, null);
        }
        for (String name : names) {
            if (!auditors.contains(name)) {
                throw strategy.error("auditorNames", "auditors of the rule's auditors " + auditors + " (" + name
                        + " is none)", names);
            }
        }
        return Optional.of(new AuditConfig(names, strategy.bool("allowHintDisable", true)));
    }

    private static void refuseUnsupported(YamlMap map) {
        NOT_SUPPORTED.forEach((key, expected) -> {
            if (map.keys().contains(key)) {
                throw map.error(key, expected, map.value(key) == null ? key : map.value(key));
            }
        });
    }

    private static StrategyConfig orNone(StrategyConfig strategy) {
        return strategy == null ? StrategyConfig.NONE : strategy;
    }

    private List<TableRuleConfig> tables(StrategyReader strategies, Defaults defaults,
                                         Map<String, KeyGeneratorConfig> generators,
                                         Map<String, AlgorithmConfig> algorithms) {
        YamlMap section = rule.optionalMap("tables", "a mapping of logical table names to { actualDataNodes, "
                + "databaseStrategy, tableStrategy, keyGenerateStrategy }");
        YamlMap auto = rule.optionalMap("autoTables", "a mapping of logical table names to { actualDataSources, "
                + "shardingStrategy, keyGenerateStrategy }");
        if (section.isEmpty() && auto.isEmpty()) {
            throw rule.error("tables", "at least one sharded table (under tables or autoTables)",
                    rule.value("tables") == null ? null : "{}");
        }
        List<TableRuleConfig> tables = new ArrayList<>();
        Map<String, String> owners = new HashMap<>();
        for (String name : section.keys()) {
            checkName(section, name, tables);
            YamlMap table = section.optionalMap(name, "{ actualDataNodes, databaseStrategy, tableStrategy, ... }");
            refuseUnsupported(table);
            table.allowOnly(TABLE_KEYS);
            List<DataNode> nodes = new DataNodesReader(table, names).read(name, owners);
            StrategyConfig databaseStrategy = strategies.read(table, "databaseStrategy");
            StrategyConfig tableStrategy = strategies.read(table, "tableStrategy");
            Optional<KeyGenerateConfig> keys = keyGenerate(table, "keyGenerateStrategy", generators);
            Optional<AuditConfig> audit = audit(table, "auditStrategy", defaults.auditors());
            tables.add(new TableRuleConfig(name, nodes,
                    databaseStrategy != null ? databaseStrategy : defaults.database(),
                    tableStrategy != null ? tableStrategy : defaults.table(),
                    keys.isPresent() ? keys : defaults.keys(), audit.isPresent() ? audit : defaults.audit()));
        }
        for (String name : auto.keys()) {
            checkName(auto, name, tables);
            tables.add(autoTable(auto, name, strategies, defaults, generators, algorithms, owners));
        }
        return tables;
    }

    private static void checkName(YamlMap section, String name, List<TableRuleConfig> tables) {
        if (name.isBlank() || name.contains(".") || name.contains("`") || !name.strip().equals(name)) {
            throw section.error(name, "a table name without schema, quotes or spaces", name);
        }
        if (tables.stream().anyMatch(t -> t.logicalName().equalsIgnoreCase(name))) {
            throw section.error(name, "a table not already listed (names are compared ignoring case, under "
                    + "tables and autoTables)", name);
        }
    }

    /**
     * An {@code autoTables} entry, laid out as ShardingSphere lays it out: its algorithm cuts it into n shards, the
     * actual tables {@code <table>_0} up to {@code <table>_(n-1)}, dealt over {@code actualDataSources} in turn
     * (table i on the (i mod m)-th of m data sources; all of the database's when the key is absent). The sharding
     * strategy picks the table; where it lives follows.
     */
    private TableRuleConfig autoTable(YamlMap section, String name, StrategyReader strategies, Defaults defaults,
                                      Map<String, KeyGeneratorConfig> generators,
                                      Map<String, AlgorithmConfig> algorithms, Map<String, String> owners) {
        YamlMap table = section.optionalMap(name, "{ actualDataSources, shardingStrategy, keyGenerateStrategy }");
        refuseUnsupported(table);
        table.allowOnly(AUTO_TABLE_KEYS);
        StrategyConfig strategy = strategies.read(table, "shardingStrategy");
        String expected = "a standard strategy whose algorithm is MOD, HASH_MOD, BOUNDARY_RANGE, VOLUME_RANGE or "
                + "AUTO_INTERVAL (an algorithm that says how many shards it makes)";
        if (!(strategy instanceof StrategyConfig.Standard standard)
                || !(algorithms.get(standard.algorithmName()).algorithm() instanceof AutoTableAlgorithm auto)) {
            throw table.error("shardingStrategy", expected, strategy == null ? null : strategy.describe());
        }
        List<DataNode> nodes = new DataNodesReader(table, names).autoNodes(name, auto.autoTablesAmount(), owners);
        Optional<KeyGenerateConfig> keys = keyGenerate(table, "keyGenerateStrategy", generators);
        Optional<AuditConfig> audit = audit(table, "auditStrategy", defaults.auditors());
        return new TableRuleConfig(name, nodes, StrategyConfig.NONE, strategy,
                keys.isPresent() ? keys : defaults.keys(), audit.isPresent() ? audit : defaults.audit());
    }

    private static Optional<KeyGenerateConfig> keyGenerate(YamlMap owner, String key,
                                                           Map<String, KeyGeneratorConfig> generators) {
        if (owner.value(key) == null) {
            return Optional.empty();
        }
        YamlMap strategy = owner.map(key, "{ column: order_id, keyGeneratorName: snowflake }");
        strategy.allowOnly(List.of("column", "keyGeneratorName"));
        String column = strategy.string("column");
        String generator = strategy.string("keyGeneratorName");
        if (!generators.containsKey(generator)) {
            throw strategy.error("keyGeneratorName", "one of keyGenerators " + generators.keySet(), generator);
        }
        return Optional.of(new KeyGenerateConfig(column, generator));
    }

    private List<List<String>> bindingGroups(List<TableRuleConfig> tables, Map<String, AlgorithmConfig> algorithms) {
        Map<String, TableRuleConfig> byName = new LinkedHashMap<>();
        tables.forEach(table -> byName.put(table.logicalName().toLowerCase(Locale.ROOT), table));
        List<String> entries = rule.strings("bindingTables", List.of());
        Map<String, String> groupOf = new HashMap<>();
        Map<String, String> named = new HashMap<>();
        List<List<String>> groups = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String key = "bindingTables[" + i + "]";
            List<TableRuleConfig> group = new ArrayList<>();
            String members = entries.get(i);
            int colon = members.indexOf(':');
            if (colon >= 0) { // ShardingSphere 5.5's named group, "ref_0:t_order,t_order_item": the name is a label
                String name = members.substring(0, colon).strip();
                if (!name.matches("[A-Za-z0-9_$-]+")) {
                    throw rule.error(key, "a group name before ':' of letters, digits and _ (like "
                            + "\"ref_0:t_order,t_order_item\")", entries.get(i));
                }
                String previous = named.putIfAbsent(name.toLowerCase(Locale.ROOT), key);
                if (previous != null) {
                    throw rule.error(key, "a group name no other group has (" + name + " is " + previous + "'s)",
                            entries.get(i));
                }
                members = members.substring(colon + 1);
            }
            for (String item : members.split(",")) {
                TableRuleConfig table = byName.get(item.strip().toLowerCase(Locale.ROOT));
                if (table == null) {
                    throw rule.error(key, "comma-separated tables of tables " + tables.stream()
                            .map(TableRuleConfig::logicalName).toList() + " (" + item.strip() + " is none)",
                            entries.get(i));
                }
                String previous = groupOf.putIfAbsent(table.logicalName(), key);
                if (previous != null) {
                    throw rule.error(key, "tables in no other binding group (" + table.logicalName() + " is in "
                            + previous + ")", entries.get(i));
                }
                group.add(table);
            }
            if (group.size() < 2) {
                throw rule.error(key, "at least two tables, like \"t_order,t_order_item\"", entries.get(i));
            }
            BindingCheck check = new BindingCheck(rule, key, entries.get(i), algorithms);
            group.subList(1, group.size()).forEach(other -> check.check(group.get(0), other));
            groups.add(group.stream().map(TableRuleConfig::logicalName).toList());
        }
        return groups;
    }

    private String defaultDataSource() {
        if (rule.value("defaultDataSource") == null) {
            if (names.logical().isEmpty()) {
                throw rule.error("defaultDataSource", "a data source (the database has none)", null);
            }
            return names.logical().get(0);
        }
        String name = rule.string("defaultDataSource");
        return names.check(rule, "defaultDataSource", name, name);
    }
}
