package io.strata.backend.relay;

import io.netty.buffer.ByteBuf;

/** Receives one backend response, on the backend connection's event loop. */
public interface ResponseListener {

    /**
     * One physical packet, header included, with the sequence id the backend gave it. The listener owns the buffer
     * (forward it or release it).
     */
    void onPacket(ByteBuf packet);

    /** Called after the last packet of the response; the connection is ready for the next command. */
    void onComplete(ResponseSummary summary);

    /** The connection broke before the response ended; the connection is unusable. */
    void onFailure(Throwable cause);

    /** Whether the destination can take more; when false the backend connection stops reading until resumed. */
    default boolean writable() {
        return true;
    }

    /** The end of one read batch from the backend socket: a good moment to flush. */
    default void onReadComplete() {
    }
}
