package io.strata.backend.merge;

import io.netty.buffer.ByteBufAllocator;
import io.strata.rule.QueryMerge.Aggregation;

import java.util.ArrayList;
import java.util.List;

/** One group being merged: its first row, and its aggregate columns as far as its rows so far make them. */
final class Group {

    private final RowLayout layout;
    private MergeRow first;
    private final List<Accumulator> accumulators;

    /**
     * @param first the group's first row, which the group takes; null for the one group of an aggregate over no
     *              rows
     */
    Group(MergeRow first, Aggregates aggregates) {
        this.layout = aggregates.layout();
        this.accumulators = new ArrayList<>(aggregates.aggregations().size());
        for (Aggregation aggregation : aggregates.aggregations()) {
            accumulators.add(Accumulator.of(aggregation, layout, aggregates.held()));
        }
        this.first = first;
        if (first != null) {
            try {
                add(first);
            } catch (RuntimeException e) {
                release();
                throw e;
            }
        }
    }

    MergeRow first() {
        return first;
    }

    /** Adds a row of the group; the row stays the caller's. */
    void add(MergeRow row) {
        for (Accumulator accumulator : accumulators) {
            accumulator.add(row);
        }
    }

    /** The group's row; what the group held is let go. */
    MergeRow finish(GroupRow.Form form, ByteBufAllocator alloc) {
        try {
            GroupRow row = new GroupRow(layout, first);
            for (Accumulator accumulator : accumulators) {
                accumulator.writeTo(row);
            }
            return row.build(form, alloc);
        } finally {
            release();
        }
    }

    void release() {
        accumulators.forEach(Accumulator::release);
        if (first != null) {
            first.release();
            first = null;
        }
    }
}
