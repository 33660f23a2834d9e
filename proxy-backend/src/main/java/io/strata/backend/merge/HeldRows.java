package io.strata.backend.merge;

/** Counts the rows one merge holds in memory against its {@link MemoryBound}. */
final class HeldRows {

    private final MemoryBound bound;
    private long held;

    HeldRows(MemoryBound bound) {
        this.bound = bound;
    }

    /** @throws io.strata.backend.result.ResultException past the bound */
    void add(long rows) {
        held += rows;
        if (held > bound.rows()) {
            throw bound.exceeded();
        }
    }

    void remove(long rows) {
        held -= rows;
    }

    long bound() {
        return bound.rows();
    }
}
