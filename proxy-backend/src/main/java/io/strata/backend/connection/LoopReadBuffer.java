package io.strata.backend.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Sockets are read into one buffer per event loop, reused from read to read while no part of the last read is kept.
 * A relayed command or response is written on before the next read on the same loop, so its read buffer is almost
 * always free again by then: reading into it skips the pooled allocator's take and give-back per read (arena, thread
 * cache, recycled buffer objects: about a tenth of Strata's user time at 64 clients), and the buffer's memory is the
 * one the CPU's caches already hold.
 *
 * <p>Whether the buffer is free is its reference count: the loop holds one reference, and any slice still held (a
 * write the socket did not take yet, a cut packet, a queued command) holds another. A busy buffer is left to its
 * holders (it goes back to the pool when they let go) and a new one takes its place. A read that fills the buffer is
 * followed by reads into buffers of {@link #LARGE} of their own, as long as they come full: a long result or a file
 * upload moves in fewer, larger reads, as with Netty's adaptive sizing.
 *
 * <p>Threads: a handle is used by its channel's event loop only, as Netty does.
 */
public final class LoopReadBuffer extends DefaultMaxMessagesRecvByteBufAllocator {

    /** Holds a whole command or a 100-row result: what most reads of a MySQL connection carry. */
    static final int CAPACITY = 16 * 1024;
    /** Netty's largest adaptive read. */
    static final int LARGE = 64 * 1024;
    /** Reads per wake-up before other channels get their turn: Netty's default for stream sockets. */
    private static final int READS_PER_WAKE_UP = 16;

    public static final LoopReadBuffer INSTANCE = new LoopReadBuffer();

    private static final FastThreadLocal<ByteBuf> BUFFER = new FastThreadLocal<>() {
        @Override
        protected void onRemoval(ByteBuf buffer) {
            buffer.release(); // the loop's thread ends: its hold on the buffer goes
        }
    };

    private LoopReadBuffer() {
        super(READS_PER_WAKE_UP);
    }

    @Override
    public Handle newHandle() {
        return new LoopHandle();
    }

    /**
     * The calling thread's read buffer, cleared and retained for the caller, or a new one when something still holds
     * a part of the last read.
     */
    static ByteBuf take(ByteBufAllocator allocator) {
        ByteBuf buffer = BUFFER.get();
        if (buffer == null || buffer.refCnt() != 1) {
            if (buffer != null) {
                buffer.release();
            }
            buffer = allocator.ioBuffer(CAPACITY, CAPACITY);
            BUFFER.set(buffer);
        }
        return buffer.clear().retain();
    }

    private final class LoopHandle extends MaxMessageHandle {
        /** The last read filled its buffer: more is likely waiting. */
        private boolean large;

        @Override
        public ByteBuf allocate(ByteBufAllocator allocator) {
            return large ? allocator.ioBuffer(LARGE) : take(allocator);
        }

        @Override
        public int guess() {
            return large ? LARGE : CAPACITY;
        }

        @Override
        public void lastBytesRead(int bytes) {
            large = bytes == attemptedBytesRead();
            super.lastBytesRead(bytes);
        }
    }
}
