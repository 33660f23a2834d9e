package io.strata.rule.sharding;

import java.util.Objects;

/**
 * One physical table of a sharded table: where rows of the logical table live.
 *
 * @param dataSource a data source, or a read/write group by its name (a decorating rule places it)
 * @param table      the table's name on that data source, as written in {@code actualDataNodes}
 */
public record DataNode(String dataSource, String table) {

    public DataNode {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(table, "table");
    }

    /** As written in {@code actualDataNodes}: {@code ds_0.t_order_0}. */
    @Override
    public String toString() {
        return dataSource + "." + table;
    }
}
