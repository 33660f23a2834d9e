package io.strata.backend.merge;

import io.strata.backend.result.ResultException;
import io.strata.protocol.ErrPacket;

/**
 * The most rows one merge holds in memory: the groups it gathers when the units' rows do not come grouped, the
 * distinct values of COUNT(DISTINCT ...) and the like, the rows of a final sort. Past it the statement fails, not
 * the proxy's heap.
 *
 * @param rows     at least 1
 * @param raisedBy what raises the bound, named in the error (a configuration key)
 */
public record MemoryBound(long rows, String raisedBy) {

    /** 100,000 rows. */
    public static final MemoryBound DEFAULT = new MemoryBound(100_000, "server.mergeMemoryRows");

    public MemoryBound {
        if (rows < 1) {
            throw new IllegalArgumentException("a merge's memory bound is at least 1 row, not " + rows);
        }
    }

    /** The error past the bound: 1038 (ER_OUT_OF_SORTMEMORY), the server's own for a sort that ran out. */
    ResultException exceeded() {
        return new ResultException(new ErrPacket(1038, "HY001", "The merge of this statement needs more than "
                + rows + " rows in memory (raise " + raisedBy + ")"));
    }
}
