package io.strata.backend.connection;

/** A snapshot of one pool: connections open or opening, in use, idle, and sessions waiting for one. */
public record PoolStats(String dataSource, int total, int active, int idle, int waiting) {
}
