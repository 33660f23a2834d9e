package io.strata.kernel;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

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
     * The process list rows (MySQL's columns) of the other members' sessions, as each would show them to this user.
     * Members that do not answer in time are left out.
     */
    CompletableFuture<List<List<Object>>> otherMembersProcesses(String user, boolean admin);

    /**
     * KILL [QUERY] of a session another member holds (the member is known from the id).
     *
     * @return true when done there, false when no other member holds such an id; fails with the holding member's
     *     refusal (1094, 1095) as a {@link io.strata.protocol.MySQLException}
     */
    CompletableFuture<Boolean> killElsewhere(long id, boolean queryOnly, String user, boolean admin);

    /** What a member does for another's SHOW PROCESSLIST and KILL: the host's own sessions. */
    interface Administration {

        /** The rows of this member's sessions the user may see (all of them for an administrator). */
        List<List<Object>> processes(String user, boolean admin);

        /** Kills a session of this member; fails with 1094 (no such id) or 1095 (another user's, not an admin). */
        CompletableFuture<?> kill(long id, boolean queryOnly, String user, boolean admin);
    }

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
