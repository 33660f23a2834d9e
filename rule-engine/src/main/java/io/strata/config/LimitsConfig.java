package io.strata.config;

/**
 * Limits that protect the service, as MySQL's max_connections, wait_timeout and connect_timeout.
 *
 * @param maxConnections         client sessions at once (0: no limit); the next login gets 1040, an administrator
 *                               may still take one more (as MySQL keeps one for CONNECTION_ADMIN)
 * @param idleTimeoutMillis      a session idle in the command phase this long is closed (0: never)
 * @param handshakeTimeoutMillis a connection that has not logged in this long after connecting is closed
 * @param shutdownTimeoutMillis  how long a stop waits for running statements and open transactions to finish
 * @param packetMemory           bytes all clients' packets still arriving may hold together (0: half of the direct
 *                               memory); a packet that would pass it gets 1041 and its connection closes
 */
public record LimitsConfig(int maxConnections, long idleTimeoutMillis, long handshakeTimeoutMillis,
                           long shutdownTimeoutMillis, long packetMemory) {

    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    public static final long DEFAULT_SHUTDOWN_TIMEOUT_MILLIS = 30_000;
    public static final LimitsConfig DEFAULT = new LimitsConfig(0, 0, DEFAULT_HANDSHAKE_TIMEOUT_MILLIS,
            DEFAULT_SHUTDOWN_TIMEOUT_MILLIS, 0);

    public LimitsConfig {
        if (maxConnections < 0 || idleTimeoutMillis < 0 || handshakeTimeoutMillis < 1 || shutdownTimeoutMillis < 0
                || packetMemory < 0) {
            throw new IllegalArgumentException("limits must be >= 0 (the handshake timeout >= 1 ms)");
        }
    }

    /** The same limits and the default shutdown timeout and packet memory. */
    public LimitsConfig(int maxConnections, long idleTimeoutMillis, long handshakeTimeoutMillis) {
        this(maxConnections, idleTimeoutMillis, handshakeTimeoutMillis, DEFAULT_SHUTDOWN_TIMEOUT_MILLIS, 0);
    }

    /** The same limits and the default packet memory. */
    public LimitsConfig(int maxConnections, long idleTimeoutMillis, long handshakeTimeoutMillis,
                        long shutdownTimeoutMillis) {
        this(maxConnections, idleTimeoutMillis, handshakeTimeoutMillis, shutdownTimeoutMillis, 0);
    }
}
