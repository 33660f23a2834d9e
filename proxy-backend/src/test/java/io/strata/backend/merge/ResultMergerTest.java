package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.Row;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.ColumnType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ServerStatus;
import io.strata.rule.ResultMerge;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultMergerTest {

    private static final List<ColumnMetadata> COLUMNS = List.of(new ColumnMetadata("shop", "t", "t", "v", "v", 45,
            80, ColumnType.VAR_STRING, 0, 0, null, null, false));

    /** Rows of single cells, then a status and warnings; remembers whether it was closed. */
    private static final class Rows implements QueryResult {
        private final Deque<String> values;
        private final int status;
        private final int warnings;
        boolean closed;

        Rows(int status, int warnings, String... values) {
            this.values = new ArrayDeque<>(List.of(values));
            this.status = status;
            this.warnings = warnings;
        }

        @Override
        public List<ColumnMetadata> columns() {
            return COLUMNS;
        }

        @Override
        public Row next() {
            String value = values.poll();
            return value == null ? null : new Row.Cells(new Object[] {value});
        }

        @Override
        public int statusFlags() {
            return status;
        }

        @Override
        public int warnings() {
            return warnings;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static List<String> pull(QueryResult result) throws InterruptedException {
        List<String> values = new ArrayList<>();
        for (Row row = result.next(); row != null; row = result.next()) {
            values.add((String) ((Row.Cells) row).values()[0]);
        }
        return values;
    }

    @Test
    void resultSetsAreConcatenatedInTheRoutesOrder() throws InterruptedException {
        Result merged = ResultMerger.merge(List.of(new UnitAnswer("ds_0", new Rows(2, 1, "a", "b")),
                new UnitAnswer("ds_1", new Rows(2, 0)), new UnitAnswer("ds_2", new Rows(3, 2, "c"))),
                ResultMerge.CONCATENATE);

        QueryResult rows = assertInstanceOf(QueryResult.class, merged);
        assertEquals(COLUMNS, rows.columns());
        assertEquals(List.of("a", "b", "c"), pull(rows));
        assertEquals(3, rows.statusFlags(), "the last one's status");
        assertEquals(3, rows.warnings(), "every one's warnings");
    }

    @Test
    void updateCountsAreSummedOrOneCopysAndATransactionAnywhereShows() {
        UpdateResult first = new UpdateResult(2, 0, ServerStatus.AUTOCOMMIT, 0, "");
        UpdateResult second = new UpdateResult(3, 17, ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS, 1, "");

        assertEquals(new UpdateResult(5, 17, ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS, 1, ""),
                ResultMerger.merge(List.of(new UnitAnswer("ds_0", first), new UnitAnswer("ds_1", second)),
                        ResultMerge.CONCATENATE));
        assertEquals(new UpdateResult(2, 0, ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS, 0, ""),
                ResultMerger.merge(List.of(new UnitAnswer("ds_0", first), new UnitAnswer("ds_1", second)),
                        ResultMerge.ONE_COPY));
    }

    @Test
    void anErrorKeepsItsCodeAndSaysWhereTheStatementWasApplied() {
        ErrPacket duplicate = new ErrPacket(1062, "23000", "Duplicate entry '7' for key 'PRIMARY'");

        Result merged = ResultMerger.merge(List.of(new UnitAnswer("ds_0", new UpdateResult(1, 0, 2, 0, "")),
                new UnitAnswer("ds_1", new ErrorResult(duplicate)),
                new UnitAnswer("ds_2", new UpdateResult(1, 0, 2, 0, ""))), ResultMerge.ONE_COPY);

        assertEquals(new ErrorResult(new ErrPacket(1062, "23000", "Duplicate entry '7' for key 'PRIMARY' (data "
                + "source ds_1; applied on ds_0, ds_2, not on ds_1)")), merged);
    }

    @Test
    void aFailedUnitClosesTheOthersResultSets() {
        Rows rows = new Rows(2, 0, "a");

        Result merged = ResultMerger.merge(List.of(new UnitAnswer("ds_0", rows),
                new UnitAnswer("ds_1", new ErrorResult(new ErrPacket(1146, "42S02", "Table 't' doesn't exist")))),
                ResultMerge.CONCATENATE);

        assertInstanceOf(ErrorResult.class, merged);
        assertTrue(rows.closed, "its rows are not read: the backend connection drops them");
    }

    @Test
    void unitsThatAnswerDifferentlyAreAnError() {
        Rows rows = new Rows(2, 0, "a");

        Result merged = ResultMerger.merge(List.of(new UnitAnswer("ds_0", rows),
                new UnitAnswer("ds_1", new UpdateResult(0, 0, 2, 0, ""))), ResultMerge.CONCATENATE);

        assertEquals(1105, assertInstanceOf(ErrorResult.class, merged).error().errorCode());
        assertTrue(rows.closed);
    }
}
