package io.strata.rule.sharding;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The sharded tables of one SHARDING rule, ready to place statements: which nodes a statement's conditions can
 * touch, which tables are bound, where unsharded tables live. Immutable and thread-safe.
 *
 * <p>Table names are matched ignoring case (two configured tables may not differ only in case): statements name
 * tables as their authors type them, and a proxy that routed {@code T_ORDER} to one node as an unsharded table
 * while {@code t_order} is sharded would silently split the data. Node names are used exactly as configured.
 *
 * <p>Hints: the {@code nodes} overloads with {@link HintValues} serve tables with {@code hint} strategies; without
 * them such a strategy lets every target through.
 */
public final class ShardingTables {

    private final Map<String, ShardedTable> tables = new LinkedHashMap<>();
    /** Each bound table's lower-case name, mapped to its group (the tables in configured order). */
    private final Map<String, List<ShardedTable>> bindingGroups = new HashMap<>();
    private final String defaultDataSource;
    private final List<String> dataSources;

    private ShardingTables(ShardingRuleConfig config, WorkerIds workerIds) {
        Map<String, KeyGenerator> generators = new HashMap<>();
        config.keyGenerators().forEach((name, generator) -> generators.put(name, generator.newGenerator(workerIds)));
        Set<String> used = new LinkedHashSet<>();
        for (TableRuleConfig table : config.tables()) {
            Optional<KeyGeneration> keys = table.keyGenerate().map(k -> new KeyGeneration(k.column(),
                    k.keyGeneratorName(), generators.get(k.keyGeneratorName())));
            ShardedTable sharded = new ShardedTable(table, RoutingStrategy.of(table.databaseStrategy(),
                    config.algorithms()), RoutingStrategy.of(table.tableStrategy(), config.algorithms()), keys);
            tables.put(key(table.logicalName()), sharded);
            table.nodes().forEach(node -> used.add(node.dataSource()));
        }
        for (List<String> group : config.bindingGroups()) {
            List<ShardedTable> members = group.stream().map(name -> tables.get(key(name))).toList();
            group.forEach(name -> bindingGroups.put(key(name), members));
        }
        this.defaultDataSource = config.defaultDataSource();
        this.dataSources = List.copyOf(used);
    }

    public static ShardingTables of(ShardingRuleConfig config) {
        return new ShardingTables(config, WorkerIds.CONFIGURED);
    }

    /** @param workerIds where SNOWFLAKE generators take their worker ids (a cluster member's lease) */
    public static ShardingTables of(ShardingRuleConfig config, WorkerIds workerIds) {
        return new ShardingTables(config, workerIds);
    }

    /** The sharded table of that name, compared ignoring case. */
    public Optional<ShardedTable> find(String logicalTableName) {
        return Optional.ofNullable(tables.get(key(logicalTableName)));
    }

    /** In configuration order. */
    public List<ShardedTable> tables() {
        return List.copyOf(tables.values());
    }

    /**
     * The nodes one AND branch can touch, in node order: every node when it says nothing about the sharding
     * columns; none when it cannot hold ({@code id = 1 AND id = 2}, {@code id IN ()}).
     *
     * @throws ShardingRouteException when an algorithm cannot place a value
     */
    public List<DataNode> nodes(ShardedTable table, ShardingConditions conditions) {
        return nodes(table, conditions, HintValues.none());
    }

    public List<DataNode> nodes(ShardedTable table, ShardingConditions conditions, HintValues hints) {
        return table.route(Objects.requireNonNull(conditions, "conditions"), hints);
    }

    /**
     * The nodes any of the OR branches can touch, in node order.
     *
     * @param orBranches at least one; a statement without WHERE is {@code List.of(ShardingConditions.none())}
     */
    public List<DataNode> nodes(ShardedTable table, List<ShardingConditions> orBranches) {
        return nodes(table, orBranches, HintValues.none());
    }

    public List<DataNode> nodes(ShardedTable table, List<ShardingConditions> orBranches, HintValues hints) {
        if (orBranches.isEmpty()) {
            throw new IllegalArgumentException("no OR branch: a statement without conditions is "
                    + "List.of(ShardingConditions.none())");
        }
        if (orBranches.size() == 1) {
            return table.route(orBranches.get(0), hints);
        }
        Set<DataNode> touched = new LinkedHashSet<>();
        for (ShardingConditions branch : orBranches) {
            touched.addAll(table.route(branch, hints));
            if (touched.size() == table.nodes().size()) {
                break;
            }
        }
        return table.nodes().stream().filter(touched::contains).toList();
    }

    /** Whether both tables (any case) are in one {@code bindingTables} group; a table is bound to itself if grouped. */
    public boolean areBound(String tableA, String tableB) {
        List<ShardedTable> group = bindingGroups.get(key(tableA));
        return group != null && group == bindingGroups.get(key(tableB));
    }

    /**
     * The node of {@code other} at the position {@code nodeOfFirst} has in its own table, a table bound to
     * {@code other}: where the rows of a join of the two meet ({@code ds_1.t_order_0} gives
     * {@code ds_1.t_order_item_0}).
     *
     * @throws IllegalArgumentException when {@code nodeOfFirst} is no node of a table bound to {@code other}
     */
    public DataNode boundNode(ShardedTable other, DataNode nodeOfFirst) {
        List<ShardedTable> group = bindingGroups.getOrDefault(key(other.logicalName()), List.of());
        for (ShardedTable table : group) {
            int position = table.positionOf(nodeOfFirst);
            if (position >= 0) {
                return other.nodes().get(position);
            }
        }
        throw new IllegalArgumentException(nodeOfFirst + " is no node of a table bound to " + other.logicalName());
    }

    /** The tables bound with {@code table} ({@code bindingTables}), itself among them, in configured order; or none. */
    public List<String> bindingGroup(String table) {
        return bindingGroups.getOrDefault(key(table), List.of()).stream().map(ShardedTable::logicalName).toList();
    }

    /** Where tables no rule claims live. */
    public String defaultDataSource() {
        return defaultDataSource;
    }

    /** Every data source (or read/write group) some node is on, in order of first use. */
    public List<String> dataSources() {
        return dataSources;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** For a quick look in logs: each table with its node count. */
    @Override
    public String toString() {
        List<String> summary = new ArrayList<>();
        tables.values().forEach(t -> summary.add(t.logicalName() + "(" + t.nodes().size() + " nodes)"));
        return "ShardingTables" + summary;
    }
}
