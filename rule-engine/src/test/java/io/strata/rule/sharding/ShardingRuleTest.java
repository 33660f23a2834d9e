package io.strata.rule.sharding;

import io.strata.rule.QueryMerge;
import io.strata.rule.RouteException;
import io.strata.rule.RouteResult;
import io.strata.rule.RouteUnit;
import io.strata.rule.RuleChain;
import io.strata.rule.SessionRouteState;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlClassifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SHARDING rule's routes: where each statement goes, with what text, merged how; and what it refuses. */
class ShardingRuleTest {

    /** The example: t_order and t_order_item over ds_0, ds_1 by user_id, and two tables each by order_id. */
    private static final String RULES = """
            - type: SHARDING
              tables:
                t_order:
                  actualDataNodes: ds_${0..1}.t_order_${0..1}
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                  tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_inline } }
                  keyGenerateStrategy: { column: order_id, keyGeneratorName: snowflake }
                t_order_item:
                  actualDataNodes: ds_${0..1}.t_order_item_${0..1}
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
                  tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_item_inline } }
                sbtest1:
                  actualDataNodes: ds_${0..1}.sbtest1
                  databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: database_mod } }
                t_audit:
                  actualDataNodes: ds_${0..1}.t_audit
                  databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: database_mod } }
                  auditStrategy: { auditorNames: [ sharding_key_required ], allowHintDisable: true }
                t_hint:
                  actualDataNodes: ds_${0..1}.t_hint
                  databaseStrategy: { hint: { shardingAlgorithmName: hint_ds } }
              auditors:
                sharding_key_required: { type: DML_SHARDING_CONDITIONS }
              autoTables:
                t_auto:
                  actualDataSources: ds_${0..1}
                  shardingStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: auto_mod } }
              bindingTables: [ "t_order,t_order_item" ]
              shardingAlgorithms:
                database_mod: { type: MOD, props: { sharding-count: 2 } }
                auto_mod: { type: MOD, props: { sharding-count: 4 } }
                hint_ds: { type: HINT_INLINE, props: { algorithm-expression: "ds_${value % 2}" } }
                t_order_inline: { type: INLINE, props: { algorithm-expression: "t_order_${order_id % 2}" } }
                t_order_item_inline: { type: INLINE, props: { algorithm-expression: "t_order_item_${order_id % 2}" } }
              keyGenerators:
                snowflake: { type: SNOWFLAKE, props: { worker-id: 1 } }
            - type: BROADCAST
              tables: [t_dict]
            """;

    private static final RuleChain CHAIN = ShardingFixture.chain(RULES);

    private static RouteResult route(String sql, Object... params) {
        return ShardingFixture.route(CHAIN, sql, params);
    }

    private static List<String> units(RouteResult route) {
        return route.units().stream().map(u -> u.dataSource() + ": " + (u.rewritten() ? u.sql() : "(own)")
                + (u.params().isEmpty() ? "" : " " + u.params())).toList();
    }

    @Test
    void preparedWritesWithTheirKeysAsParametersReachOneNode() {
        // an execute's unit runs prepared, its own text with the client's values
        assertEquals(List.of("ds_1: UPDATE `t_order_0` SET status = ? WHERE user_id = ? AND order_id = ? [paid, 3, 10]"),
                units(route("UPDATE t_order SET status = ? WHERE user_id = ? AND order_id = ?", "paid", 3, 10L)));
        assertEquals(List.of("ds_1: DELETE FROM `t_order_0` WHERE user_id = ? AND order_id = ? [3, 10]"),
                units(route("DELETE FROM t_order WHERE user_id = ? AND order_id = ?", 3, 10)));
        assertEquals(1, route("INSERT INTO t_order (order_id, user_id, status) VALUES (?, ?, ?)", 10, 3, "new")
                .units().size());
    }

    @Test
    void aConditionOnBothShardingColumnsReachesOneNode() {
        assertEquals(List.of("ds_1: SELECT * FROM `t_order_0` WHERE user_id = 3 AND order_id = 10"),
                units(route("SELECT * FROM t_order WHERE user_id = 3 AND order_id = 10")));
        assertEquals(List.of("ds_0: SELECT * FROM `t_order_1` WHERE user_id = ? AND order_id = ? [4, 7]"),
                units(route("SELECT * FROM t_order WHERE user_id = ? AND order_id = ?", 4, 7)));
    }

    @Test
    void anExecuteOverSeveralNodesRunsPreparedOnEachWhenItsValuesKeepTheirPlaces() {
        String weight = "WEIGHT_STRING(IF(CONCAT(amount, ' ') = CONCAT(amount), CONCAT(RTRIM(amount), ' '), amount))";
        assertEquals(List.of("ds_0: SELECT order_id, amount, " + weight + " FROM `t_order_0` WHERE user_id IN (?, ?) "
                        + "ORDER BY amount DESC [0, 2]",
                "ds_0: SELECT order_id, amount, " + weight + " FROM `t_order_1` WHERE user_id IN (?, ?) "
                        + "ORDER BY amount DESC [0, 2]"),
                units(route("SELECT order_id, amount FROM t_order WHERE user_id IN (?, ?) ORDER BY amount DESC",
                        0, 2)));
        // LIMIT ? is planned with its value: the units run as text with the values written in
        String key = "WEIGHT_STRING(IF(CONCAT(order_id, ' ') = CONCAT(order_id), CONCAT(RTRIM(order_id), ' '), order_id))";
        assertEquals(List.of("ds_0: SELECT order_id, " + key + " FROM `t_order_0` WHERE user_id = 2 ORDER BY order_id "
                        + "LIMIT 3",
                "ds_0: SELECT order_id, " + key + " FROM `t_order_1` WHERE user_id = 2 ORDER BY order_id LIMIT 3"),
                units(route("SELECT order_id FROM t_order WHERE user_id = ? ORDER BY order_id LIMIT ?", 2, 3)));
    }

    @Test
    void aNodeWhoseNameIsTheLogicalOneGetsTheClientsOwnStatement() {
        RouteResult route = route("SELECT c FROM sbtest1 WHERE id = ?", 7);
        assertEquals(List.of("ds_1: (own)"), units(route));
        assertTrue(route.passThrough(), "the relay's fast path: bytes pass through, values are not written in");
    }

    @Test
    void inAndOrReachTheUnionOfTheirNodes() {
        assertEquals(List.of("ds_0: SELECT order_id FROM `t_order_0` WHERE user_id IN (2, 4)",
                        "ds_0: SELECT order_id FROM `t_order_1` WHERE user_id IN (2, 4)"),
                units(route("SELECT order_id FROM t_order WHERE user_id IN (2, 4)")));
        assertEquals(4, route("SELECT order_id FROM t_order WHERE user_id = 2 OR status = 'x'").units().size(),
                "a branch without a sharding condition reaches every node");
    }

    @Test
    void boundTablesJoinOnEachNode() {
        assertEquals(List.of("ds_1: SELECT * FROM `t_order_1` o JOIN `t_order_item_1` i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id WHERE o.user_id = 1 AND o.order_id = 5"),
                units(route("SELECT * FROM t_order o JOIN t_order_item i ON o.order_id = i.order_id "
                        + "AND o.user_id = i.user_id WHERE o.user_id = 1 AND o.order_id = 5")));
    }

    @Test
    void aSelectOverSeveralNodesAsksForDerivedColumnsAndMerges() {
        RouteResult route = route("SELECT user_id, AVG(amount) FROM t_order GROUP BY user_id ORDER BY 2 DESC LIMIT 1, 2");
        assertEquals(4, route.units().size());
        RouteUnit first = route.first();
        // AVG is a number whatever its argument: its key needs no weight; user_id's type the plan cannot tell
        assertEquals("SELECT user_id, AVG(amount), SUM(amount), COUNT(amount), "
                + "WEIGHT_STRING(IF(CONCAT(user_id, ' ') = CONCAT(user_id), CONCAT(RTRIM(user_id), ' '), user_id)) "
                + "FROM `t_order_0` GROUP BY user_id ORDER BY user_id", first.sql());
        QueryMerge merge = route.query().forColumns(5); // 2 visible, 3 derived
        assertEquals(2, merge.visibleColumns());
        assertTrue(merge.aggregated());
        assertEquals(List.of(new QueryMerge.SortKey(0, false, 4)), merge.groupBy());
        assertEquals(List.of(new QueryMerge.Aggregation(1, QueryMerge.Function.AVG, 2, 3, -1)), merge.aggregations());
        assertEquals(List.of(new QueryMerge.SortKey(1, true, -1)), merge.resultOrder());
        assertEquals(1, merge.offset());
        assertEquals(2, merge.limit());
    }

    @Test
    void groupsOfEverySharingColumnMergeAsRowsWhateverTheirAggregates() {
        RouteResult route = route("SELECT user_id, order_id, GROUP_CONCAT(status SEPARATOR '/') FROM t_order "
                + "GROUP BY user_id, order_id ORDER BY 3 DESC LIMIT 2");
        assertEquals(4, route.units().size());
        assertEquals("ordered merge by #3 DESC; LIMIT 2", route.query().merge().describe());
        assertTrue(route.first().sql().contains("GROUP BY user_id, order_id ORDER BY 3 DESC LIMIT 2"),
                route.first().sql());
        assertNull(route("SELECT o.user_id, o.order_id, COUNT(*) FROM t_order o GROUP BY o.order_id, o.user_id")
                .query(), "each node's groups, one after another");
    }

    @Test
    void groupConcatOverGroupsOnSeveralNodesAsksForEachTupleAndItsCount() {
        RouteResult route = route("SELECT user_id, GROUP_CONCAT(note, status ORDER BY amount DESC SEPARATOR '; ') "
                + "FROM t_order GROUP BY user_id");
        String weight = "WEIGHT_STRING(IF(CONCAT(%1$s, ' ') = CONCAT(%1$s), CONCAT(RTRIM(%1$s), ' '), %1$s))";
        assertEquals("SELECT user_id, GROUP_CONCAT(note, status ORDER BY amount DESC SEPARATOR '; '), "
                + "CONCAT(note, status), COUNT(*), amount, " + weight.formatted("amount")
                + ", @@group_concat_max_len, " + weight.formatted("user_id")
                + " FROM `t_order_0` GROUP BY user_id, note, status, amount ORDER BY user_id", route.first().sql(),
                "each node's rows per tuple of arguments and order key, the group key first");
        QueryMerge merge = route.query().forColumns(8);
        QueryMerge.Concat concat = new QueryMerge.Concat(2, 3, List.of(new QueryMerge.SortKey(4, true, 5)),
                List.of(), "; ", 6);
        assertEquals(List.of(new QueryMerge.Aggregation(1, QueryMerge.Function.GROUP_CONCAT, -1, -1, -1, concat)),
                merge.aggregations());

        RouteResult distinct = route("SELECT GROUP_CONCAT(DISTINCT status ORDER BY status) FROM t_order");
        assertEquals("SELECT GROUP_CONCAT(DISTINCT status ORDER BY status), CONCAT(status), "
                + weight.formatted("status") + ", status, " + weight.formatted("status")
                + ", @@group_concat_max_len FROM `t_order_0` GROUP BY status", distinct.first().sql(),
                "DISTINCT tells tuples apart by their weights: no count");
    }

    @Test
    void aStarWhoseColumnsTheMergeNeedsIsPlannedOverTheColumnsTheHostRead() {
        RuleChain chain = ShardingFixture.chain(RULES);
        ShardingRule rule = chain.routingRules().stream().filter(ShardingRule.class::isInstance)
                .map(ShardingRule.class::cast).findFirst().orElseThrow();
        assertEquals(1235, assertThrows(RouteException.class,
                () -> ShardingFixture.route(chain, "SELECT DISTINCT * FROM t_order")).errorCode(),
                "the columns are not known yet: refused as before");

        rule.columns().found("t_order", List.of("order_id", "user_id", "status"));
        RouteResult distinct = ShardingFixture.route(chain, "SELECT DISTINCT * FROM t_order");
        assertTrue(distinct.first().sql().startsWith("SELECT DISTINCT *, WEIGHT_STRING("), distinct.first().sql());
        assertTrue(distinct.first().sql().endsWith("FROM `t_order_0` ORDER BY 1, 2, 3"), distinct.first().sql());
        assertEquals("ordered merge by #1, #2, #3; DISTINCT", distinct.query().merge().describe());
        assertEquals(List.of("order_id", "user_id", "status"), distinct.query().star().expected(),
                "the merge checks that the shards' * has these columns");

        RouteResult position = ShardingFixture.route(chain, "SELECT o.*, 1 AS one FROM t_order o ORDER BY 3 DESC");
        assertTrue(position.first().sql().contains("ORDER BY 3 DESC"), position.first().sql());
        assertEquals(Arrays.asList("order_id", "user_id", "status", null), position.query().star().expected());

        rule.columns().changed("t_order"); // e.g. DDL through Strata: read again, unknown until then
        assertThrows(RouteException.class, () -> ShardingFixture.route(chain, "SELECT DISTINCT * FROM t_order"));
        assertNull(rule.columns().of("t_order"));
        rule.columns().found("t_order", List.of("order_id", "user_id", "status"));
        ShardingFixture.route(chain, "ALTER TABLE t_order ADD COLUMN note VARCHAR(10)");
        assertNull(rule.columns().of("t_order"), "DDL through Strata has them read again");
    }

    @Test
    void anInsertWithoutAColumnListIsReadByTheColumnsTheHostRead() {
        RuleChain chain = ShardingFixture.chain(RULES);
        ShardingRule rule = chain.routingRules().stream().filter(ShardingRule.class::isInstance)
                .map(ShardingRule.class::cast).findFirst().orElseThrow();
        String insert = "INSERT INTO t_order VALUES (10, 3, 'new'), (11, 2, 'paid')";
        RouteException unknown = assertThrows(RouteException.class, () -> ShardingFixture.route(chain, insert));
        assertTrue(unknown.getMessage().contains("without a column list"), unknown.getMessage());

        rule.columns().found("t_order", List.of("order_id", "user_id", "status"));
        assertEquals(List.of("ds_1: INSERT INTO `t_order_0` VALUES (10, 3, 'new')",
                "ds_0: INSERT INTO `t_order_1` VALUES (11, 2, 'paid')"), units(ShardingFixture.route(chain, insert)),
                "user_id is the second column: each row on its node, as the client wrote it");
        assertEquals(List.of("ds_1: INSERT INTO `t_order_1` VALUES (?, ?, ?) [5, 1, x]"),
                units(ShardingFixture.route(chain, "INSERT INTO t_order VALUES (?, ?, ?)", 5, 1, "x")));
        assertThrows(RouteException.class, () -> ShardingFixture.route(chain, "INSERT INTO t_order VALUES (1, 2)"),
                "not one value per column: refused rather than guessed");
    }

    @Test
    void aKeyAnAnswerShowedIsNoStringIsPlannedWithoutItsWeightFromThenOn() {
        String sql = "SELECT order_id, amount, note FROM t_order WHERE user_id IN (?, ?) ORDER BY amount DESC, note";
        String weight = "WEIGHT_STRING(IF(CONCAT(note, ' ') = CONCAT(note), CONCAT(RTRIM(note), ' '), note))";
        RouteResult route = route(sql, 0, 2);
        assertTrue(route.first().sql().contains("WEIGHT_STRING(IF(CONCAT(amount"), route.first().sql());
        route.query().keyColumns().notStrings(java.util.Set.of(3)); // the merge saw amount is a DECIMAL
        RouteResult next = route(sql, 0, 2);
        assertEquals("SELECT order_id, amount, note, " + weight + " FROM `t_order_0` WHERE user_id IN (?, ?) "
                + "ORDER BY amount DESC, note", next.first().sql());
        assertEquals(List.of(new QueryMerge.SortKey(1, true, -1), new QueryMerge.SortKey(2, false, 3)),
                next.query().merge().unitOrder());
        next.query().keyColumns().changed(); // a column became a string: its weight is asked again
        assertTrue(route(sql, 0, 2).first().sql().contains("WEIGHT_STRING(IF(CONCAT(amount"));
    }

    @Test
    void limitBecomesOffsetPlusCountOnEachNode() {
        RouteResult route = route("SELECT * FROM t_order ORDER BY order_id LIMIT 10, 5");
        assertTrue(route.first().sql().endsWith("ORDER BY order_id LIMIT 15"), route.first().sql());
        // under *, the key is asked for again, with its weight, after the table's 6 columns
        QueryMerge merge = route.query().forColumns(8);
        assertEquals(6, merge.visibleColumns());
        assertEquals(List.of(new QueryMerge.SortKey(6, false, 7)), merge.unitOrder());
        assertEquals(10, merge.offset());
        assertEquals(5, merge.limit());
    }

    @Test
    void aPlainSelectOverSeveralNodesIsConcatenated() {
        RouteResult route = route("SELECT order_id FROM t_order WHERE status = 'x'");
        assertEquals(4, route.units().size());
        assertNull(route.query(), "no order, group or limit: the nodes' rows one after another");
    }

    @Test
    void insertRowsGoToTheirNodesWithGeneratedKeys() {
        RouteResult route = route("INSERT INTO t_order (user_id, status) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        assertTrue(route.units().size() >= 2);
        for (RouteUnit unit : route.units()) {
            assertTrue(unit.sql().contains("order_id"), "the generated key is added: " + unit.sql());
        }
        assertEquals(List.of("ds_0: INSERT INTO `t_order_item_0` (order_id, user_id) VALUES (?, ?) [2, 4]"),
                units(route("INSERT INTO t_order_item (order_id, user_id) VALUES (?, ?)", 2, 4)));
    }

    /** A bulk load's text: {@code rows} rows of t_order, row i with order_id i and user_id i / 2. */
    private static String bulkInsert(int rows, boolean withKey) {
        StringBuilder sql = new StringBuilder("INSERT INTO t_order (" + (withKey ? "order_id, " : "")
                + "user_id, status) VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ",").append('(').append(withKey ? i + ", " : "").append(i / 2)
                    .append(", 'a, (b)')");
        }
        return sql.toString();
    }

    @Test
    void anInsertTooLongToParseIsSplitAtItsRows() {
        String sql = bulkInsert(2000, true);
        assertTrue(sql.length() > 16 * 1024, "past what the parser reads");
        RouteResult route = route(sql);
        assertEquals(List.of("ds_0", "ds_0", "ds_1", "ds_1"), route.units().stream().map(RouteUnit::dataSource).toList());
        String first = route.units().get(0).sql(); // ds_0.t_order_0: even users, even orders
        assertTrue(first.startsWith("INSERT INTO `t_order_0` (order_id, user_id, status) VALUES (0, 0, 'a, (b)'),"
                + "(4, 2, 'a, (b)'),"), first);
        assertEquals(500, first.split("'a, \\(b\\)'").length - 1, "a quarter of the rows, strings and all");
        assertTrue(route.units().get(3).sql().contains("(3, 1, 'a, (b)'),(7, 3, 'a, (b)')"));
        // a driver's batch rewritten into one statement, prepared: executed with its values, then split alike
        String prepared = sql.replaceAll("\\((\\d+), (\\d+), 'a, \\(b\\)'\\)", "(?, ?, ?)");
        Object[] values = new Object[6000];
        for (int i = 0; i < 2000; i++) {
            values[3 * i] = (long) i;
            values[3 * i + 1] = i / 2;
            values[3 * i + 2] = "a, (b)";
        }
        assertEquals(units(route), units(route(prepared, values)));
        String compact = prepared.replace("?, ?, ?", "?,?,?");
        assertTrue(compact.length() < 16 * 1024, "short enough to parse, but not with its values written in");
        assertTrue(units(route(sql.replaceAll("\\((\\d+), (\\d+), ", "($1,$2,"))).equals(units(route(compact, values))));
    }

    @Test
    void anInsertTooLongToParseGetsItsGeneratedKeys() {
        RouteResult route = route(bulkInsert(2000, false));
        int rows = 0;
        for (RouteUnit unit : route.units()) {
            assertTrue(unit.sql().startsWith("INSERT INTO `" + unit.sql().substring(13, 22)
                    + "` (user_id, status, `order_id`) VALUES ("), unit.sql());
            rows += unit.sql().split("'a, \\(b\\)', \\d+\\)").length - 1;
        }
        assertEquals(2000, rows, "every row goes to one node, with its key");
        assertTrue(route.insertId() > 0, "the first generated key, as AUTO_INCREMENT's");
    }

    @Test
    void anInsertTooLongToParseIsRefusedWhereAShortOneIs() {
        String sql = bulkInsert(2000, true);
        assertTrue(assertThrows(RouteException.class, () -> route(sql.replace("(1500, 750,", "(1500, NULL,")))
                .getMessage().contains("NULL as sharding column user_id of t_order (row 1501)"));
        assertTrue(assertThrows(RouteException.class, () -> route(sql.replace("(1500, 750,", "(1500, 749 + 1,")))
                .getMessage().contains("given as 749 + 1 (row 1501)"));
        assertTrue(assertThrows(RouteException.class, () -> route(sql.replace("(1500, 750,", "(1500,")))
                .getMessage().contains("row 1501 of this INSERT has 2 values for 3 columns"));
        assertTrue(assertThrows(RouteException.class, () -> route(sql + " ON DUPLICATE KEY UPDATE user_id = 1"))
                .getMessage().contains("ON DUPLICATE KEY UPDATE of sharding column user_id"));
        // a row's subquery could name any table: the statement must be parsed whole, and is too long to be
        assertTrue(assertThrows(RouteException.class, () -> route(sql.replace("(1500, 750, 'a, (b)')",
                "(1500, 750, (SELECT status FROM t_dict LIMIT 1))"))).getMessage().contains("longer than 16384"));
    }

    @Test
    void anAutoTableRoutesByItsAlgorithmToTheTableAndSoToItsDataSource() {
        // t_auto: MOD 4 over ds_0, ds_1 in turn: t_auto_0 and t_auto_2 on ds_0, t_auto_1 and t_auto_3 on ds_1
        assertEquals(List.of("ds_1: SELECT * FROM `t_auto_1` WHERE id = 5"),
                units(route("SELECT * FROM t_auto WHERE id = 5")));
        assertEquals(List.of("ds_0: SELECT * FROM `t_auto_2` WHERE id = ? [6]"),
                units(route("SELECT * FROM t_auto WHERE id = ?", 6)));
        assertEquals(java.util.Set.of("ds_0: SELECT v FROM `t_auto_0`", "ds_0: SELECT v FROM `t_auto_2`",
                "ds_1: SELECT v FROM `t_auto_1`", "ds_1: SELECT v FROM `t_auto_3`"),
                java.util.Set.copyOf(units(route("SELECT v FROM t_auto"))));
        assertEquals(java.util.Set.of("ds_0: INSERT INTO `t_auto_0` (id, v) VALUES (4, 'd')",
                "ds_1: INSERT INTO `t_auto_1` (id, v) VALUES (1, 'a'), (5, 'e')"),
                java.util.Set.copyOf(units(route("INSERT INTO t_auto (id, v) VALUES (1, 'a'), (4, 'd'), (5, 'e')"))));
    }

    @Test
    void anAuditedTableRefusesStatementsThatWouldReachEveryShard() {
        for (String sql : List.of("SELECT * FROM t_audit", "SELECT * FROM t_audit WHERE id = 1 OR v = 'x'",
                "UPDATE t_audit SET v = 'y'", "DELETE FROM t_audit WHERE v = 'x'")) {
            RouteException refused = assertThrows(RouteException.class, () -> route(sql), sql);
            assertTrue(refused.getMessage().contains("auditor sharding_key_required of t_audit "
                    + "(DML_SHARDING_CONDITIONS): a statement without a condition on the sharding columns [id]"),
                    refused.getMessage());
        }
        assertEquals(List.of("ds_1: (own)"), units(route("SELECT * FROM t_audit WHERE id = 1")));
        assertEquals(2, route("SELECT * FROM t_audit WHERE id IN (1, 2) OR id > 7").units().size(),
                "every branch bounds id");
        assertEquals(1, route("INSERT INTO t_audit (id, v) VALUES (1, 'a')").units().size());
        // the hint lets a deliberate scan through
        assertEquals(2, route("/* SHARDINGSPHERE_HINT: DISABLE_AUDIT_NAMES=sharding_key_required */ "
                + "SELECT * FROM t_audit").units().size());
    }

    @Test
    void aHintStrategyTakesItsValueFromTheLeadingHintComment() {
        // t_hint: its data source is ds_${value % 2} of the hint's SHARDING_DATABASE_VALUE
        assertEquals(List.of("ds_1: (own)"), units(route("/* SHARDINGSPHERE_HINT: t_hint.SHARDING_DATABASE_VALUE=3 */ "
                + "SELECT * FROM t_hint WHERE v = 'x'")));
        assertEquals(List.of("ds_0: (own)"), units(route("/* SHARDINGSPHERE_HINT: SHARDING_DATABASE_VALUE=2 */ "
                + "UPDATE t_hint SET v = 'y'")), "a value for every table");
        assertEquals(List.of("ds_1: (own)"), units(route("/* strata: t_hint.sharding_database_value=5 */ "
                + "INSERT INTO t_hint (id, v) VALUES (1, 'a'), (2, 'b')")), "every row where the hint says");
        assertEquals(2, route("SELECT * FROM t_hint").units().size(), "no hint: every data source");
        RouteException refused = assertThrows(RouteException.class,
                () -> route("INSERT INTO t_hint (id, v) VALUES (1, 'a')"));
        assertTrue(refused.getMessage().contains("belongs to 2 nodes"), refused.getMessage());
    }

    @Test
    void ddlRunsOnEveryNode() {
        // an index is named per actual table, as ShardingSphere names it
        assertEquals(List.of("ds_0: CREATE INDEX `i_t_order_0` ON `t_order_0` (status)",
                        "ds_0: CREATE INDEX `i_t_order_1` ON `t_order_1` (status)",
                        "ds_1: CREATE INDEX `i_t_order_0` ON `t_order_0` (status)",
                        "ds_1: CREATE INDEX `i_t_order_1` ON `t_order_1` (status)"),
                units(route("CREATE INDEX i ON t_order (status)")));
    }

    @Test
    void aStatementBeingPreparedGoesToTheFirstNode() {
        RouteResult route = CHAIN.route(new StatementContext("shop", SqlClassifier.classify(
                "SELECT * FROM t_order WHERE user_id = ?"), false, Map.of(), false, new SessionRouteState(),
                List::of, true));
        assertEquals(List.of("ds_0: SELECT * FROM `t_order_0` WHERE user_id = ?"), units(route));
    }

    @Test
    void describingALogicalTableAsksItsFirstNode() {
        assertEquals(List.of("ds_0: DESCRIBE `t_order_0`"), units(route("DESCRIBE t_order")));
        assertEquals(List.of("ds_0: SHOW FULL COLUMNS FROM `t_order_0`"), units(route("SHOW FULL COLUMNS FROM t_order")));
        assertEquals(List.of("ds_0: SHOW CREATE TABLE `t_order_0`"), units(route("SHOW CREATE TABLE `t_order`")));
    }

    @Test
    void showTablesSpeaksOfLogicalTables() {
        String sql = route("SHOW TABLES").first().sql();
        assertTrue(sql.contains("table_name NOT IN ('t_order_0', 't_order_1', 't_order_0', 't_order_1', "
                + "'t_order_item_0'"), sql);
        assertTrue(sql.contains("UNION ALL SELECT 't_order', 'BASE TABLE'"), sql);
        assertTrue(sql.startsWith("SELECT n AS `Tables_in_shop` FROM"), sql);
        assertTrue(route("SHOW FULL TABLES LIKE 't%'").first().sql().contains("WHERE n LIKE 't%' ORDER BY n"));
    }

    @Test
    void tablesTheRuleDoesNotShardAreLeftAlone() {
        assertEquals(List.of("ds_0: (own)"), units(route("SELECT * FROM t_other WHERE id = 1")));
        assertFalse(route("SELECT * FROM t_dict").units().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM t_order o JOIN sbtest1 s ON o.order_id = s.id|not bound",
            "SELECT * FROM t_order o JOIN t_other x ON o.order_id = x.id|neither sharded nor broadcast",
            "UPDATE t_order SET user_id = 2 WHERE order_id = 1|sharding column user_id",
            "UPDATE t_order SET status = 'x' LIMIT 1|LIMIT",
            "DELETE FROM t_order ORDER BY order_id LIMIT 1|LIMIT",
            "INSERT INTO t_order (order_id, user_id) VALUES (1, NULL)|NULL",
            "INSERT INTO t_order (order_id, user_id) VALUES (1, 1 + 1)|given as",
            "INSERT INTO t_order (order_id, status) VALUES (1, 'x')|without its sharding column user_id",
            "INSERT INTO t_order SELECT * FROM t_order_item|INSERT",
            "INSERT INTO t_order (order_id, user_id) VALUES (1, 1) ON DUPLICATE KEY UPDATE user_id = 2|user_id",
            "SELECT * FROM t_order WHERE order_id IN (SELECT order_id FROM t_order_item)|not joined on equal",
            "SELECT * FROM t_order o WHERE EXISTS (SELECT 1 FROM t_order_item i WHERE i.order_id = o.order_id "
                    + "AND i.user_id = o.user_id)|subquery",
            "SELECT order_id FROM t_order UNION SELECT order_id FROM t_order_item|UNION",
            "SELECT COUNT(DISTINCT user_id, status) FROM t_order|several expressions",
            "SELECT SUM(amount) / 2 FROM t_order|inside an expression",
            "SELECT user_id, GROUP_CONCAT(status) g FROM t_order GROUP BY user_id ORDER BY g|ORDER BY on a GROUP_CONCAT",
            "SELECT user_id FROM t_order GROUP BY user_id HAVING GROUP_CONCAT(status) = 'a'|HAVING on a GROUP_CONCAT",
            "SELECT GROUP_CONCAT(DISTINCT status ORDER BY amount) FROM t_order|which it does not list",
            "SELECT GROUP_CONCAT(status SEPARATOR '\\n') FROM t_order|plain quoted string",
            "SELECT CONCAT('x', GROUP_CONCAT(status)) FROM t_order|inside an expression",
            "SELECT user_id, COUNT(*) FROM t_order GROUP BY user_id WITH ROLLUP|ROLLUP",
            "SELECT *, COUNT(*) FROM t_order GROUP BY user_id|after *",
            "SELECT * FROM t_order WHERE order_id > 5|allow-range-query-with-inline-sharding",
            "SELECT 1 FROM t_order; SELECT 2|several statements"})
    void whatCannotBeAnsweredExactlyIsRefusedSayingWhy(String example) {
        String[] parts = example.split("\\|");
        RouteException refused = assertThrows(RouteException.class, () -> route(parts[0]));
        assertEquals(1235, refused.errorCode());
        assertTrue(refused.getMessage().contains(parts[1]), refused.getMessage());
    }
}
