package io.strata.backend.relay;

import io.netty.buffer.ByteBuf;

/** Receives one backend response, on the backend connection's event loop. */
public interface ResponseListener {

    /**
     * One physical packet, header included, with the sequence id the backend gave it. The listener owns the buffer
     * (forward it or release it).
     */
    void onPacket(ByteBuf packet);

    /**
     * Whether this listener takes whole runs of packets ({@link #onPackets}) instead of one packet at a time: a relay
     * that forwards bytes untouched does, and pays one write per socket read rather than one per packet.
     */
    default boolean takesRuns() {
        return false;
    }

    /**
     * One or more whole packets, headers included, as read from the backend; only for a listener that
     * {@link #takesRuns()}. The listener owns the buffer.
     *
     * @param lastSequenceId the sequence id of the last packet in the run
     */
    default void onPackets(ByteBuf packets, int lastSequenceId) {
        throw new UnsupportedOperationException("this listener takes one packet at a time");
    }

    /** Called after the last packet of the response; the connection is ready for the next command. */
    void onComplete(ResponseSummary summary);

    /** The connection broke before the response ended; the connection is unusable. */
    void onFailure(Throwable cause);

    /** Whether the destination can take more; when false the backend connection stops reading until resumed. */
    default boolean writable() {
        return true;
    }

    /**
     * The server asked for the client's file (LOAD DATA LOCAL INFILE; the request itself was relayed like any other
     * packet). The response goes on once the file has been sent ({@code BackendConnection#sendLocalData}).
     */
    default void onLocalInfileRequest() {
        throw new IllegalStateException("LOCAL INFILE request where no client can answer it");
    }

    /** The backend connection's socket takes more again, after it was full (while a client's file went to it). */
    default void onBackendWritable() {
    }

    /** The end of one read batch from the backend socket: a good moment to flush. */
    default void onReadComplete() {
    }
}
