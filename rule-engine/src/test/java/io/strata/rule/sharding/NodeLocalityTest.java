package io.strata.rule.sharding;

import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RuleChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Joins, subqueries and outer joins sent node by node only where the rows they combine meet on one node: t_order
 * and its bound t_order_item shard by user_id (data source) and order_id (table), four nodes each; t_user by user_id
 * alone; t_dict is broadcast. Each refused shape has a node-local counterpart that is routed.
 */
class NodeLocalityTest {

    private static final String RULES = """
            - type: SHARDING
              tables:
                t_order:
                  actualDataNodes: ds_${0..1}.t_order_${0..1}
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                  tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_inline } }
                t_order_item:
                  actualDataNodes: ds_${0..1}.t_order_item_${0..1}
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                  tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_item_inline } }
                t_user:
                  actualDataNodes: ds_${0..1}.t_user
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                t_hint:
                  actualDataNodes: ds_${0..1}.t_hint
                  databaseStrategy: { hint: { shardingAlgorithmName: hint_ds } }
              bindingTables: [ "t_order,t_order_item" ]
              shardingAlgorithms:
                database_mod: { type: MOD, props: { sharding-count: 2 } }
                hint_ds: { type: HINT_INLINE, props: { algorithm-expression: "ds_${value % 2}" } }
                t_order_inline: { type: INLINE, props: { algorithm-expression: "t_order_${order_id % 2}" } }
                t_item_inline: { type: INLINE, props: { algorithm-expression: "t_order_item_${order_id % 2}" } }
            - type: BROADCAST
              tables: [t_dict]
            """;
    private static final RuleChain CHAIN = ShardingFixture.chain(RULES);

    private static RouteResult route(String sql, Object... params) {
        return ShardingFixture.route(CHAIN, sql, params);
    }

    private static int units(String sql, Object... params) {
        return route(sql, params).units().size();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // the three shapes
            "SELECT a.order_id, b.order_id FROM t_order a JOIN t_order b ON a.user_id = b.user_id "
                    + "AND a.order_id < b.order_id|t_order a and t_order b are not joined on equal sharding columns "
                    + "(a.user_id = b.user_id AND a.order_id = b.order_id)",
            "SELECT o.order_id, i.item_id FROM t_order o JOIN t_order_item i ON o.user_id = i.user_id"
                    + "|(o.user_id = i.user_id AND o.order_id = i.order_id)",
            "SELECT d.code, o.order_id FROM t_dict d LEFT JOIN t_order o ON o.status = d.code"
                    + "|keeps every row of broadcast table t_dict d",
            "SELECT d.code, o.order_id FROM t_order o RIGHT JOIN t_dict d ON o.status = d.code"
                    + "|keeps every row of broadcast table t_dict d",
            // a binding is about both sharding columns: one of them is not enough
            "SELECT * FROM t_order o JOIN t_order_item i ON o.order_id = i.order_id|o.user_id = i.user_id",
            // an expression of the sharding column is not the column
            "SELECT * FROM t_order a JOIN t_order b ON a.user_id + 0 = b.user_id AND a.order_id = b.order_id"
                    + "|not joined on equal sharding columns",
            // merges over a join assume it node-local: refused with the join
            "SELECT COUNT(*) FROM t_order a JOIN t_order b ON a.status = b.status|not joined",
            "SELECT DISTINCT a.status FROM t_order a, t_order b WHERE a.user_id = b.user_id LIMIT 3|not joined",
            // an equality under OR, or of a LEFT JOIN's ON that does not name the joined table, holds on no row
            "SELECT * FROM t_order a JOIN t_order b ON a.user_id = b.user_id AND (a.order_id = b.order_id "
                    + "OR a.status = 'x')|not joined",
            "SELECT * FROM t_order a JOIN t_order b ON a.status = b.status LEFT JOIN t_dict d "
                    + "ON a.user_id = b.user_id AND a.order_id = b.order_id AND d.code = a.status|not joined",
            // one node, but the other mention's rows are everywhere
            "SELECT * FROM t_order a JOIN t_order b ON a.status = b.status WHERE a.user_id = 1 AND a.order_id = 5"
                    + "|not joined",
            "SELECT * FROM t_order WHERE user_id = 1 AND order_id = 5 AND amount > (SELECT AVG(amount) FROM "
                    + "t_order)|not joined",
            "SELECT * FROM t_order o WHERE o.user_id = 1 AND o.order_id = 5 AND NOT EXISTS (SELECT 1 FROM "
                    + "t_order_item i WHERE i.user_id = o.user_id)|not joined",
            "DELETE FROM t_order WHERE user_id = 1 AND order_id = 5 AND status IN (SELECT status FROM t_order_item "
                    + "WHERE qty > 3)|not joined",
            // a table a hint places: two mentions may be on different nodes
            "SELECT * FROM t_hint a JOIN t_hint b ON a.id = b.id|hint",
            // a derived table reads every shard on each
            "SELECT * FROM t_order o JOIN (SELECT user_id, order_id FROM t_order_item) x ON x.user_id = o.user_id "
                    + "AND x.order_id = o.order_id WHERE o.user_id = 1 AND o.order_id = 5|separate parts"})
    void joinsWhoseRowsMayMeetOnNoNodeAreRefusedSayingWhy(String example) {
        String[] parts = example.split("\\|");
        RouteException refused = assertThrows(RouteException.class, () -> route(parts[0]));
        assertEquals(1235, refused.errorCode());
        assertTrue(refused.getMessage().contains(parts[1]), refused.getMessage());
    }

    @Test
    void boundTablesJoinedOnBothShardingColumnsRunOnEachNode() {
        assertEquals(List.of("ds_0: SELECT * FROM `t_order_0` o JOIN `t_order_item_0` i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id",
                "ds_0: SELECT * FROM `t_order_1` o JOIN `t_order_item_1` i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id"),
                route("SELECT * FROM t_order o JOIN t_order_item i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id").units().subList(0, 2).stream()
                        .map(u -> u.dataSource() + ": " + u.sql()).toList());
        assertEquals(4, units("SELECT * FROM t_order o, t_order_item i WHERE i.user_id = o.user_id "
                + "AND o.order_id = i.order_id"));
        assertEquals(4, units("SELECT * FROM t_order o JOIN t_order_item i USING (user_id, order_id)"));
        assertEquals(4, units("SELECT * FROM t_order o LEFT JOIN t_order_item i ON o.order_id = i.order_id "
                + "AND o.user_id = i.user_id AND i.qty > 1"));
    }

    @Test
    void aSelfJoinOnItsShardingColumnsRunsOnEachNode() {
        assertEquals(4, units("SELECT a.order_id FROM t_order a JOIN t_order b ON a.user_id = b.user_id "
                + "AND b.order_id = a.order_id AND a.status <> b.status"));
        assertEquals(2, units("SELECT * FROM t_user a JOIN t_user b ON a.user_id = b.user_id"),
                "t_user shards by user_id alone");
        assertEquals(4, units("SELECT * FROM t_order a JOIN t_order b ON a.user_id = b.user_id "
                + "JOIN t_order c ON c.user_id = b.user_id AND c.order_id = b.order_id WHERE a.order_id = b.order_id"),
                "ties are transitive, and may be read from ON and WHERE alike");
    }

    @Test
    void aBroadcastTableJoinsOnEachNodeWhereItsRowsCannotRepeat() {
        assertEquals(4, units("SELECT o.order_id, d.name FROM t_order o JOIN t_dict d ON o.status = d.code"));
        assertEquals(4, units("SELECT o.order_id, d.name FROM t_order o LEFT JOIN t_dict d ON o.status = d.code"));
        assertEquals(4, units("SELECT o.order_id, d.name FROM t_dict d RIGHT JOIN t_order o ON o.status = d.code"));
        assertEquals(List.of("ds_1"), route("SELECT d.code, o.order_id FROM t_dict d LEFT JOIN t_order o "
                + "ON o.status = d.code WHERE o.user_id = 1 AND o.order_id = 5").units().stream()
                .map(u -> u.dataSource()).toList(), "one node: the outer join keeps each row once");
    }

    @Test
    void mentionsThatConditionsPutOnOneNodeRunThere() {
        RouteResult route = route("SELECT * FROM t_order a JOIN t_order b ON a.status = b.status "
                + "WHERE a.user_id = 1 AND a.order_id = 5 AND b.user_id = 3 AND b.order_id = 7");
        assertEquals(1, route.units().size());
        assertEquals("ds_1", route.first().dataSource());
        assertTrue(route.first().sql().contains("`t_order_1` a JOIN `t_order_1` b"), route.first().sql());
        assertEquals(1, units("SELECT * FROM t_order a JOIN t_order b ON a.status = b.status "
                + "WHERE a.user_id = ? AND a.order_id = ? AND b.user_id = ? AND b.order_id = ?", 1, 5, 3, 7));
        assertThrows(RouteException.class, () -> route("SELECT * FROM t_order a JOIN t_order b ON a.status = "
                + "b.status WHERE a.user_id = ? AND a.order_id = ? AND b.user_id = ? AND b.order_id = ?", 1, 5, 2, 7));
        assertEquals(1, units("SELECT * FROM t_order WHERE user_id = 1 AND order_id = 5 AND amount > "
                + "(SELECT AVG(amount) FROM t_order WHERE user_id = 1 AND order_id = 5)"));
    }

    @Test
    void aSubqueryTiedToTheOuterRowOnItsShardingColumnsRunsWithIt() {
        assertEquals(1, units("SELECT * FROM t_order o WHERE o.user_id = 1 AND o.order_id = 5 AND NOT EXISTS "
                + "(SELECT 1 FROM t_order_item i WHERE i.user_id = o.user_id AND i.order_id = o.order_id)"));
        assertEquals(1, units("UPDATE t_order o SET status = 'x' WHERE o.user_id = 1 AND o.order_id = 5 AND "
                + "EXISTS (SELECT 1 FROM t_order_item i WHERE i.order_id = o.order_id AND i.user_id = o.user_id)"));
    }
}
