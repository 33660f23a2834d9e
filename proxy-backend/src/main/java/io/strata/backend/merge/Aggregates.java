package io.strata.backend.merge;

import io.netty.buffer.ByteBufAllocator;
import io.strata.rule.QueryMerge.Aggregation;

import java.util.List;

/**
 * What grouping makes of each group: the aggregations, over rows of this layout, counted against the merge's
 * memory; and the form of a row made when no unit row shows one.
 */
record Aggregates(List<Aggregation> aggregations, RowLayout layout, HeldRows held, GroupRow.Form emptyForm,
                  ByteBufAllocator alloc) {

    Group group(MergeRow first) {
        return new Group(first, this);
    }

    MergeRow finish(Group group) {
        return group.finish(emptyForm, alloc);
    }
}
