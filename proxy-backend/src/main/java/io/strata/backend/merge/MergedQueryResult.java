package io.strata.backend.merge;

import io.netty.buffer.ByteBufAllocator;
import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;
import io.strata.protocol.ServerStatus;
import io.strata.rule.QueryMerge;

import java.util.ArrayList;
import java.util.List;

/**
 * The units' result sets merged as a {@link QueryMerge} says, as one result set: the first unit's columns up to
 * the visible ones, then rows pulled through the merge's steps (k-way merge or concatenation, groups, HAVING,
 * DISTINCT, final sort, offset and limit) as the client takes them.
 *
 * <p>Rows keep the units' form: a unit's packet that passes through unchanged is the client's as it came, cut
 * after the visible columns; a group's row is a packet made in the units' protocol, byte for byte what one server
 * would send for it; a driver's cells stay cells. The status is the last unit's, in a transaction when any unit is;
 * warnings are summed. Pulled by one thread.
 */
public final class MergedQueryResult implements QueryResult {

    private final List<UnitRows> units;
    private final int visibleColumns;
    private final List<ColumnMetadata> columns;
    private final List<byte[]> columnPackets;
    private final RowStream rows;
    private boolean ended;

    MergedQueryResult(List<QueryResult> results, QueryMerge query, MemoryBound bound) {
        List<ColumnMetadata> all = results.get(0).columns();
        RowLayout layout = new RowLayout(all);
        this.units = new ArrayList<>(results.size());
        for (QueryResult result : results) {
            units.add(new UnitRows(result, layout));
        }
        this.visibleColumns = Math.min(query.visibleColumns(), all.size());
        this.columns = all.subList(0, visibleColumns);
        List<byte[]> packets = results.get(0).columnPackets();
        this.columnPackets = packets == null ? null : packets.subList(0, visibleColumns);
        GroupRow.Form emptyForm = packets == null ? GroupRow.Form.CELLS : GroupRow.Form.TEXT;
        this.rows = steps(query, layout, new HeldRows(bound), emptyForm);
    }

    /** The merge's steps in QueryMerge's order, each pulling from the one before. */
    private RowStream steps(QueryMerge query, RowLayout layout, HeldRows held, GroupRow.Form emptyForm) {
        RowStream rows = query.unitOrder().isEmpty() ? new Concatenation(units)
                : new SortedMerge(units, new RowOrder(query.unitOrder()));
        if (query.aggregated()) {
            Aggregates aggregates = new Aggregates(query.aggregations(), layout, held, emptyForm,
                    ByteBufAllocator.DEFAULT);
            RowOrder groupKey = new RowOrder(query.groupBy());
            rows = groupKey.isEmpty() || query.groupsSorted() ? new StreamingGroups(rows, groupKey, aggregates)
                    : new MemoryGroups(rows, groupKey, aggregates);
        }
        if (query.having() != null) {
            rows = new HavingFilter(rows, query.having());
        }
        if (query.distinct()) {
            rows = new DistinctRows(rows, new RowOrder(query.unitOrder()));
        }
        if (!query.resultOrder().isEmpty()) {
            rows = new MemorySort(rows, new RowOrder(query.resultOrder()), held,
                    query.limit() < 0 ? -1 : query.offset() + query.limit());
        }
        if (query.offset() > 0 || query.limit() >= 0) {
            rows = new OffsetLimit(rows, query.offset(), query.limit());
        }
        return rows;
    }

    @Override
    public List<ColumnMetadata> columns() {
        return columns;
    }

    @Override
    public List<byte[]> columnPackets() {
        return columnPackets;
    }

    /**
     * @throws io.strata.backend.result.ResultException a unit's error, or the merge's when it would hold more rows
     *                                                  than its bound
     */
    @Override
    public Row next() throws InterruptedException {
        if (ended) {
            return null;
        }
        MergeRow row = rows.next();
        if (row == null) {
            end();
            return null;
        }
        return row.toRow(visibleColumns);
    }

    /**
     * The merge gave its last row: the rows it holds go, and the units' rows it no longer needs (after a LIMIT) are
     * read to their end, so that each unit's status is known.
     */
    private void end() throws InterruptedException {
        ended = true;
        rows.close();
        for (UnitRows unit : units) {
            unit.drain();
        }
    }

    @Override
    public int statusFlags() {
        int status = units.get(units.size() - 1).result().statusFlags();
        for (UnitRows unit : units) {
            status |= unit.result().statusFlags() & ServerStatus.IN_TRANS;
        }
        return status;
    }

    @Override
    public int warnings() {
        long warnings = 0;
        for (UnitRows unit : units) {
            warnings += unit.result().warnings();
        }
        return (int) Math.min(warnings, 0xFFFF);
    }

    @Override
    public void close() {
        ended = true;
        rows.close();
        for (UnitRows unit : units) {
            unit.result().close();
        }
    }
}
