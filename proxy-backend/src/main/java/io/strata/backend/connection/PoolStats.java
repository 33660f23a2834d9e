package io.strata.backend.connection;

/** A snapshot of one pool: connections open or opening, in use, idle, and sessions waiting for one. */
public record PoolStats(String dataSource, int total, int active, int idle, int waiting) {

    /** What a statement that waited {@code timeoutMillis} for a connection of this pool is told (either executor). */
    public String exhausted(long timeoutMillis) {
        return "pool " + dataSource + " exhausted after " + timeoutMillis + " ms (total " + total + ", active " + active
                + ", idle " + idle + ", waiting " + waiting + ")";
    }
}
