package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.protocol.ColumnType;
import io.strata.rule.QueryMerge;
import io.strata.rule.QueryMerge.Aggregation;
import io.strata.rule.QueryMerge.Concat;
import io.strata.rule.QueryMerge.Function;
import io.strata.rule.ResultMerge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.strata.backend.merge.TestRows.asc;
import static io.strata.backend.merge.TestRows.column;
import static io.strata.backend.merge.TestRows.string;
import static io.strata.backend.merge.TestRows.text;
import static io.strata.backend.merge.TestRows.weight;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GROUP_CONCAT over groups spread across units: each unit lists a group's tuples (the text of the arguments, how many
 * rows each stands for, the ORDER BY key and its weight, its session's group_concat_max_len), and the merge makes the
 * value one server would: ordered, repeated, joined, cut at whole characters.
 */
class GroupConcatMergeTest {

    /**
     * {@code SELECT grp, GROUP_CONCAT(v ORDER BY v DESC SEPARATOR '-') ... GROUP BY grp}: the unit's own GROUP_CONCAT
     * (1, unused), CONCAT(v) (2), COUNT(*) (3), v (4) and its weight (5), @@group_concat_max_len (6).
     */
    private static final ColumnMetadata[] COLUMNS = {string("grp"), string("group_concat(v)"), string("concat(v)"),
            column("count(*)", ColumnType.LONGLONG), string("v"), weight("v"),
            column("@@group_concat_max_len", ColumnType.LONGLONG)};

    private final Buffers buffers = new Buffers();

    @AfterEach
    void everyPacketIsReleased() {
        buffers.assertAllReleased();
    }

    private static QueryMerge groupConcat(Concat concat) {
        return new QueryMerge(2, List.of(asc(0)), true, List.of(asc(0)), true,
                List.of(new Aggregation(1, Function.GROUP_CONCAT, -1, -1, -1, concat)), null, false, List.of(), 0, -1);
    }

    private static Concat descending(String separator, int count) {
        return new Concat(2, count, List.of(new QueryMerge.SortKey(4, true, 5)), List.of(), separator, 6);
    }

    private List<String> merged(QueryMerge query, String[]... units) throws InterruptedException {
        List<UnitAnswer> answers = new ArrayList<>();
        for (int i = 0; i < units.length; i++) {
            answers.add(new UnitAnswer("ds_" + i, FakeUnit.withColumns(COLUMNS).text(buffers, units[i])));
        }
        QueryResult result = assertInstanceOf(MergedQueryResult.class,
                ResultMerger.merge(answers, ResultMerge.CONCATENATE, query, MemoryBound.DEFAULT));
        return Client.packets(result);
    }

    @Test
    void aGroupsTuplesFromEveryUnitAreOrderedRepeatedAndJoined() throws InterruptedException {
        String[] first = {text("a", "?", "b", 2, "b", "b", 1024), text("a", "?", "d", 1, "d", "d", 1024)};
        String[] second = {text("a", "?", "c", 1, "c", "c", 1024), text("b", "?", "z", 1, "z", "z", 1024)};

        assertEquals(List.of(text("a", "d-c-b-b"), text("b", "z")), merged(groupConcat(descending("-", 3)), first,
                second));
    }

    @Test
    void aRowWithANullArgumentIsSkippedAndAGroupOfOnlySuchIsNull() throws InterruptedException {
        String[] first = {text("a", "?", null, 1, null, null, 1024), text("a", "?", "x", 1, "x", "x", 1024)};
        String[] second = {text("b", "?", null, 3, null, null, 1024)};

        assertEquals(List.of(text("a", "x"), text("b", null)), merged(groupConcat(descending(",", 3)), first,
                second));
    }

    @Test
    void underDistinctATupleCountsOnceHoweverManyUnitsListIt() throws InterruptedException {
        // GROUP_CONCAT(DISTINCT v ORDER BY v DESC): no count; tuples told apart by v's weight (5)
        Concat distinct = new Concat(2, -1, List.of(new QueryMerge.SortKey(4, true, 5)), List.of(5), "/", 6);
        String[] first = {text("a", "?", "b", 0, "b", "b", 1024), text("a", "?", "c", 0, "c", "c", 1024)};
        String[] second = {text("a", "?", "B", 0, "B", "b", 1024), text("a", "?", "a", 0, "a", "a", 1024)};

        List<String> rows = merged(groupConcat(distinct), first, second);

        assertEquals(1, rows.size());
        assertTrue(List.of(text("a", "c/b/a"), text("a", "c/B/a")).contains(rows.getFirst()),
                "'B' weighs as 'b': one of the two, as the server keeps one: " + rows);
    }

    @Test
    void theValueIsCutAtTheSessionsLengthOnAWholeCharacter() throws InterruptedException {
        String[] rows = {text("a", "?", "d", 1, "d", "d", 5), text("a", "?", "c", 1, "c", "c", 5),
                text("a", "?", "b", 1, "b", "b", 5)};
        assertEquals(List.of(text("a", "d-c-b")), merged(groupConcat(descending("-", 3)), rows));

        // 'é' is two bytes in UTF-8: "é-é" cut at 4 bytes keeps "é-", not half a character
        String[] accents = {text("a", "?", "é", 2, "é", "e", 4)};
        assertEquals(List.of(text("a", "é-")), merged(groupConcat(descending("-", 3)), accents));
    }
}
