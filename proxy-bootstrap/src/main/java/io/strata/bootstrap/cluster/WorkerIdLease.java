package io.strata.bootstrap.cluster;

import io.strata.rule.sharding.ShardingRouteException;
import io.strata.rule.sharding.WorkerIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A SNOWFLAKE worker id (0..1023) leased from the registry: the lowest one no live member holds, as a value that lives
 * with this member's session. Two live members never put the same worker id in their keys. While the registry is
 * unreachable the lease is trusted for half the session's time to live (the registry cannot have given it to another
 * member before the session expires); after that, keys are refused rather than risk a duplicate, until the registry
 * is back and the lease is taken again. The {@code worker-id} prop is not used in a cluster.
 */
final class WorkerIdLease implements WorkerIds {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerIdLease.class);
    static final String WORKERS = "/workers";
    static final int MAX_WORKER_ID = 1023;

    private final Registry registry;
    private final long trustWithoutRegistryNanos;
    private volatile int id = -1;
    /** Until when the lease holds without the registry; Long.MAX_VALUE while the registry is reachable. */
    private volatile long validUntilNanos;
    private volatile String owner = "";

    WorkerIdLease(Registry registry, int timeToLiveSeconds) {
        this.registry = registry;
        this.trustWithoutRegistryNanos = TimeUnit.SECONDS.toNanos(timeToLiveSeconds) / 2;
    }

    /** Takes this member's id again, or the lowest free one (at start, and when the registry comes back). */
    synchronized void take(String member) {
        owner = member;
        byte[] data = member.getBytes(StandardCharsets.UTF_8);
        int previous = id;
        if (previous >= 0 && registry.claim(WORKERS + "/" + previous, data)) {
            validUntilNanos = Long.MAX_VALUE;
            return;
        }
        for (int candidate = 0; candidate <= MAX_WORKER_ID; candidate++) {
            if (registry.claim(WORKERS + "/" + candidate, data)) {
                id = candidate;
                validUntilNanos = Long.MAX_VALUE;
                LOG.info("cluster member {} leases SNOWFLAKE worker id {}", member, candidate);
                return;
            }
        }
        id = -1;
        LOG.error("cluster member {}: all {} SNOWFLAKE worker ids are leased; inserts that need generated keys are "
                + "refused", member, MAX_WORKER_ID + 1);
    }

    /** The registry became unreachable: the lease holds for half the session's time to live from now. */
    void registryLost() {
        validUntilNanos = System.nanoTime() + trustWithoutRegistryNanos;
    }

    /** The id leased now, or -1. */
    int id() {
        return id;
    }

    @Override
    public int workerId(int configured) {
        int leased = id;
        if (leased < 0) {
            throw new ShardingRouteException("no SNOWFLAKE key: cluster member " + owner + " holds no worker id "
                    + "lease from the registry");
        }
        if (validUntilNanos != Long.MAX_VALUE && System.nanoTime() - validUntilNanos > 0) {
            throw new ShardingRouteException("no SNOWFLAKE key: the registry has been unreachable long enough that "
                    + "this member's worker id " + leased + " may be leased to another member; inserts that need "
                    + "generated keys are refused until the registry is back");
        }
        return leased;
    }
}
