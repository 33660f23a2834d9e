package io.strata.backend.merge;

/** One step of a merge: pulls rows from the step before it, and gives its own. Pulled by one thread. */
interface RowStream {

    /**
     * The next row, the caller's to pass on or release; null after the last.
     *
     * @throws io.strata.backend.result.ResultException when a unit failed part way, or the merge would hold more
     *                                                  rows in memory than its bound
     */
    MergeRow next() throws InterruptedException;

    /** Releases the rows the step holds, and closes the steps before it. Called once or more. */
    void close();
}
