package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketFrameDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * MySQL packet framing: every client command passes {@link PacketFrameDecoder} before
 * Strata looks at it, and every packet Strata writes itself passes {@link PacketEncoder}. For sysbench-sized
 * statements this is a fixed cost per command, paid on the event loop, so it bounds the proxy's packet rate.
 *
 * <ul>
 *   <li>{@code decodeOne}: one 100-byte COM_QUERY per read, as a client waiting for each answer sends them;</li>
 *   <li>{@code decodeBatch}: 100 such packets in one read (pipelining), reported per packet;</li>
 *   <li>{@code encodeBatch}: 100 frames of 100 bytes through the encoder (each copied behind its header into one
 *       buffer), reported per packet;</li>
 *   <li>{@code relayBatch}: 100 already-framed packets, as the relay forwards backend packets, passing the encoder
 *       untouched: the outbound pipeline's own cost per packet, the baseline of {@code encodeBatch};</li>
 *   <li>{@code joinLarge}: a 20 MiB payload (two physical packets) delivered in 64 KiB socket reads, or in one
 *       buffer ({@code readSize = 0}), joined into one frame;</li>
 *   <li>{@code splitLarge}: a 20 MiB frame split into its physical packets.</li>
 * </ul>
 * The numbers include {@link EmbeddedChannel}'s own pipeline overhead, as the real pipeline has its own. The channels
 * allocate as an event loop does, with a thread cache ({@link Wire#EVENT_LOOP_ALLOC}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FramingBenchmark {

    static final int BATCH = 100;
    static final int QUERY_SIZE = 100;
    static final int LARGE_SIZE = 20 << 20;
    static final long MAX_ALLOWED_PACKET = 64L << 20;

    /** Small packets: one decoding and one encoding pipeline, and their input. */
    @State(Scope.Thread)
    public static class Small {
        EmbeddedChannel decoder;
        EmbeddedChannel encoder;
        ByteBuf one;
        ByteBuf batch;
        ByteBuf payload;

        @Setup(Level.Trial)
        public void setup() {
            decoder = decoder();
            encoder = encoder();
            byte[] query = Wire.comQuery("SELECT c FROM sbtest1 WHERE id=5021", QUERY_SIZE);
            one = Wire.direct(QUERY_SIZE + 4);
            Wire.packet(one, 0, out -> out.writeBytes(query));
            batch = Wire.direct(BATCH * (QUERY_SIZE + 4));
            for (int i = 0; i < BATCH; i++) {
                batch.writeBytes(one, 0, one.readableBytes());
            }
            payload = Wire.direct(QUERY_SIZE).writeBytes(query);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            decoder.finishAndReleaseAll();
            encoder.finishAndReleaseAll();
            Wire.release(one);
            Wire.release(batch);
            Wire.release(payload);
        }
    }

    /** A 20 MiB payload on the wire, cut into socket reads of {@code readSize} bytes (0: one read). */
    @State(Scope.Thread)
    public static class LargeWire {
        @Param({"65536", "0"})
        int readSize;

        EmbeddedChannel decoder;
        ByteBuf wire;
        List<ByteBuf> reads;

        @Setup(Level.Trial)
        public void setup() {
            decoder = decoder();
            wire = Wire.direct(LARGE_SIZE + 8);
            int first = PacketFrameDecoder.MAX_PAYLOAD;
            Wire.packet(wire, 0, out -> out.writeZero(first));
            Wire.packet(wire, 1, out -> out.writeZero(LARGE_SIZE - first));
            reads = new ArrayList<>();
            int step = readSize == 0 ? wire.readableBytes() : readSize;
            for (int i = 0; i < wire.readableBytes(); i += step) {
                reads.add(wire.slice(i, Math.min(step, wire.readableBytes() - i)));
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            decoder.finishAndReleaseAll();
            Wire.release(wire);
        }
    }

    /** A 20 MiB payload and an encoding pipeline. */
    @State(Scope.Thread)
    public static class LargePayload {
        EmbeddedChannel encoder;
        ByteBuf payload;

        @Setup(Level.Trial)
        public void setup() {
            encoder = encoder();
            payload = Wire.direct(LARGE_SIZE).writeZero(LARGE_SIZE);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            encoder.finishAndReleaseAll();
            Wire.release(payload);
        }
    }

    @Benchmark
    public void decodeOne(Small s, Blackhole bh) {
        s.decoder.writeInbound(s.one.retainedDuplicate());
        drainFrames(s.decoder, bh, 1);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void decodeBatch(Small s, Blackhole bh) {
        s.decoder.writeInbound(s.batch.retainedDuplicate());
        drainFrames(s.decoder, bh, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void encodeBatch(Small s, Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            s.encoder.writeOneOutbound(new MySQLFrame(i & 0xFF, s.payload.retainedDuplicate()));
        }
        s.encoder.flushOutbound();
        drainBuffers(s.encoder, bh, BATCH); // one buffer each: small payloads are copied behind their header
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void relayBatch(Small s, Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            s.encoder.writeOneOutbound(s.one.retainedDuplicate());
        }
        s.encoder.flushOutbound();
        drainBuffers(s.encoder, bh, BATCH);
    }

    /**
     * A client's command cut from its read and made a backend's command (what the relay does with every statement):
     * the decoder's frame, then {@link PacketEncoder#command} for the backend's pipeline.
     */
    @Benchmark
    public void forwardOne(Small s, Blackhole bh) {
        s.decoder.writeInbound(s.one.retainedDuplicate());
        MySQLFrame frame = s.decoder.readInbound();
        ByteBuf command = (ByteBuf) PacketEncoder.command(s.decoder.alloc(), frame.payload());
        bh.consume(command.readableBytes());
        command.release();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void joinLarge(LargeWire s, Blackhole bh) {
        for (ByteBuf read : s.reads) {
            s.decoder.writeInbound(read.retainedDuplicate());
        }
        drainFrames(s.decoder, bh, 1);
    }

    @Benchmark
    public void splitLarge(LargePayload s, Blackhole bh) {
        s.encoder.writeOutbound(new MySQLFrame(0, s.payload.retainedDuplicate()));
        drainBuffers(s.encoder, bh, 4); // header, 0xFFFFFF bytes, header, the rest
    }

    static EmbeddedChannel decoder() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketFrameDecoder(MAX_ALLOWED_PACKET));
        channel.config().setAllocator(Wire.EVENT_LOOP_ALLOC);
        return channel;
    }

    static EmbeddedChannel encoder() {
        EmbeddedChannel channel = new EmbeddedChannel(PacketEncoder.INSTANCE);
        channel.config().setAllocator(Wire.EVENT_LOOP_ALLOC);
        return channel;
    }

    private static void drainFrames(EmbeddedChannel channel, Blackhole bh, int expected) {
        int n = 0;
        for (MySQLFrame frame; (frame = channel.readInbound()) != null; n++) {
            bh.consume(frame.sequenceId());
            bh.consume(frame.payload().readableBytes());
            frame.release();
        }
        check(n, expected);
    }

    private static void drainBuffers(EmbeddedChannel channel, Blackhole bh, int expected) {
        int n = 0;
        for (ByteBuf buf; (buf = channel.readOutbound()) != null; n++) {
            bh.consume(buf.readableBytes());
            buf.release();
        }
        check(n, expected);
    }

    private static void check(int n, int expected) {
        if (n != expected) {
            throw new IllegalStateException("expected " + expected + " messages, got " + n);
        }
    }
}
