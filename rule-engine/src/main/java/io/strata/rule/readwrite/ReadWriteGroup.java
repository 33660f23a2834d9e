package io.strata.rule.readwrite;

import java.util.List;
import java.util.Map;

/**
 * One primary and its replicas, as configured.
 *
 * @param name              the group's name; routes to it (or to its write data source) are split
 * @param writeDataSource   the primary: writes, locking reads, transactions and everything unknown
 * @param readDataSources   the replicas, in order
 * @param loadBalancer      ROUND_ROBIN, RANDOM, WEIGHT or LEAST_ACTIVE
 * @param weights           WEIGHT's share per data source (the primary's too when it takes reads), 1 when absent
 * @param primaryTakesReads whether the primary is one of the read candidates
 * @param readYourWrites    after a write, the session reads only where the write is known to be
 * @param whenNoReplica     PRIMARY (reads go to the primary) or FAIL (reads get an error) with no replica in rotation
 */
public record ReadWriteGroup(String name, String writeDataSource, List<String> readDataSources, String loadBalancer,
                             Map<String, Integer> weights, boolean primaryTakesReads, boolean readYourWrites,
                             String whenNoReplica) {

    public static final List<String> LOAD_BALANCERS = List.of("ROUND_ROBIN", "RANDOM", "WEIGHT", "LEAST_ACTIVE");
    public static final List<String> NO_REPLICA_POLICIES = List.of("PRIMARY", "FAIL");

    public ReadWriteGroup {
        readDataSources = List.copyOf(readDataSources);
        weights = Map.copyOf(weights);
    }
}
