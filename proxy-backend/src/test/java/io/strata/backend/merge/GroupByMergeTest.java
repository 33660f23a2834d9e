package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.protocol.ColumnType;
import io.strata.protocol.MySQLBuf;
import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.Aggregation;
import io.strata.rule.QueryMerge.Function;
import io.strata.rule.QueryMerge.Having;
import io.strata.rule.QueryMerge.Operand;
import io.strata.rule.QueryMerge.SortKey;
import io.strata.rule.ResultMerge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static io.strata.backend.merge.TestRows.asc;
import static io.strata.backend.merge.TestRows.byWeight;
import static io.strata.backend.merge.TestRows.column;
import static io.strata.backend.merge.TestRows.desc;
import static io.strata.backend.merge.TestRows.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * GROUP BY and aggregates over several units: each unit aggregates its own rows, the merge combines the units'
 * aggregates per group and writes each group's row exactly as one MariaDB writes it.
 */
class GroupByMergeTest {

    /**
     * {@code SELECT grp, COUNT(*), SUM(k), AVG(k), SUM(d), AVG(d), MIN(k), MAX(g) ... GROUP BY grp}, the units
     * ordered by the group's weight (column 12); AVG(k) is made of the derived SUM(k) and COUNT(k) (8, 9), AVG(d)
     * of SUM(d) and COUNT(d) (10, 11).
     */
    private static final List<Aggregation> ORDERS_AGGREGATES = List.of(Aggregation.of(1, Function.COUNT),
            Aggregation.of(2, Function.SUM), new Aggregation(3, Function.AVG, 8, 9, -1),
            Aggregation.of(4, Function.SUM), new Aggregation(5, Function.AVG, 10, 11, -1),
            Aggregation.of(6, Function.MIN), Aggregation.of(7, Function.MAX));
    private static final List<SortKey> BY_GROUP = List.of(byWeight(0, 12));

    private final Buffers buffers = new Buffers();

    @AfterEach
    void everyPacketIsReleased() {
        buffers.assertAllReleased();
    }

    private static QueryMerge groupBy(List<SortKey> unitOrder, boolean groupsSorted, Having having,
                                      List<SortKey> resultOrder, long offset, long limit) {
        return new QueryMerge(8, unitOrder, true, BY_GROUP, groupsSorted, ORDERS_AGGREGATES, having, false,
                resultOrder, offset, limit);
    }

    private static QueryResult merged(QueryMerge query, MemoryBound bound, FakeUnit... units) {
        List<UnitAnswer> answers = new ArrayList<>();
        for (int i = 0; i < units.length; i++) {
            answers.add(new UnitAnswer("ds_" + i, units[i]));
        }
        return assertInstanceOf(MergedQueryResult.class,
                ResultMerger.merge(answers, ResultMerge.CONCATENATE, query, bound));
    }

    private FakeUnit[] textUnits(List<String> columns, String[][] rows) {
        FakeUnit[] units = new FakeUnit[rows.length];
        for (int i = 0; i < rows.length; i++) {
            units[i] = FakeUnit.withColumns(columns).text(buffers, rows[i]);
        }
        return units;
    }

    private FakeUnit[] ordersInText() {
        return textUnits(MariaDbRows.GROUPED_COLUMNS, MariaDbRows.GROUPED_TEXT);
    }

    @Test
    void groupsComingInOrderAreMergedAsTheyStreamIntoMariaDbsOwnTextRows() throws InterruptedException {
        QueryResult merged = merged(groupBy(BY_GROUP, true, null, List.of(), 0, -1), MemoryBound.DEFAULT,
                ordersInText());

        // COUNT a BIGINT, SUM(k) a DECIMAL of 0 decimals, AVG(k) of 4, SUM(d) of 2, AVG(d) of 6, MIN(k) and MAX(g)
        // as the unit that had them sent them ("1e20")
        assertEquals(MariaDbRows.GROUPED_TEXT_EXPECTED, Client.packets(merged));
    }

    @Test
    void binaryRowsAreMadeInTheBinaryProtocol() throws InterruptedException {
        FakeUnit[] units = new FakeUnit[3];
        for (int i = 0; i < 3; i++) {
            units[i] = FakeUnit.withColumns(MariaDbRows.GROUPED_COLUMNS).binary(buffers, MariaDbRows.GROUPED_BINARY[i]);
        }

        QueryResult merged = merged(groupBy(BY_GROUP, true, null, List.of(), 0, -1), MemoryBound.DEFAULT, units);

        assertEquals(MariaDbRows.GROUPED_BINARY_EXPECTED.stream().map(row -> "binary:" + row).toList(),
                Client.packets(merged));
    }

    @Test
    void groupsInAnyOrderAreGatheredInMemoryAndGivenInTheOrderTheyShowed() throws InterruptedException {
        // the units concatenated: A b | a B c | b C
        QueryResult merged = merged(groupBy(List.of(), false, null, List.of(), 0, -1), MemoryBound.DEFAULT,
                ordersInText());

        assertEquals(MariaDbRows.GROUPED_TEXT_EXPECTED, Client.packets(merged));
    }

    @Test
    void moreGroupsThanTheMemoryBoundFailTheStatementSayingWhatToRaise() {
        QueryResult merged = merged(groupBy(List.of(), false, null, List.of(), 0, -1),
                new MemoryBound(2, "server.mergeMemoryRows"), ordersInText());

        ResultException failure = assertThrows(ResultException.class, () -> Client.packets(merged));
        assertEquals(1038, failure.error().errorCode());
        assertEquals("The merge of this statement needs more than 2 rows in memory (raise server.mergeMemoryRows)",
                failure.error().message());
    }

    @Test
    void havingKeepsTheGroupsWhoseConditionIsTrue() throws InterruptedException {
        // groups: A (COUNT 3, SUM(k) 12, SUM(d) 102.50), b (3, 19, -1.85), c (2, 25, 7.82)
        Having countAtLeastThree = new Having.Compare(1, ">=", new Operand.Literal(3L));
        Having sumOfDPositive = new Having.Compare(4, ">", new Operand.Literal(BigDecimal.ZERO));
        Having sumOfKOver15 = new Having.Compare(2, ">", new Operand.Literal(15L));

        assertEquals(List.of(MariaDbRows.GROUPED_TEXT_EXPECTED.get(0)), Client.packets(merged(groupBy(BY_GROUP,
                true, new Having.And(List.of(countAtLeastThree, sumOfDPositive)), List.of(), 0, -1),
                MemoryBound.DEFAULT, ordersInText())));
        assertEquals(MariaDbRows.GROUPED_TEXT_EXPECTED.subList(1, 3), Client.packets(merged(groupBy(BY_GROUP, true,
                new Having.Or(List.of(new Having.Not(sumOfDPositive), sumOfKOver15)), List.of(), 0, -1),
                MemoryBound.DEFAULT, ordersInText())));
        assertEquals(List.of(MariaDbRows.GROUPED_TEXT_EXPECTED.get(2)), Client.packets(merged(groupBy(BY_GROUP,
                true, new Having.Compare(6, ">", new Operand.Column(1)), List.of(), 0, -1),
                MemoryBound.DEFAULT, ordersInText())), "MIN(k) > COUNT(*)");
        assertEquals(List.of(), Client.packets(merged(groupBy(BY_GROUP, true,
                new Having.Not(new Having.Compare(1, "=", new Operand.Literal(null))), List.of(), 0, -1),
                MemoryBound.DEFAULT, ordersInText())), "NOT (x = NULL) is unknown: no group");
    }

    @Test
    void anOrderByAnAggregateSortsTheGroupsInMemoryThenTheLimitApplies() throws InterruptedException {
        List<String> groups = MariaDbRows.GROUPED_TEXT_EXPECTED;

        // ORDER BY SUM(k) DESC: c (25), b (19), A (12)
        assertEquals(List.of(groups.get(2), groups.get(1), groups.get(0)), Client.packets(merged(groupBy(BY_GROUP,
                true, null, List.of(desc(2)), 0, -1), MemoryBound.DEFAULT, ordersInText())));
        // ORDER BY SUM(k) DESC LIMIT 1, 1
        assertEquals(List.of(groups.get(1)), Client.packets(merged(groupBy(BY_GROUP, true, null, List.of(desc(2)),
                1, 1), MemoryBound.DEFAULT, ordersInText())));
        // ORDER BY AVG(d): b (-0.925), c (3.91), A (51.25); a bound of 2 rows is enough for LIMIT 2
        assertEquals(List.of(groups.get(1), groups.get(2)), Client.packets(merged(groupBy(BY_GROUP, true, null,
                List.of(asc(5)), 0, 2), new MemoryBound(2, "server.mergeMemoryRows"), ordersInText())));
        // but not for all three
        QueryResult unbounded = merged(groupBy(BY_GROUP, true, null, List.of(asc(5)), 0, -1),
                new MemoryBound(2, "server.mergeMemoryRows"), ordersInText());
        assertEquals(1038, assertThrows(ResultException.class, () -> Client.packets(unbounded)).error().errorCode());
    }

    @Test
    void distinctAggregatesCountEachValueOnceAcrossUnits() throws InterruptedException {
        // SELECT grp, COUNT(DISTINCT k), SUM(DISTINCT k), AVG(DISTINCT k) ... GROUP BY grp: each unit lists the
        // distinct k of each of its groups (column 4); k = 1 of group 'a' is in two units
        QueryMerge query = new QueryMerge(4, List.of(byWeight(0, 5)), true, List.of(byWeight(0, 5)), true,
                List.of(new Aggregation(1, Function.COUNT_DISTINCT, 4, -1, -1),
                        new Aggregation(2, Function.SUM_DISTINCT, 4, -1, -1),
                        new Aggregation(3, Function.AVG_DISTINCT, 4, -1, -1)),
                null, false, List.of(), 0, -1);

        assertEquals(MariaDbRows.DISTINCT_TEXT_EXPECTED, Client.packets(merged(query, MemoryBound.DEFAULT,
                textUnits(MariaDbRows.DISTINCT_COLUMNS, MariaDbRows.DISTINCT_TEXT))));
    }

    @Test
    void distinctStringsAreToldEqualByTheirWeights() throws InterruptedException {
        // SELECT COUNT(DISTINCT grp): each unit lists its groups' values with their weights; 'A' and 'a' are one
        List<String> columns = List.of(
                "0364656600000013636f756e742864697374696e63742067727029000c3f0015000000080100000000",
                "036465660474657374066f7264657273066f726465727303677270036772700c2d0028000000fd0000000000",
                "03646566000000127765696768745f737472696e672867727029000c3f0014000000fd8000000000");
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, "01310141020041", "01310162020042");
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, "01310161020041", "01310162020042",
                "01310163020043");
        QueryMerge query = new QueryMerge(1, List.of(byWeight(1, 2)), true, List.of(), false,
                List.of(new Aggregation(0, Function.COUNT_DISTINCT, 1, -1, 2)), null, false, List.of(), 0, -1);

        assertEquals(List.of("0133"), Client.packets(merged(query, MemoryBound.DEFAULT, first, second)), "3");
    }

    @Test
    void anAggregateWithoutGroupByIsOneRowEvenOverNoRows() throws InterruptedException {
        // SELECT COUNT(*), SUM(k), MIN(k), AVG(k), COUNT(DISTINCT k) where no unit has a row to show
        ColumnMetadata[] columns = {column("count(*)", ColumnType.LONGLONG), column("sum(k)", ColumnType.NEWDECIMAL),
                column("min(k)", ColumnType.LONG), column("avg(k)", ColumnType.NEWDECIMAL, 0, 4),
                column("count(distinct k)", ColumnType.LONGLONG), column("k", ColumnType.LONG),
                column("count(k)", ColumnType.LONGLONG)};
        QueryMerge query = new QueryMerge(5, List.of(), true, List.of(), false, List.of(
                Aggregation.of(0, Function.COUNT), Aggregation.of(1, Function.SUM), Aggregation.of(2, Function.MIN),
                new Aggregation(3, Function.AVG, 1, 6, -1), new Aggregation(4, Function.COUNT_DISTINCT, 5, -1, -1)),
                null, false, List.of(), 0, -1);

        assertEquals(List.of(text(0, null, null, null, 0)), Client.packets(merged(query, MemoryBound.DEFAULT,
                unitWithoutRows(columns), unitWithoutRows(columns))));
    }

    private static FakeUnit unitWithoutRows(ColumnMetadata[] columns) {
        List<String> definitions = new ArrayList<>();
        for (ColumnMetadata column : columns) {
            definitions.add(definition(column));
        }
        return FakeUnit.withColumns(definitions);
    }

    /** A ColumnDefinition41 payload in hex for a column, as a native backend would send it. */
    private static String definition(ColumnMetadata column) {
        ByteBuf out = Unpooled.buffer();
        for (String s : new String[] {"def", column.schema(), column.table(), column.orgTable(), column.name(),
                column.orgName()}) {
            MySQLBuf.writeStringLenenc(out, s);
        }
        out.writeByte(0x0c).writeShortLE(column.collationId()).writeIntLE((int) column.length())
                .writeByte(column.type()).writeShortLE(column.flags()).writeByte(column.decimals()).writeShortLE(0);
        return ByteBufUtil.hexDump(out);
    }
}
