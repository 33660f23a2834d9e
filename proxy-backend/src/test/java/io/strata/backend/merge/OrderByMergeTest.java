package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.protocol.ColumnType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ServerStatus;
import io.strata.rule.QueryMerge;
import io.strata.rule.ResultMerge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static io.strata.backend.merge.TestRows.asc;
import static io.strata.backend.merge.TestRows.binary;
import static io.strata.backend.merge.TestRows.byWeight;
import static io.strata.backend.merge.TestRows.column;
import static io.strata.backend.merge.TestRows.desc;
import static io.strata.backend.merge.TestRows.orderBy;
import static io.strata.backend.merge.TestRows.string;
import static io.strata.backend.merge.TestRows.text;
import static io.strata.backend.merge.TestRows.weight;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ORDER BY and LIMIT over several units: each unit's rows come sorted, the merge interleaves them. */
class OrderByMergeTest {

    private final Buffers buffers = new Buffers();

    @AfterEach
    void everyPacketIsReleased() {
        buffers.assertAllReleased();
    }

    private static QueryResult merged(QueryMerge query, FakeUnit... units) {
        List<UnitAnswer> answers = new ArrayList<>();
        for (int i = 0; i < units.length; i++) {
            answers.add(new UnitAnswer("ds_" + i, units[i]));
        }
        return assertInstanceOf(MergedQueryResult.class,
                ResultMerger.merge(answers, ResultMerge.CONCATENATE, query, MemoryBound.DEFAULT));
    }

    /** The values of a text-protocol row of small values, as "1|b|NULL". */
    private static String values(String hex) {
        List<String> values = new ArrayList<>();
        byte[] bytes = HexFormat.of().parseHex(hex);
        for (int i = 0; i < bytes.length; ) {
            int length = bytes[i] & 0xFF;
            values.add(length == 0xFB ? "NULL" : new String(bytes, i + 1, length));
            i += length == 0xFB ? 1 : 1 + length;
        }
        return String.join("|", values);
    }

    private static List<String> values(List<String> rows) {
        return rows.stream().map(OrderByMergeTest::values).toList();
    }

    @Test
    void textRowsMergeAsOneServerSortsThemAndLoseTheirWeightColumn() throws InterruptedException {
        FakeUnit[] units = new FakeUnit[3];
        for (int i = 0; i < 3; i++) {
            units[i] = FakeUnit.withColumns(MariaDbRows.ORDERED_COLUMNS).text(buffers, MariaDbRows.ORDERED_TEXT[i]);
        }
        // ORDER BY grp (by its weight: 'A' and 'a' are equal in utf8mb4_general_ci), id
        QueryResult merged = merged(orderBy(6, List.of(byWeight(1, 6), asc(0)), 0, -1), units);

        assertEquals(6, merged.columns().size());
        assertEquals(MariaDbRows.ORDERED_COLUMNS.subList(0, 6),
                merged.columnPackets().stream().map(HexFormat.of()::formatHex).toList());
        assertEquals(MariaDbRows.ORDERED_TEXT_EXPECTED, Client.packets(merged));
    }

    @Test
    void binaryRowsKeepTheirProtocolAndGetANullBitmapForTheirVisibleColumns() throws InterruptedException {
        FakeUnit[] units = new FakeUnit[3];
        for (int i = 0; i < 3; i++) {
            units[i] = FakeUnit.withColumns(MariaDbRows.ORDERED_COLUMNS)
                    .binary(buffers, MariaDbRows.ORDERED_BINARY[i]);
        }
        // seven columns take two bitmap bytes, six take one
        QueryResult merged = merged(orderBy(6, List.of(byWeight(1, 6), asc(0)), 0, -1), units);

        assertEquals(MariaDbRows.ORDERED_BINARY_EXPECTED.stream().map(row -> "binary:" + row).toList(),
                Client.packets(merged));
    }

    @Test
    void binaryRowsWhoseBitmapFitsAreCutAndAHiddenNullIsClearedFromIt() throws InterruptedException {
        List<ColumnMetadata> columns = List.of(column("id", ColumnType.LONG), string("name"), weight("name"));
        FakeUnit first = FakeUnit.withColumns(columns.toArray(ColumnMetadata[]::new));
        first.binary(buffers, binary(columns, 1, "a", new byte[] {0, 'A'}), binary(columns, 2, null, null));
        FakeUnit second = FakeUnit.withColumns(columns.toArray(ColumnMetadata[]::new))
                .binary(buffers, binary(columns, 3, "b", new byte[] {0, 'B'}));

        QueryResult merged = merged(orderBy(2, List.of(asc(0)), 0, -1), first, second);

        List<ColumnMetadata> visible = columns.subList(0, 2);
        assertEquals(List.of("binary:" + binary(visible, 1, "a"), "binary:" + binary(visible, 2, null),
                "binary:" + binary(visible, 3, "b")), Client.packets(merged));
    }

    @Test
    void descendingKeysPutNullLastAndAscendingOnesFirst() throws InterruptedException {
        ColumnMetadata[] columns = {column("k", ColumnType.LONG), column("id", ColumnType.LONGLONG)};
        // ORDER BY k DESC, id: each unit's rows come in that order
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text(7, 1), text(7, 4), text(null, 2));
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text(10, 3), text(7, 2), text(-2, 9));
        assertEquals(List.of("10|3", "7|1", "7|2", "7|4", "-2|9", "NULL|2"),
                values(Client.packets(merged(orderBy(2, List.of(desc(0), asc(1)), 0, -1), first, second))));

        FakeUnit third = FakeUnit.withColumns(columns).text(buffers, text(null, 5), text(3, 1));
        FakeUnit fourth = FakeUnit.withColumns(columns).text(buffers, text(null, 1), text(-4, 8));
        assertEquals(List.of("NULL|1", "NULL|5", "-4|8", "3|1"),
                values(Client.packets(merged(orderBy(2, List.of(asc(0), asc(1)), 0, -1), third, fourth))));
    }

    @Test
    void numbersCompareByValueNotByText() throws InterruptedException {
        ColumnMetadata[] columns = {column("d", ColumnType.NEWDECIMAL, 0, 2), column("g", ColumnType.DOUBLE, 0, 31),
                column("u", ColumnType.LONGLONG, ColumnType.FLAG_UNSIGNED, 0)};
        FakeUnit decimals = FakeUnit.withColumns(columns).text(buffers,
                text("-10.00", "1e-5", "1"), text("-9.50", "2.5", "9223372036854775808"));
        FakeUnit others = FakeUnit.withColumns(columns).text(buffers,
                text("-9.75", "0.5", "18446744073709551615"), text("9.50", "-1e20", "2"), text("10.25", "1e20", "0"));

        assertEquals(List.of("-10.00|1e-5|1", "-9.75|0.5|18446744073709551615", "-9.50|2.5|9223372036854775808",
                "9.50|-1e20|2", "10.25|1e20|0"),
                values(Client.packets(merged(orderBy(3, List.of(asc(0)), 0, -1), decimals, others))));

        FakeUnit byDouble = FakeUnit.withColumns(columns).text(buffers, text("1", "-1e20", "5"),
                text("2", "1e-5", "3"));
        FakeUnit byDoubleToo = FakeUnit.withColumns(columns).text(buffers, text("3", "0.5", "4"),
                text("4", "1e20", "1"));
        assertEquals(List.of("1|-1e20|5", "2|1e-5|3", "3|0.5|4", "4|1e20|1"),
                values(Client.packets(merged(orderBy(3, List.of(asc(1)), 0, -1), byDouble, byDoubleToo))));

        FakeUnit unsigned = FakeUnit.withColumns(columns).text(buffers, text("1", "1", "2"),
                text("2", "2", "18446744073709551615"));
        FakeUnit unsignedToo = FakeUnit.withColumns(columns).text(buffers, text("3", "3", "9223372036854775808"));
        assertEquals(List.of("1|1|2", "3|3|9223372036854775808", "2|2|18446744073709551615"),
                values(Client.packets(merged(orderBy(3, List.of(asc(2)), 0, -1), unsigned, unsignedToo))));
    }

    @Test
    void datesCompareByTheirFieldsAndTimesAsSignedDurations() throws InterruptedException {
        ColumnMetadata[] columns = {column("at", ColumnType.DATETIME, 0, 6), column("took", ColumnType.TIME)};
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text("2023-12-31 23:59:59.5", "-838:59:59"),
                text("2024-01-02 03:04:05", "-01:00:00"));
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text("2023-12-31 23:59:59.25", "00:00:01"),
                text("2024-01-02 03:04:05.000001", "100:00:00"));

        assertEquals(List.of("2023-12-31 23:59:59.25|00:00:01", "2023-12-31 23:59:59.5|-838:59:59",
                "2024-01-02 03:04:05|-01:00:00", "2024-01-02 03:04:05.000001|100:00:00"),
                values(Client.packets(merged(orderBy(2, List.of(asc(0)), 0, -1), first, second))));

        FakeUnit third = FakeUnit.withColumns(columns).text(buffers, text("x", "-838:59:59"), text("y", "-01:00:00"),
                text("z", "99:00:00"));
        FakeUnit fourth = FakeUnit.withColumns(columns).text(buffers, text("w", "-02:00:00"), text("v", "100:00:00"));
        assertEquals(List.of("x|-838:59:59", "w|-02:00:00", "y|-01:00:00", "z|99:00:00", "v|100:00:00"),
                values(Client.packets(merged(orderBy(2, List.of(asc(1)), 0, -1), third, fourth))));
    }

    @Test
    void stringsWithoutAWeightCompareByTheirBytesUnsigned() throws InterruptedException {
        ColumnMetadata[] columns = {string("name")};
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text("B"), text("a"), text("é"));
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text("Ab"), text("ab"), text("abcdefghijk"));

        assertEquals(List.of("Ab", "B", "a", "ab", "abcdefghijk", "é"),
                values(Client.packets(merged(orderBy(1, List.of(asc(0)), 0, -1), first, second))));
    }

    @Test
    void limitAndOffsetApplyAfterTheMergeAndTheRestIsReadForTheStatus() throws InterruptedException {
        ColumnMetadata[] columns = {column("id", ColumnType.LONG)};
        // LIMIT 2, 3: each unit was asked for its first 5 rows
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text(1), text(4), text(5), text(8), text(9))
                .status(ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS, 1);
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text(2), text(3), text(6), text(7), text(10))
                .status(ServerStatus.AUTOCOMMIT, 2);

        QueryResult merged = merged(orderBy(1, List.of(asc(0)), 2, 3), first, second);

        assertEquals(List.of("3", "4", "5"), values(Client.packets(merged)));
        assertEquals(5, first.taken, "read to its end once the merge needed no more");
        assertEquals(5, second.taken);
        assertEquals(ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS, merged.statusFlags(),
                "the last unit's status, in a transaction when any unit is");
        assertEquals(3, merged.warnings());
        assertTrue(first.closed && second.closed);
    }

    @Test
    void withoutAnOrderTheUnitsAreConcatenatedAndLimited() throws InterruptedException {
        ColumnMetadata[] columns = {column("id", ColumnType.LONG), column("hidden", ColumnType.LONG)};
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text(5, 0), text(1, 0));
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text(3, 0), text(2, 0));

        assertEquals(List.of("1", "3"), values(Client.packets(merged(orderBy(1, List.of(), 1, 2), first, second))));
    }

    @Test
    void aUnitFailingPartWayFailsTheMergeAndEveryRowHeldIsReleased() {
        ColumnMetadata[] columns = {column("id", ColumnType.LONG)};
        ErrPacket lost = new ErrPacket(1430, "HY000", "Lost connection to backend data source 'ds_1'");
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text(1), text(3), text(5));
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text(2)).failing(new ResultException(lost));

        QueryResult merged = merged(orderBy(1, List.of(asc(0)), 0, -1), first, second);

        ResultException failure = assertThrows(ResultException.class, () -> Client.packets(merged));
        assertEquals(lost, failure.error());
        assertTrue(first.closed && second.closed);
    }

    @Test
    void withoutAQueryMergeResultSetsAreConcatenatedAsBefore() throws InterruptedException {
        ColumnMetadata[] columns = {column("id", ColumnType.LONG)};
        FakeUnit first = FakeUnit.withColumns(columns).text(buffers, text(2));
        FakeUnit second = FakeUnit.withColumns(columns).text(buffers, text(1));

        QueryResult concatenated = assertInstanceOf(QueryResult.class, ResultMerger.merge(List.of(
                new UnitAnswer("ds_0", first), new UnitAnswer("ds_1", second)), ResultMerge.CONCATENATE, null,
                MemoryBound.DEFAULT));

        assertEquals(List.of("2", "1"), values(Client.packets(concatenated)));
    }
}
