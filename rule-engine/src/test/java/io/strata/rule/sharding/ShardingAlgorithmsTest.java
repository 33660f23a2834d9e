package io.strata.rule.sharding;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

import static io.strata.rule.sharding.ShardingFixture.oneTable;
import static io.strata.rule.sharding.ShardingFixture.tables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each algorithm with {@code =}, IN and ranges, on a table t whose table strategy uses it on column k. Nodes are
 * written "ds.table".
 */
class ShardingAlgorithmsTest {

    private static List<DataNode> nodes(String... names) {
        return Arrays.stream(names).map(n -> new DataNode(n.substring(0, n.indexOf('.')),
                n.substring(n.indexOf('.') + 1))).toList();
    }

    private static List<DataNode> route(ShardingTables tables, UnaryOperator<ShardingConditions> conditions) {
        return tables.nodes(tables.find("t").orElseThrow(), conditions.apply(ShardingConditions.none()));
    }

    private static String refused(ShardingTables tables, UnaryOperator<ShardingConditions> conditions) {
        return assertThrows(ShardingRouteException.class, () -> route(tables, conditions)).reason();
    }

    @Nested
    class Mod {

        private final ShardingTables tables = tables(oneTable("ds_0.t_${0..3}", "MOD", "{ sharding-count: 4 }"));

        @Test
        void sendsAValueToTheTableEndingInItsRemainder() {
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", 5L)));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("K", 13)));
        }

        @Test
        void readsNumbersAsMySqlComparesThemWithAnIntegerColumn() {
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", "5")));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", " +5 ")));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", new BigDecimal("5.0"))));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", "5e0")));
        }

        @Test
        void takesTheNonNegativeRemainderAsShardingSphere() {
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", -3L)));
        }

        @Test
        void sendsAnInListToEachValuesTableInNodeOrder() {
            assertEquals(nodes("ds_0.t_1", "ds_0.t_2"), route(tables, c -> c.withValues("k", List.of(6L, 1L, 9L))));
        }

        @Test
        void sendsARangeToTheTablesOfItsWholeNumbers() {
            assertEquals(nodes("ds_0.t_1", "ds_0.t_2"), route(tables, c -> c.withRange("k",
                    ShardingRange.between(5L, 6L))));
            assertEquals(nodes("ds_0.t_3"), route(tables, c -> c.withRange("k",
                    ShardingRange.between(new BigDecimal("2.5"), 3L))));
            assertEquals(nodes("ds_0.t_3"), route(tables, c -> c.withRange("k", ShardingRange.greaterThan(2L))
                    .withRange("k", ShardingRange.lessThan(4L))));
            assertEquals(nodes(), route(tables, c -> c.withRange("k", ShardingRange.greaterThan(2L))
                    .withRange("k", ShardingRange.lessThan(3L))));
        }

        @Test
        void sendsAWideOrOpenRangeEverywhere() {
            List<DataNode> all = nodes("ds_0.t_0", "ds_0.t_1", "ds_0.t_2", "ds_0.t_3");
            assertEquals(all, route(tables, c -> c.withRange("k", ShardingRange.between(1L, 4L))));
            assertEquals(all, route(tables, c -> c.withRange("k", ShardingRange.atLeast(1L))));
            assertEquals(all, route(tables, c -> c.withRange("k", ShardingRange.all())));
        }

        @Test
        void refusesWhatIsNoWholeNumber() {
            assertEquals("MOD algorithm algo needs a whole number for k of t, got 5.5",
                    refused(tables, c -> c.withValue("k", new BigDecimal("5.5"))));
            assertEquals("MOD algorithm algo needs a whole number for k of t, got 'abc'",
                    refused(tables, c -> c.withValue("k", "abc")));
        }

        @Test
        void refusesAShardNoTableEndsIn() {
            ShardingTables twoTables = tables(oneTable("ds_0.t_${0..1}", "MOD", "{ sharding-count: 4 }"));

            assertEquals("MOD algorithm algo sends k = 7 of t to shard 3, but none of [t_0, t_1] ends in 3",
                    refused(twoTables, c -> c.withValue("k", 7L)));
        }

        @Test
        void matchesShardNumbersByValueSoZeroPaddedNamesWork() {
            ShardingTables padded = tables(oneTable("ds_0.t_${['00', '01', '10', '11']}", "MOD",
                    "{ sharding-count: 12 }"));

            assertEquals(nodes("ds_0.t_01"), route(padded, c -> c.withValue("k", 1L)));
            assertEquals(nodes("ds_0.t_11"), route(padded, c -> c.withValue("k", 11L)));
        }

        @Test
        void cutsTheValueWithStartAndStopOffsets() {
            ShardingTables cut = tables(oneTable("ds_0.t_${0..3}", "MOD",
                    "{ sharding-count: 4, start-offset: 9, stop-offset: 1 }"));

            assertEquals(nodes("ds_0.t_2"), route(cut, c -> c.withValue("k", "20240117_0042x")));
            assertTrue(refused(cut, c -> c.withValue("k", "2024")).contains("has only 4"));
        }
    }

    @Nested
    class HashMod {

        private final ShardingTables tables = tables(oneTable("ds_0.t_${0..3}", "HASH_MOD", "{ sharding-count: 4 }"));

        @Test
        void hashesAsShardingSphereMathAbsOfTheLongHashModCount() {
            long shard = Math.abs((long) "user-42".hashCode()) % 4;

            assertEquals(nodes("ds_0.t_" + shard), route(tables, c -> c.withValue("k", "user-42")));
            assertEquals(nodes("ds_0.t_" + Math.abs((long) Integer.MIN_VALUE) % 4),
                    route(tables, c -> c.withValue("k", (long) Integer.MIN_VALUE)));
        }

        @Test
        void hashesAWholeNumberTheSameWhateverItsJavaType() {
            List<DataNode> expected = nodes("ds_0.t_" + Math.abs((long) Integer.valueOf(-7).hashCode()) % 4);

            assertEquals(expected, route(tables, c -> c.withValue("k", -7)));
            assertEquals(expected, route(tables, c -> c.withValue("k", -7L)));
            assertEquals(expected, route(tables, c -> c.withValue("k", new BigDecimal("-7.00"))));
        }

        @Test
        void sendsARangeEverywhere() {
            assertEquals(4, route(tables, c -> c.withRange("k", ShardingRange.between(1L, 2L))).size());
        }
    }

    @Nested
    class BoundaryRange {

        /** Partitions: below 10, [10, 20), [20, 30), from 30. */
        private final ShardingTables tables = tables(oneTable("ds_0.t_${0..3}", "BOUNDARY_RANGE",
                "{ sharding-ranges: '10,20,30' }"));

        @Test
        void sendsAValueToItsPartition() {
            assertEquals(nodes("ds_0.t_0"), route(tables, c -> c.withValue("k", -5L)));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", 10L)));
            assertEquals(nodes("ds_0.t_2"), route(tables, c -> c.withValue("k", new BigDecimal("29.9"))));
            assertEquals(nodes("ds_0.t_3"), route(tables, c -> c.withValue("k", "30")));
        }

        @Test
        void sendsARangeToThePartitionsItOverlapsOpenEndsRespected() {
            assertEquals(nodes("ds_0.t_1", "ds_0.t_2"), route(tables, c -> c.withRange("k",
                    ShardingRange.between(15L, 25L))));
            assertEquals(nodes("ds_0.t_0"), route(tables, c -> c.withRange("k", ShardingRange.lessThan(10L))));
            assertEquals(nodes("ds_0.t_0", "ds_0.t_1"), route(tables, c -> c.withRange("k",
                    ShardingRange.atMost(10L))));
            assertEquals(nodes("ds_0.t_3"), route(tables, c -> c.withRange("k", ShardingRange.greaterThan(30L))));
        }

        @Test
        void refusesAValueThatIsNoNumber() {
            assertEquals("BOUNDARY_RANGE algorithm algo needs a number for k of t, got 'ten'",
                    refused(tables, c -> c.withValue("k", "ten")));
        }
    }

    @Nested
    class VolumeRange {

        /** Partitions: below 10, [10, 20), [20, 30), [30, 40), [40, 45), from 45. */
        private final ShardingTables tables = tables(oneTable("ds_0.t_${0..5}", "VOLUME_RANGE",
                "{ range-lower: 10, range-upper: 45, sharding-volume: 10 }"));

        @Test
        void sendsAValueToItsVolume() {
            assertEquals(nodes("ds_0.t_0"), route(tables, c -> c.withValue("k", 9L)));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", 10L)));
            assertEquals(nodes("ds_0.t_4"), route(tables, c -> c.withValue("k", 44L)));
            assertEquals(nodes("ds_0.t_5"), route(tables, c -> c.withValue("k", 45L)));
        }

        @Test
        void sendsARangeToTheVolumesItOverlaps() {
            assertEquals(nodes("ds_0.t_2", "ds_0.t_3"), route(tables, c -> c.withRange("k",
                    ShardingRange.between(20L, 39L))));
        }
    }

    @Nested
    class Interval {

        /** A table per month of 2024, t_202401 to t_202412. */
        private final ShardingTables tables = tables(oneTable("ds_0.t_${202401..202412}", "INTERVAL",
                "{ datetime-pattern: 'yyyy-MM-dd HH:mm:ss', datetime-lower: '2024-01-01 00:00:00', "
                        + "datetime-upper: '2024-12-31 23:59:59', sharding-suffix-pattern: yyyyMM, "
                        + "datetime-interval-unit: MONTHS }"));

        @Test
        void sendsATimeToItsMonthsTableWhateverItsForm() {
            List<DataNode> march = nodes("ds_0.t_202403");

            assertEquals(march, route(tables, c -> c.withValue("k", "2024-03-15 10:00:00")));
            assertEquals(march, route(tables, c -> c.withValue("k", LocalDateTime.of(2024, 3, 31, 23, 59))));
            assertEquals(march, route(tables, c -> c.withValue("k", LocalDate.of(2024, 3, 1))));
            assertEquals(march, route(tables, c -> c.withValue("k", "2024-03-15")), "the pattern cut to the text");
            assertEquals(march, route(tables, c -> c.withValue("k", "2024-03-15 10:00:00.123456")));
        }

        @Test
        void sendsARangeToTheMonthsItOverlaps() {
            assertEquals(nodes("ds_0.t_202402", "ds_0.t_202403"), route(tables, c -> c.withRange("k",
                    ShardingRange.atLeast("2024-02-10 00:00:00")).withRange("k",
                    ShardingRange.lessThan("2024-04-01 00:00:00"))));
            assertEquals(nodes("ds_0.t_202402", "ds_0.t_202403", "ds_0.t_202404"), route(tables, c -> c.withRange(
                    "k", ShardingRange.between("2024-02-10 00:00:00", "2024-04-01 00:00:00"))));
            assertEquals(nodes("ds_0.t_202412"), route(tables, c -> c.withRange("k",
                    ShardingRange.greaterThan(LocalDateTime.of(2024, 12, 5, 0, 0)))));
        }

        @Test
        void refusesATimeOutsideItsIntervalsOrNoTimeAtAll() {
            assertTrue(refused(tables, c -> c.withValue("k", "2023-12-31 23:59:59"))
                    .startsWith("INTERVAL algorithm algo has no table for k = '2023-12-31 23:59:59': its intervals "
                            + "run from 2024-01-01T00:00 to before 2025-01-01T00:00"));
            assertEquals("INTERVAL algorithm algo needs a date/time for k of t (datetime-pattern yyyy-MM-dd "
                    + "HH:mm:ss), got 'soon'", refused(tables, c -> c.withValue("k", "soon")));
        }
    }

    @Nested
    class AutoInterval {

        /** Hours after 2024-01-01 00:00:00 up to 03:00: 3 / 1 + 2 = 5 shards. */
        private final ShardingTables tables = tables(oneTable("ds_0.t_${0..4}", "AUTO_INTERVAL",
                "{ datetime-lower: '2024-01-01 00:00:00', datetime-upper: '2024-01-01 03:00:00', "
                        + "sharding-seconds: 3600 }"));

        @Test
        void sendsATimeToTheCeilingOfItsPeriodsAfterLowerAsShardingSphere() {
            assertEquals(nodes("ds_0.t_0"), route(tables, c -> c.withValue("k", "2024-01-01 00:00:00")));
            assertEquals(nodes("ds_0.t_0"), route(tables, c -> c.withValue("k", "2023-06-01 00:00:00")));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", "2024-01-01 00:30:00")));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", "2024-01-01 01:00:00")));
            assertEquals(nodes("ds_0.t_1"), route(tables, c -> c.withValue("k", "2024-01-01 01:00:10")),
                    "1.0028 periods round to 1.00 before the ceiling");
            assertEquals(nodes("ds_0.t_2"), route(tables, c -> c.withValue("k", "2024-01-01 01:01:00")));
            assertEquals(nodes("ds_0.t_4"), route(tables, c -> c.withValue("k", LocalDateTime.of(2025, 1, 1, 0, 0))));
        }

        @Test
        void sendsARangeToTheShardsFromItsLowerToItsUpperEnd() {
            assertEquals(nodes("ds_0.t_1", "ds_0.t_2", "ds_0.t_3"), route(tables, c -> c.withRange("k",
                    ShardingRange.between("2024-01-01 00:30:00", "2024-01-01 02:30:00"))));
            assertEquals(nodes("ds_0.t_3", "ds_0.t_4"), route(tables, c -> c.withRange("k",
                    ShardingRange.atLeast("2024-01-01 02:30:00"))));
        }
    }

    @Nested
    class Inline {

        private final ShardingTables tables = tables(oneTable("ds_0.t_order_${0..1}", "INLINE",
                "{ algorithm-expression: 't_order_${k % 2}' }"));

        @Test
        void sendsAValueToTheTableItsExpressionNames() {
            assertEquals(nodes("ds_0.t_order_1"), route(tables, c -> c.withValue("k", 7L)));
            assertEquals(nodes("ds_0.t_order_0", "ds_0.t_order_1"), route(tables, c -> c.withValues("k",
                    List.of(7L, 8L))));
        }

        @Test
        void refusesARangeUnlessAllowedAsShardingSphere() {
            assertEquals("INLINE algorithm algo cannot route the range k in [1, 5] of t: set "
                    + "allow-range-query-with-inline-sharding: true to send such statements to every shard",
                    refused(tables, c -> c.withRange("k", ShardingRange.between(1L, 5L))));

            ShardingTables allowing = tables(oneTable("ds_0.t_order_${0..1}", "INLINE",
                    "{ algorithm-expression: 't_order_${k % 2}', allow-range-query-with-inline-sharding: true }"));
            assertEquals(2, route(allowing, c -> c.withRange("k", ShardingRange.between(1L, 5L))).size());
        }

        @Test
        void refusesANameThatIsNoTable() {
            assertEquals("INLINE algorithm algo gives t_order_-1 for k = -7 of t, which is not one of "
                    + "[t_order_0, t_order_1]", refused(tables, c -> c.withValue("k", -7L)));
            assertEquals("INLINE algorithm algo cannot compute t_order_${k % 2} for k = 'x': % needs numbers, "
                    + "got 'x'", refused(tables, c -> c.withValue("k", "x")));
        }
    }

    @Nested
    class ComplexInline {

        private final ShardingTables tables = tables("""
                rules:
                  - type: SHARDING
                    tables:
                      t:
                        actualDataNodes: ds_0.t_${0..1}_${0..1}
                        tableStrategy: { complex: { shardingColumns: "a, b", shardingAlgorithmName: algo } }
                    shardingAlgorithms:
                      algo: { type: COMPLEX_INLINE, props: { algorithm-expression: "t_${a % 2}_${b % 2}" } }
                """);

        @Test
        void namesATableForEveryCombinationOfValues() {
            assertEquals(nodes("ds_0.t_0_1", "ds_0.t_1_1"), route(tables, c -> c.withValues("a", List.of(1L, 2L))
                    .withValue("b", 3L)));
        }

        @Test
        void keepsEveryTableWhenAColumnItReadsHasNoValue() {
            assertEquals(4, route(tables, c -> c.withValue("a", 1L)).size());
        }

        @Test
        void refusesARangeUnlessAllowed() {
            assertTrue(refused(tables, c -> c.withValue("a", 1L).withRange("b", ShardingRange.atMost(3L)))
                    .startsWith("COMPLEX_INLINE algorithm algo cannot route the range b in (-inf, 3] of t"));
        }
    }

    @Nested
    class HintInline {

        private final ShardingTables tables = tables("""
                rules:
                  - type: SHARDING
                    tables:
                      t: { actualDataNodes: "ds_${0..1}.t" }
                    defaultDatabaseStrategy: { hint: { shardingAlgorithmName: algo } }
                    shardingAlgorithms:
                      algo: { type: HINT_INLINE, props: { algorithm-expression: "ds_${value % 2}" } }
                """);

        @Test
        void placesByTheHintValueNotTheSql() {
            ShardedTable t = tables.find("t").orElseThrow();

            assertEquals(nodes("ds_1.t"), tables.nodes(t, ShardingConditions.none(),
                    HintValues.none().withDatabaseValue(3L)));
            assertEquals(nodes("ds_0.t", "ds_1.t"), tables.nodes(t, ShardingConditions.none().withValue("k", 3L)),
                    "without a hint every data source");
        }
    }

    @Nested
    class ClassBased {

        @Test
        void usesTheUsersClassForEachStrategyKind() {
            ShardingTables tables = tables("""
                    rules:
                      - type: SHARDING
                        tables:
                          t:
                            actualDataNodes: ds_${0..2}.t_${0..1}
                            databaseStrategy: { hint: { shardingAlgorithmName: by_hint } }
                            tableStrategy: { complex: { shardingColumns: "a,b", shardingAlgorithmName: by_columns } }
                        shardingAlgorithms:
                          by_hint: { type: CLASS_BASED, props: { strategy: HINT, algorithmClassName: %s } }
                          by_columns: { type: CLASS_BASED, props: { strategy: COMPLEX, algorithmClassName: %s } }
                    """.formatted(LastHintTarget.class.getName(), TableOfA.class.getName()));
            ShardedTable t = tables.find("t").orElseThrow();

            assertEquals(nodes("ds_2.t_1"), tables.nodes(t, ShardingConditions.none().withValue("a", 1L),
                    HintValues.none().withDatabaseValue("any")));
        }

        @Test
        void aUserAlgorithmThatFailsOrNamesNoTargetFailsTheStatementNamingIt() {
            ShardingTables tables = tables(oneTable("ds_0.t_${0..1}", "CLASS_BASED",
                    "{ strategy: STANDARD, algorithmClassName: " + Wayward.class.getName() + " }"));

            assertEquals("sharding algorithm algo chose t_9 for t, which is not one of [t_0, t_1]",
                    refused(tables, c -> c.withValue("k", 1L)));
            assertEquals("sharding algorithm algo failed for t: java.lang.IllegalStateException: no ranges here",
                    refused(tables, c -> c.withRange("k", ShardingRange.atLeast(1L))));
        }
    }

    public static final class LastHintTarget implements HintShardingAlgorithm {

        @Override
        public List<String> targets(List<String> targets, HintShardingValues values) {
            return List.of(targets.get(targets.size() - 1));
        }
    }

    /** The table ending in a's value. */
    public static final class TableOfA implements ComplexShardingAlgorithm {

        @Override
        public List<String> targets(List<String> targets, ComplexShardingValues values) {
            if (values.conditions().get("a") instanceof ColumnCondition.Exact exact) {
                return targets.stream().filter(t -> t.endsWith(String.valueOf(exact.values().get(0)))).toList();
            }
            return targets;
        }
    }

    public static final class Wayward implements StandardShardingAlgorithm {

        @Override
        public String target(List<String> targets, ShardingValue value) {
            return "t_9";
        }

        @Override
        public List<String> targets(List<String> targets, RangeShardingValue value) {
            throw new IllegalStateException("no ranges here");
        }
    }
}
