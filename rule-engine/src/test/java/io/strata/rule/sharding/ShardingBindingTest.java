package io.strata.rule.sharding;

import io.strata.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.strata.rule.sharding.ShardingFixture.config;
import static io.strata.rule.sharding.ShardingFixture.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bindingTables: tables are bound only when they shard alike. */
class ShardingBindingTest {

    /** Two tables a and b on ds_0/ds_1, the given nodes and strategies for b, bound as the given entry. */
    private static String rule(String bNodes, String bDatabase, String bTable, String binding) {
        return """
                rules:
                  - type: SHARDING
                    tables:
                      a:
                        actualDataNodes: ds_${0..1}.a_${0..1}
                        databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: mod } }
                        tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: a_inline } }
                      b:
                        actualDataNodes: B_NODES
                        databaseStrategy: B_DATABASE
                        tableStrategy: B_TABLE
                      c: {}
                    bindingTables: [ BINDING ]
                    shardingAlgorithms:
                      mod: { type: MOD, props: { sharding-count: 2 } }
                      mod_too: { type: MOD, props: { sharding-count: 2 } }
                      hash: { type: HASH_MOD, props: { sharding-count: 2 } }
                      a_inline: { type: INLINE, props: { algorithm-expression: "a_${order_id % 2}" } }
                      b_inline: { type: INLINE, props: { algorithm-expression: "b_${order_id % 2}" } }
                      b_other: { type: INLINE, props: { algorithm-expression: "b_${(order_id + 1) % 2}" } }
                      b_user: { type: INLINE, props: { algorithm-expression: "b_${user_id % 2}" } }
                """.replace("B_NODES", bNodes).replace("B_DATABASE", bDatabase).replace("B_TABLE", bTable)
                .replace("BINDING", binding);
    }

    private static final String NODES = "ds_${0..1}.b_${0..1}";
    private static final String DATABASE = "{ standard: { shardingColumn: user_id, shardingAlgorithmName: mod } }";
    private static final String TABLE = "{ standard: { shardingColumn: order_id, shardingAlgorithmName: b_inline } }";

    @Test
    void tablesThatShardAlikeAreBound() {
        assertEquals(1, config(rule(NODES, DATABASE, TABLE, "'a, b'")).bindingGroups().size());
        assertEquals(1, config(rule(NODES, DATABASE.replace("mod }", "mod_too }"), TABLE, "'a,b'"))
                .bindingGroups().size(), "another algorithm with the same type and props is alike");
        assertEquals(java.util.List.of(java.util.List.of("a", "b")),
                config(rule(NODES, DATABASE, TABLE, "'ref_0:a,b'")).bindingGroups(),
                "ShardingSphere 5.5's named group: the name is a label");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "more nodes       | ds_${0..1}.b_${0..2} | | | \"a,b\" | as many data nodes each (a has 4, b 6)",
        "another order    | ds_${0..1}.b_${[1, 0]} | | | \"a,b\" | node 1: ds_0.a_0 with ds_0.b_1",
        "other data sources | ds_${1..2}.b_${0..1} | | | \"a,b\" | node 1: ds_0.a_0 with ds_1.b_0",
        "another database algorithm | | { standard: { shardingColumn: user_id, shardingAlgorithmName: hash } } | | "
                + "\"a,b\" | the same databaseStrategy (a: standard on user_id by mod; b: standard on user_id by hash)",
        "another database column | | { standard: { shardingColumn: order_id, shardingAlgorithmName: mod } } | | "
                + "\"a,b\" | the same databaseStrategy",
        "another table column | | | { standard: { shardingColumn: user_id, shardingAlgorithmName: b_user } } | "
                + "\"a,b\" | alike tableStrategies",
        "an expression differing beyond the name | | | { standard: { shardingColumn: order_id, "
                + "shardingAlgorithmName: b_other } } | \"a,b\" | alike tableStrategies",
        "one table alone  | | | | \"a\"   | at least two tables",
        "an unknown table | | | | \"a,x\" | (x is none)",
        "a table in two groups | | | | \"a,b\", \"a,c\" | a is in bindingTables[0]",
        "a name twice     | | | | \"g:a,b\", \"G:c,b\" | (G is bindingTables[0]'s)",
        "a name of spaces | | | | \"my group:a,b\" | a group name before ':'",
    })
    void tablesThatShardDifferentlyAreRefused(String mistake, String nodes, String database, String table,
                                              String binding, String expected) {
        ConfigException e = error(rule(nodes == null ? NODES : nodes, database == null ? DATABASE : database,
                table == null ? TABLE : table, binding));

        assertTrue(e.key().startsWith("rules[0].bindingTables["), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
