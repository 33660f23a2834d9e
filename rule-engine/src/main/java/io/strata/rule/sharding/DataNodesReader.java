package io.strata.rule.sharding;

import io.strata.config.YamlMap;
import io.strata.rule.DataSourceNames;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a table's {@code actualDataNodes} into nodes, each {@code dataSource.table} on a data source or read/write
 * group of the database, none listed twice or used by another table. Without actualDataNodes the table is its own
 * name on every data source (a read/write group counting once), as in ShardingSphere.
 */
final class DataNodesReader {

    private static final String KEY = "actualDataNodes";
    private static final String AUTO_KEY = "actualDataSources";
    private static final String EXPECTED = "data nodes like ds_${0..1}.t_order_${0..1} or ds_0.t_order_0, "
            + "ds_1.t_order_1";

    private final YamlMap table;
    private final DataSourceNames names;

    DataNodesReader(YamlMap table, DataSourceNames names) {
        this.table = table;
        this.names = names;
    }

    /** @param owners each node already used, as "ds.table", mapped to its table: filled with this table's nodes */
    List<DataNode> read(String logicalName, Map<String, String> owners) {
        List<DataNode> nodes = table.value(KEY) == null ? everywhere(logicalName) : written();
        Set<DataNode> seen = new HashSet<>();
        for (DataNode node : nodes) {
            if (!seen.add(node)) {
                throw table.error(KEY, EXPECTED + ", each once (" + node + " is twice)", table.value(KEY));
            }
            String owner = owners.putIfAbsent(node.toString(), logicalName);
            if (owner != null) {
                throw table.error(KEY, "data nodes of this table only (" + node + " is a node of " + owner + ")",
                        table.value(KEY));
            }
        }
        return nodes;
    }

    /**
     * The nodes of an {@code autoTables} entry: {@code amount} actual tables {@code <table>_i}, dealt over the data
     * sources of {@code actualDataSources} in turn (all of the database's when it is absent).
     *
     * @param owners as for {@link #read}
     */
    List<DataNode> autoNodes(String logicalName, int amount, Map<String, String> owners) {
        List<String> dataSources = table.value(AUTO_KEY) == null ? names.logical() : dataSources();
        List<DataNode> nodes = new ArrayList<>(amount);
        for (int i = 0; i < amount; i++) {
            DataNode node = new DataNode(dataSources.get(i % dataSources.size()), logicalName + "_" + i);
            String owner = owners.putIfAbsent(node.toString(), logicalName);
            if (owner != null) {
                throw table.error(AUTO_KEY, "data sources where no other table has " + node.table() + " (it is "
                        + "a node of " + owner + ")", table.value(AUTO_KEY));
            }
            nodes.add(node);
        }
        return nodes;
    }

    private List<String> dataSources() {
        String expected = "data sources like ds_${0..1} or ds_0, ds_1";
        List<String> expanded = expand(AUTO_KEY, expected);
        String text = (String) table.value(AUTO_KEY);
        if (new HashSet<>(expanded).size() != expanded.size()) {
            throw table.error(AUTO_KEY, expected + ", each once", text);
        }
        for (String name : expanded) {
            names.check(table, AUTO_KEY, name, text);
        }
        return expanded;
    }

    /** The names the expression at {@code key} expands to, or the start stops naming what it cannot read. */
    private List<String> expand(String key, String expected) {
        if (!(table.value(key) instanceof String text) || text.isBlank()) {
            throw table.error(key, expected, table.value(key));
        }
        try {
            return DataNodesExpression.expand(text);
        } catch (ExpressionException e) {
            throw table.error(key, expected + ", which Strata expands: " + e.problem(), text, e);
        }
    }

    private List<DataNode> everywhere(String logicalName) {
        return names.logical().stream().map(dataSource -> new DataNode(dataSource, logicalName)).toList();
    }

    private List<DataNode> written() {
        List<String> expanded = expand(KEY, EXPECTED);
        String text = (String) table.value(KEY);
        List<DataNode> nodes = new ArrayList<>(expanded.size());
        for (String name : expanded) {
            nodes.add(node(name, text));
        }
        return nodes;
    }

    private DataNode node(String name, String text) {
        int dot = name.indexOf('.');
        boolean wellFormed = dot > 0 && dot < name.length() - 1 && name.indexOf('.', dot + 1) < 0
                && name.chars().noneMatch(c -> Character.isWhitespace(c) || c == '`');
        if (!wellFormed) {
            throw table.error(KEY, EXPECTED + " (each data source.table; '" + name + "' is not)", text);
        }
        String dataSource = name.substring(0, dot);
        names.check(table, KEY, dataSource, text);
        return new DataNode(dataSource, name.substring(dot + 1));
    }
}
