package io.strata.backend.connection;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import org.junit.jupiter.api.Test;

/** Reads on one event loop share a buffer while nothing keeps a part of the last read. */
class LoopReadBufferTest {

    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final RecvByteBufAllocator.Handle handle = LoopReadBuffer.INSTANCE.newHandle();

    /** What a channel does per read: a buffer from the handle, the socket's bytes into it, the count back. */
    private ByteBuf read(byte[] bytes) {
        ByteBuf buffer = handle.allocate(allocator);
        handle.attemptedBytesRead(buffer.writableBytes());
        buffer.writeBytes(bytes);
        handle.lastBytesRead(bytes.length);
        return buffer;
    }

    private ByteBuf read(String text) {
        return read(text.getBytes(UTF_8));
    }

    @Test
    void readsGoIntoTheSameBufferOnceThePipelineIsDoneWithTheLast() {
        ByteBuf first = read("SELECT 1");
        first.release(); // the pipeline passed it on and wrote it out

        ByteBuf second = read("SELECT 2");

        assertSame(first, second);
        assertEquals("SELECT 2", second.toString(UTF_8));
        assertEquals(0, second.readerIndex());
        second.release();
    }

    @Test
    void aReadThatIsStillPartlyHeldIsLeftToItsHolder() {
        ByteBuf first = read("SELECT 1");
        ByteBuf pendingWrite = first.retainedSlice(); // a write the client's socket has not taken yet
        first.release();

        ByteBuf second = read("SELECT 2");

        assertNotSame(first, second);
        assertEquals("SELECT 1", pendingWrite.toString(UTF_8), "the held bytes are not overwritten");
        assertEquals("SELECT 2", second.toString(UTF_8));
        pendingWrite.release();
        assertEquals(0, first.refCnt(), "the loop gave up its hold: the buffer went back to the pool");

        second.release();
        assertSame(second, read("SELECT 3"), "the new buffer is the one reused from now on");
    }

    @Test
    void aReadThatFillsTheBufferIsFollowedByLargeReadsUntilOneComesShort() {
        ByteBuf full = read(new byte[LoopReadBuffer.CAPACITY]);
        full.release();

        ByteBuf large = read(new byte[100]);
        assertNotSame(full, large);
        assertTrue(large.capacity() >= LoopReadBuffer.LARGE, "capacity " + large.capacity());
        large.release();

        ByteBuf next = read("SELECT 1");
        assertSame(full, next, "a short read ends the large ones");
        next.release();
    }
}
