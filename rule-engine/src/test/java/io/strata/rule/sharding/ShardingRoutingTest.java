package io.strata.rule.sharding;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.strata.rule.sharding.ShardingFixture.EXAMPLE;
import static io.strata.rule.sharding.ShardingFixture.tables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example rule placing statements: t_order on ds_0/ds_1 by user_id % 2, on t_order_0/1 by order_id % 2, bound
 * to t_order_item.
 */
class ShardingRoutingTest {

    private final ShardingTables tables = tables(EXAMPLE);
    private final ShardedTable order = tables.find("t_order").orElseThrow();
    private final ShardedTable item = tables.find("t_order_item").orElseThrow();

    private static List<DataNode> nodes(String... names) {
        return Arrays.stream(names).map(n -> new DataNode(n.substring(0, n.indexOf('.')),
                n.substring(n.indexOf('.') + 1))).toList();
    }

    private static ShardingConditions where() {
        return ShardingConditions.none();
    }

    @Test
    void aStatementThatSaysNothingOfTheShardingColumnsTouchesEveryNode() {
        assertEquals(order.nodes(), tables.nodes(order, where()));
        assertEquals(order.nodes(), tables.nodes(order, where().withValue("status", "NEW")));
    }

    @Test
    void theDatabaseStrategyPicksDataSourcesAndTheTableStrategyTablesOnThem() {
        assertEquals(nodes("ds_1.t_order_0", "ds_1.t_order_1"), tables.nodes(order, where().withValue("user_id", 7L)));
        assertEquals(nodes("ds_1.t_order_0"), tables.nodes(order, where().withValue("user_id", 7L)
                .withValue("ORDER_ID", 10L)));
        assertEquals(nodes("ds_0.t_order_1", "ds_1.t_order_1"), tables.nodes(order, where().withValue("order_id",
                11L)));
    }

    @Test
    void orBranchesTouchTheUnionOfTheirNodesInNodeOrder() {
        List<ShardingConditions> branches = List.of(
                where().withValue("user_id", 1L).withValue("order_id", 2L),
                where().withValue("user_id", 2L).withValue("order_id", 1L));

        assertEquals(nodes("ds_0.t_order_1", "ds_1.t_order_0"), tables.nodes(order, branches));
        assertEquals(order.nodes(), tables.nodes(order, List.of(where())));
        assertThrows(IllegalArgumentException.class, () -> tables.nodes(order, List.of()));
    }

    @Test
    void contradictoryConditionsTouchNoNode() {
        assertEquals(List.of(), tables.nodes(order, where().withValue("user_id", 1L).withValue("user_id", 2L)));
        assertEquals(List.of(), tables.nodes(order, where().withValues("user_id", List.of())));
    }

    @Test
    void conditionsOnOneColumnAreAllKeptWhenTheyCannotBeMergedAndEachNarrows() {
        // '1' and 3 are not merged (a string), yet both send user_id to ds_1; with 2 nothing is left.
        assertEquals(nodes("ds_1.t_order_0", "ds_1.t_order_1"), tables.nodes(order, where()
                .withValue("user_id", "1").withValue("user_id", 3L)));
        assertEquals(List.of(), tables.nodes(order, where().withValue("user_id", "1").withValue("user_id", 2L)));
    }

    @Test
    void anInlineRangeIsRefusedAsShardingSphereAndSaysHowToAllowIt() {
        ShardingRouteException e = assertThrows(ShardingRouteException.class, () -> tables.nodes(order,
                where().withRange("order_id", ShardingRange.greaterThan(5L))));

        assertEquals("INLINE algorithm t_order_inline cannot route the range order_id in (5, +inf) of t_order: set "
                + "allow-range-query-with-inline-sharding: true to send such statements to every shard", e.reason());
    }

    @Test
    void aValueOfTheWrongKindIsARoutingError() {
        ShardingRouteException e = assertThrows(ShardingRouteException.class, () -> tables.nodes(order,
                where().withValue("user_id", "bob")));

        assertEquals("MOD algorithm database_mod needs a whole number for user_id of t_order, got 'bob'",
                e.reason());
    }

    @Test
    void tablesAreFoundIgnoringCase() {
        assertSame(order, tables.find("T_Order").orElseThrow());
        assertTrue(tables.find("t_user").isEmpty());
        assertEquals(List.of(order, item), tables.tables());
    }

    @Test
    void boundTablesMeetAtTheSamePosition() {
        assertTrue(tables.areBound("t_order", "T_ORDER_ITEM"));
        assertTrue(tables.areBound("t_order_item", "t_order"));
        assertFalse(tables.areBound("t_order", "t_user"));
        assertEquals(new DataNode("ds_1", "t_order_item_0"), tables.boundNode(item, new DataNode("ds_1",
                "t_order_0")));
        assertEquals(new DataNode("ds_1", "t_order_0"), tables.boundNode(order, new DataNode("ds_1",
                "t_order_item_0")));
        assertThrows(IllegalArgumentException.class, () -> tables.boundNode(item, new DataNode("ds_9", "x")));
    }

    @Test
    void knowsItsDataSourcesColumnsAndDefault() {
        assertEquals("ds_0", tables.defaultDataSource());
        assertEquals(List.of("ds_0", "ds_1"), tables.dataSources());
        assertEquals(List.of("user_id", "order_id"), order.shardingColumns());
        assertEquals(List.of("ds_0", "ds_1"), order.dataSources());
    }

    @Test
    void aTableWithAKeyGenerateStrategyMakesSnowflakeKeysForItsColumn() {
        KeyGeneration keys = order.keyGeneration().orElseThrow();
        Object first = keys.next();
        Object second = keys.next();

        assertEquals("order_id", keys.column());
        assertInstanceOf(Long.class, first);
        assertTrue((Long) second > (Long) first);
        assertEquals(1, ((Long) first >> 12) & 1023, "worker-id 1");
        assertTrue(item.keyGeneration().isEmpty());
    }
}
