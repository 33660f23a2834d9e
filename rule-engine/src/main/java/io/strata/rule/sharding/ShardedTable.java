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
 * A logical table spread over data nodes, with the strategies that place its rows. Immutable and thread-safe (its
 * key generator is thread-safe).
 */
public final class ShardedTable {

    private final TableRuleConfig config;
    private final RoutingStrategy databaseStrategy;
    private final RoutingStrategy tableStrategy;
    private final Optional<KeyGeneration> keyGeneration;
    private final List<String> shardingColumns;
    /** The tables on each data source, data sources in node order. */
    private final Map<String, List<String>> tablesByDataSource = new LinkedHashMap<>();
    private final Map<DataNode, Integer> positions = new HashMap<>();
    private final List<String> dataSources;
    private final String lowerName;
    /**
     * With no database strategy and every actual table named once over all data sources (an {@code autoTables}
     * entry, or nodes like {@code ds_0.t_0, ds_1.t_1}): each table's node, as the table strategy picks among all of
     * them; else null.
     */
    private final Map<String, DataNode> nodeOfTable;
    /** The keys of {@link #nodeOfTable}, in node order. */
    private final List<String> allTables;
    /** Each node's renames for a statement naming this table alone: {@code "" -> data source, name -> actual table}. */
    private final Map<DataNode, Map<String, String>> renames = new HashMap<>();

    ShardedTable(TableRuleConfig config, RoutingStrategy databaseStrategy, RoutingStrategy tableStrategy,
                 Optional<KeyGeneration> keyGeneration) {
        this.config = config;
        this.databaseStrategy = databaseStrategy;
        this.tableStrategy = tableStrategy;
        this.keyGeneration = keyGeneration;
        Set<String> columns = new LinkedHashSet<>();
        config.databaseStrategy().columns().forEach(column -> columns.add(column.toLowerCase(Locale.ROOT)));
        config.tableStrategy().columns().forEach(column -> columns.add(column.toLowerCase(Locale.ROOT)));
        this.shardingColumns = List.copyOf(columns);
        for (DataNode node : config.nodes()) {
            tablesByDataSource.computeIfAbsent(node.dataSource(), ds -> new ArrayList<>()).add(node.table());
            positions.put(node, positions.size());
        }
        this.dataSources = List.copyOf(tablesByDataSource.keySet());
        this.lowerName = config.logicalName().toLowerCase(Locale.ROOT);
        for (DataNode node : config.nodes()) {
            renames.put(node, Map.of("", node.dataSource(), lowerName, node.table()));
        }
        Map<String, DataNode> byTable = new LinkedHashMap<>();
        config.nodes().forEach(node -> byTable.put(node.table(), node));
        this.nodeOfTable = config.databaseStrategy() instanceof StrategyConfig.None && dataSources.size() > 1
                && byTable.size() == config.nodes().size() ? byTable : null;
        this.allTables = nodeOfTable == null ? List.of() : List.copyOf(byTable.keySet());
    }

    /** Whether a strategy of it is {@code hint}: its values come from the statement's hint comment. */
    boolean hinted() {
        return config.databaseStrategy() instanceof StrategyConfig.Hint
                || config.tableStrategy() instanceof StrategyConfig.Hint;
    }

    /** The renames of {@code node} (one of this table's) for a statement that names this table alone. */
    Map<String, String> renamesAlone(DataNode node) {
        return renames.get(node);
    }

    /** The logical name in lower case: how statements' renames key it. */
    String lowerName() {
        return lowerName;
    }

    /** As configured (compare ignoring case). */
    public String logicalName() {
        return config.logicalName();
    }

    /** Every node, in {@code actualDataNodes} order. */
    public List<DataNode> nodes() {
        return config.nodes();
    }

    /** Lower-case names of every column its database and table strategies read. */
    public List<String> shardingColumns() {
        return shardingColumns;
    }

    public Optional<KeyGeneration> keyGeneration() {
        return keyGeneration;
    }

    /** The configuration it was made from: strategies as configured, for explanations. */
    public TableRuleConfig config() {
        return config;
    }

    /** The data sources its nodes are on, in node order. */
    public List<String> dataSources() {
        return dataSources;
    }

    /** Where the node sits in {@link #nodes()}, or -1. */
    int positionOf(DataNode node) {
        return positions.getOrDefault(node, -1);
    }

    /**
     * The nodes one AND branch can touch, in node order: the database strategy picks data sources, then the table
     * strategy picks tables on each of them, as ShardingSphere's standard routing.
     */
    List<DataNode> route(ShardingConditions conditions, HintValues hints) {
        String name = logicalName();
        if (nodeOfTable != null) { // the table strategy picks among all tables; each lives on one data source
            List<String> tables = tableStrategy.route(allTables, name, conditions, hints.tableValues());
            return tables.stream().map(nodeOfTable::get).filter(Objects::nonNull).toList();
        }
        List<String> dataSources = databaseStrategy.route(this.dataSources, name, conditions,
                hints.databaseValues());
        if (dataSources.size() == 1) { // a point's route: no set to build
            String dataSource = dataSources.get(0);
            List<String> tables = tableStrategy.route(tablesByDataSource.get(dataSource), name, conditions,
                    hints.tableValues());
            if (tables.size() == 1) {
                DataNode node = new DataNode(dataSource, tables.get(0));
                return positions.containsKey(node) ? List.of(node) : List.of();
            }
        }
        Set<DataNode> chosen = new LinkedHashSet<>();
        for (String dataSource : dataSources) {
            List<String> tables = tableStrategy.route(tablesByDataSource.get(dataSource), name, conditions,
                    hints.tableValues());
            tables.forEach(table -> chosen.add(new DataNode(dataSource, table)));
        }
        return nodes().stream().filter(chosen::contains).toList();
    }

    @Override
    public String toString() {
        return logicalName() + nodes();
    }
}
