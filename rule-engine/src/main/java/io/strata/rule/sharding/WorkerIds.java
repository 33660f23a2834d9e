package io.strata.rule.sharding;

/**
 * Where SNOWFLAKE generators take their worker id, asked for each key: standalone, the {@code worker-id} prop as
 * configured; in a cluster, the id this member leases from the registry, which no other live member holds.
 */
@FunctionalInterface
public interface WorkerIds {

    /** The props' worker-id, as configured (a single process). */
    WorkerIds CONFIGURED = configured -> configured;

    /**
     * @param configured the generator's {@code worker-id} prop
     * @return the worker id to put in the next key
     * @throws ShardingRouteException when no id can be used without risking a key another member makes too
     */
    int workerId(int configured);
}
