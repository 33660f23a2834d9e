package io.strata.kernel;

import java.time.Instant;
import java.util.List;

/**
 * The cluster a host is a member of (mode: Cluster): the members that share its configuration through the registry,
 * each with the configuration version it runs, so an operator knows when a change has reached all of them.
 */
public interface Cluster {

    /** Where the registry is: {@code ZooKeeper 127.0.0.1:2181/governance_ds}. */
    String registry();

    /** The members registered now, this one included, ordered by id. */
    List<Member> members();

    /**
     * How this member's own files compare with the configuration the cluster runs: empty when the same, else what
     * differs (they are not applied: RELOAD STRATA CONFIG publishes them).
     */
    List<String> localDifferences();

    /**
     * ALTER STRATA DATA SOURCE ... DISABLE | ENABLE for the whole cluster: recorded in the registry, which every
     * member follows (this one too, before this returns).
     *
     * @throws IllegalStateException when the registry cannot be reached (nothing is switched)
     */
    void switchDataSource(String database, String dataSource, boolean disabled);

    /**
     * One member as it registered itself.
     *
     * @param id      {@code host:port} of its listener, unique among live members
     * @param version the configuration version it runs
     * @param state   {@code ONLINE}, or {@code REGISTRY LOST} while it serves without the registry
     * @param workerId the SNOWFLAKE worker id it leases (-1: none)
     * @param self    whether it is the member answering
     */
    record Member(String id, int version, Instant upSince, String state, int workerId, boolean self) {
    }
}
