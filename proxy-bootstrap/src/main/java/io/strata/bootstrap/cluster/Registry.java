package io.strata.bootstrap.cluster;

import java.util.List;
import java.util.Optional;

/**
 * What cluster mode needs of a registry (ZooKeeper, etcd): versioned values under paths, compare-and-set, values that
 * live as long as their member, and change notifications. Paths are relative to the configured namespace.
 */
interface Registry extends AutoCloseable {

    /** A value and the registry's version of it, for {@link #replace}. */
    record Entry(byte[] data, long version) {
    }

    Optional<Entry> get(String path);

    /** Creates a persistent value; false when one exists already. */
    boolean create(String path, byte[] data);

    /** Replaces a value unless someone changed it since {@code expectedVersion} was read; false then. */
    boolean replace(String path, byte[] data, long expectedVersion);

    /**
     * Keeps a value while this member lives: removed when it stops or its session expires, written again after the
     * registry comes back; a second call updates it.
     */
    void announce(String path, byte[] data);

    /** Removes a value and everything under it (nothing when there is none). */
    void delete(String path);

    /**
     * Takes a value that lives as long as this member's session, unless another session holds it: true when this
     * member holds it now (taken now, or still its own after the registry came back).
     */
    boolean claim(String path, byte[] data);

    /** The names directly under a path (none when it does not exist). */
    List<String> children(String path);

    /** Runs {@code onChange} (on the registry's thread) whenever the value at a path or anything under it changes. */
    void watch(String path, Runnable onChange);

    /**
     * Hears the registry's reachability: false when it is lost (this member serves on with what it has), true when
     * it is back (this member catches up).
     */
    void onConnection(java.util.function.Consumer<Boolean> reachable);

    @Override
    void close();
}
