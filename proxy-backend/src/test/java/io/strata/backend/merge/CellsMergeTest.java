package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.protocol.ColumnType;
import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.Aggregation;
import io.strata.rule.QueryMerge.Function;
import io.strata.rule.ResultMerge;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.strata.backend.merge.TestRows.asc;
import static io.strata.backend.merge.TestRows.byWeight;
import static io.strata.backend.merge.TestRows.column;
import static io.strata.backend.merge.TestRows.orderBy;
import static io.strata.backend.merge.TestRows.string;
import static io.strata.backend.merge.TestRows.weight;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * The same merges over a driver's cells (the JDBC executor's rows): text cells for COM_QUERY, Numbers for the
 * numeric columns of COM_STMT_EXECUTE. Group rows come out as cells the frontend encodes in the client's protocol.
 */
class CellsMergeTest {

    /** grp, COUNT(*), SUM(k), AVG(k), SUM(g), then the derived SUM(k), COUNT(k) and WEIGHT_STRING(grp). */
    private static final ColumnMetadata[] COLUMNS = {string("grp"), column("count(*)", ColumnType.LONGLONG),
            column("sum(k)", ColumnType.NEWDECIMAL), column("avg(k)", ColumnType.NEWDECIMAL, 0, 4),
            column("sum(g)", ColumnType.DOUBLE, 0, 31), column("sum(k)", ColumnType.NEWDECIMAL),
            column("count(k)", ColumnType.LONGLONG), weight("grp")};
    private static final QueryMerge GROUP_BY_GRP = new QueryMerge(5, List.of(byWeight(0, 7)), true,
            List.of(byWeight(0, 7)), true, List.of(Aggregation.of(1, Function.COUNT), Aggregation.of(2, Function.SUM),
            new Aggregation(3, Function.AVG, 5, 6, -1), Aggregation.of(4, Function.SUM)), null, false, List.of(),
            0, -1);

    private static QueryResult merged(QueryMerge query, FakeUnit... units) {
        return assertInstanceOf(MergedQueryResult.class, ResultMerger.merge(Arrays.stream(units)
                .map(unit -> new UnitAnswer("ds", unit)).toList(), ResultMerge.CONCATENATE, query,
                MemoryBound.DEFAULT));
    }

    private static Object[] row(Object... values) {
        return values;
    }

    @Test
    void cellsMergeInOrderAndLoseTheirHiddenColumns() throws InterruptedException {
        ColumnMetadata[] columns = {column("id", ColumnType.LONG), string("name"), weight("name")};
        // ORDER BY name, id: a NULL name first
        FakeUnit first = FakeUnit.withColumns(columns).cells(row("1", "b", new byte[] {0, 'B'}),
                row("3", "C", new byte[] {0, 'C'}));
        FakeUnit second = FakeUnit.withColumns(columns).cells(row("4", null, null),
                row("2", "a", new byte[] {0, 'A'}));

        assertEquals(List.of(Arrays.asList("4", null), List.of("2", "a"), List.of("1", "b"), List.of("3", "C")),
                Client.cells(merged(orderBy(2, List.of(byWeight(1, 2), asc(0)), 0, -1), first, second)));
    }

    @Test
    void textCellsOfGroupsBecomeTheTextOneServerWouldSend() throws InterruptedException {
        FakeUnit first = FakeUnit.withColumns(COLUMNS).cells(
                row("A", "2", "11", "11.0000", "0.1", "11", "1", new byte[] {0, 'A'}),
                row("b", "1", "10", "10.0000", "0.2", "10", "1", new byte[] {0, 'B'}));
        FakeUnit second = FakeUnit.withColumns(COLUMNS).cells(
                row("a", "1", "1", "1.0000", "0.2", "1", "1", new byte[] {0, 'A'}),
                row("c", "1", null, null, null, null, "0", new byte[] {0, 'C'}));

        assertEquals(List.of(List.of("A", 3L, "12", "6.0000", "0.30000000000000004"),
                List.of("b", 1L, "10", "10.0000", "0.2"), Arrays.asList("c", 1L, null, null, null)),
                Client.cells(merged(GROUP_BY_GRP, first, second)));
    }

    @Test
    void binaryCellsOfGroupsKeepNumbersWhereTheUnitsGaveNumbers() throws InterruptedException {
        FakeUnit first = FakeUnit.withColumns(COLUMNS).cells(
                row("A", 2L, "11", "11.0000", 0.1, "11", 1L, new byte[] {0, 'A'}),
                row("b", 1L, "10", "10.0000", 0.2, "10", 1L, new byte[] {0, 'B'}));
        FakeUnit second = FakeUnit.withColumns(COLUMNS).cells(
                row("a", 1L, "1", "1.0000", 0.2, "1", 1L, new byte[] {0, 'A'}));

        assertEquals(List.of(List.of("A", 3L, "12", "6.0000", 0.30000000000000004),
                List.of("b", 1L, "10", "10.0000", 0.2)), Client.cells(merged(GROUP_BY_GRP, first, second)));
    }

    @Test
    void selectDistinctDropsRowsEqualToTheOneBefore() throws InterruptedException {
        // SELECT DISTINCT name, n: the units ordered by every visible column
        ColumnMetadata[] columns = {string("name"), column("n", ColumnType.LONG), weight("name")};
        FakeUnit first = FakeUnit.withColumns(columns).cells(row("a", 1L, new byte[] {0, 'A'}),
                row("b", 2L, new byte[] {0, 'B'}));
        FakeUnit second = FakeUnit.withColumns(columns).cells(row("A", 1L, new byte[] {0, 'A'}),
                row("a", 2L, new byte[] {0, 'A'}), row("B", 2L, new byte[] {0, 'B'}));
        QueryMerge distinct = new QueryMerge(2, List.of(byWeight(0, 2), asc(1)), false, List.of(), false, List.of(),
                null, true, List.of(), 0, -1);

        assertEquals(List.of(List.of("a", 1L), List.of("a", 2L), List.of("b", 2L)),
                Client.cells(merged(distinct, first, second)));
    }
}
