package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;

import java.util.List;

/**
 * Result sets one after another, as one: the first one's columns, every one's rows in turn. The status is the last
 * one's, the warnings are summed.
 */
final class ConcatenatedResult implements QueryResult {

    private final List<QueryResult> parts;
    private int current;

    ConcatenatedResult(List<QueryResult> parts) {
        this.parts = List.copyOf(parts);
    }

    @Override
    public List<ColumnMetadata> columns() {
        return parts.get(0).columns();
    }

    @Override
    public List<byte[]> columnPackets() {
        return parts.get(0).columnPackets();
    }

    @Override
    public Row next() throws InterruptedException {
        while (current < parts.size()) {
            Row row = parts.get(current).next();
            if (row != null) {
                return row;
            }
            current++;
        }
        return null;
    }

    @Override
    public int statusFlags() {
        return parts.get(parts.size() - 1).statusFlags();
    }

    @Override
    public int warnings() {
        return parts.stream().mapToInt(QueryResult::warnings).sum();
    }

    @Override
    public void close() {
        parts.forEach(QueryResult::close);
    }
}
