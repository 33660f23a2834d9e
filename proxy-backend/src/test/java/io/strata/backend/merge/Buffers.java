package io.strata.backend.merge;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.util.ResourceLeakDetector;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An allocator that remembers every buffer it made, so a test can show each one was released: the fake units'
 * packets, and what the merge makes from them (group rows, binary rows cut), which come from their allocator.
 */
final class Buffers extends AbstractByteBufAllocator {

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    private final List<ByteBuf> made = new ArrayList<>();

    /** A packet payload from its hex, as a backend's read would hold it. */
    ByteBuf hex(String hex) {
        return buffer().writeBytes(HexFormat.of().parseHex(hex));
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        ByteBuf buf = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity); // its alloc() is this one
        made.add(buf);
        return buf;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return newHeapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    void assertAllReleased() {
        for (ByteBuf buf : made) {
            assertEquals(0, buf.refCnt(), () -> "not released: " + ByteBufUtil.hexDump(buf, 0, buf.capacity()));
        }
    }
}
