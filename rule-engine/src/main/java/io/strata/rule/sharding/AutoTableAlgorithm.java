package io.strata.rule.sharding;

/**
 * An algorithm that knows how many shards it cuts a table into (ShardingSphere's "auto" algorithms: MOD, HASH_MOD,
 * BOUNDARY_RANGE, VOLUME_RANGE, AUTO_INTERVAL), so that an {@code autoTables} entry can lay its actual tables out
 * from it alone.
 */
interface AutoTableAlgorithm {

    /** The number of shards: the table's actual tables are {@code <table>_0} up to this number less one. */
    int autoTablesAmount();
}
