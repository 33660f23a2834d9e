package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.PacketFrameDecoder;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** Test data shared by the benchmarks: sysbench's sbtest rows and MySQL packets as a server writes them. */
final class Wire {

    /** A sysbench {@code c} value: ten dash-separated groups of 11 digits (119 characters of CHAR(120)). */
    static final String C = "68487932199-96439406143-93774651418-41631865787-96406072701-"
            + "20604855487-25459966574-28203206787-41238978918-19503783441";
    /** A sysbench {@code pad} value: five groups of 11 digits (59 characters of CHAR(60)). */
    static final String PAD = "22195207048-70116052123-74140395089-76317954521-98694025897";

    static final int UTF8MB4_GENERAL_CI = 45;
    static final int BINARY = 63;
    static final int TYPE_LONG = 0x03;
    static final int TYPE_STRING = 0xFE;

    /**
     * {@code channel.alloc()} as seen from one of Strata's event loops: the default pooled allocator, which gives
     * a thread cache only to FastThreadLocalThreads and event-loop threads. JMH's worker thread is neither, so the
     * benchmarks that model event-loop work allocate through this twin of the default with the cache turned on.
     */
    static final ByteBufAllocator EVENT_LOOP_ALLOC = new PooledByteBufAllocator(
            PooledByteBufAllocator.defaultPreferDirect(), PooledByteBufAllocator.defaultNumHeapArena(),
            PooledByteBufAllocator.defaultNumDirectArena(), PooledByteBufAllocator.defaultPageSize(),
            PooledByteBufAllocator.defaultMaxOrder(), PooledByteBufAllocator.defaultSmallCacheSize(),
            PooledByteBufAllocator.defaultNormalCacheSize(), true);

    /**
     * {@code channel.alloc()} as seen from any other thread, such as the virtual thread that runs a JDBC statement:
     * the default pooled allocator without a thread cache (unless {@code io.netty.allocator.useCacheForAllThreads}
     * is set), every allocation and release going to a shared arena.
     */
    static final ByteBufAllocator OTHER_THREAD_ALLOC = PooledByteBufAllocator.DEFAULT;

    private static final ByteBufAllocator INPUT = new UnpooledByteBufAllocator(true, true);

    private Wire() {
    }

    /** One physical packet: 3-byte length, sequence id, payload. */
    static void packet(ByteBuf out, int sequenceId, Consumer<ByteBuf> payload) {
        int start = out.writerIndex();
        out.writeMediumLE(0).writeByte(sequenceId & 0xFF);
        payload.accept(out);
        out.setMediumLE(start, out.writerIndex() - start - PacketFrameDecoder.HEADER_SIZE);
    }

    /** A COM_QUERY payload of exactly {@code size} bytes: the command byte, then SQL padded with a comment. */
    static byte[] comQuery(String sql, int size) {
        StringBuilder text = new StringBuilder(sql).append(" /*");
        while (text.length() < size - 1 - 2) {
            text.append('.');
        }
        byte[] sqlBytes = text.append("*/").toString().getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[1 + sqlBytes.length];
        payload[0] = 0x03;
        System.arraycopy(sqlBytes, 0, payload, 1, sqlBytes.length);
        return payload;
    }

    /** Protocol::ColumnDefinition41 of column {@code name} of sbtest.sbtest1. */
    static void column(ByteBuf out, String name, int collation, long length, int type, int flags) {
        MySQLBuf.writeStringLenenc(out, "def");
        MySQLBuf.writeStringLenenc(out, "sbtest");
        MySQLBuf.writeStringLenenc(out, "sbtest1");
        MySQLBuf.writeStringLenenc(out, "sbtest1");
        MySQLBuf.writeStringLenenc(out, name);
        MySQLBuf.writeStringLenenc(out, name);
        MySQLBuf.writeIntLenenc(out, 0x0C);
        MySQLBuf.writeInt2(out, collation);
        MySQLBuf.writeInt4(out, length);
        MySQLBuf.writeInt1(out, type);
        MySQLBuf.writeInt2(out, flags);
        MySQLBuf.writeInt1(out, 0);
        MySQLBuf.writeInt2(out, 0);
    }

    /** Releases a buffer and turns a leak in the benchmark itself into a failure. */
    static void release(ByteBuf buf) {
        if (buf != null && buf.refCnt() > 0 && !buf.release()) {
            throw new IllegalStateException("buffer still referenced after the benchmark: " + buf.refCnt());
        }
    }

    /** A direct buffer for test input, never wrapped by Netty's leak detector (whose sampling would skew runs). */
    static ByteBuf direct(int capacity) {
        return INPUT.directBuffer(capacity, capacity);
    }
}
