package io.strata.backend.merge;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Groups whose rows come in any order: every row is read first, each group kept in memory (its first row and its
 * aggregates so far) and counted against the merge's bound; then the groups are given in the order they first
 * showed.
 */
final class MemoryGroups implements RowStream {

    private final RowStream source;
    private final RowOrder groupKey;
    private final Aggregates aggregates;
    private final Map<RowKey, Group> groups = new LinkedHashMap<>();
    private Iterator<Group> results;

    MemoryGroups(RowStream source, RowOrder groupKey, Aggregates aggregates) {
        this.source = source;
        this.groupKey = groupKey;
        this.aggregates = aggregates;
    }

    @Override
    public MergeRow next() throws InterruptedException {
        if (results == null) {
            gather();
            results = groups.values().iterator();
        }
        if (!results.hasNext()) {
            return null;
        }
        Group group = results.next();
        results.remove();
        aggregates.held().remove(1);
        return aggregates.finish(group);
    }

    private void gather() throws InterruptedException {
        for (MergeRow row = source.next(); row != null; row = source.next()) {
            RowKey key = groupKey.key(row);
            Group group = groups.get(key);
            if (group != null) {
                try {
                    group.add(row);
                } finally {
                    row.release();
                }
                continue;
            }
            groups.put(key, aggregates.group(row));
            aggregates.held().add(1);
        }
    }

    @Override
    public void close() {
        groups.values().forEach(Group::release);
        groups.clear();
        source.close();
    }
}
