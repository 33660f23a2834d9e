package io.strata.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseParser;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.PacketRunDecoder;
import io.strata.protocol.ServerStatus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One backend read holding a whole response, from the backend channel to the client channel, as the relay handles
 * it: framed, followed by the parser, written to the client and flushed. Two ways, same parser:
 *
 * <ul>
 *   <li>{@code packets}: {@link PacketSplitter} hands over each packet as a slice, and each is written to the
 *       client (the relay before runs);</li>
 *   <li>{@code runs}: {@link PacketRunDecoder} hands over the read's whole packets as one slice, the parser walks
 *       them in place, and the run is written once.</li>
 * </ul>
 * {@code rows} is the result's size: 1 (sysbench's point select) or 100 (its range selects). Results are ns per
 * response.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BackendReadBenchmark {

    @State(Scope.Thread)
    public static class Read {
        @Param({"1", "100"})
        int rows;

        ByteBuf response;
        EmbeddedChannel client;
        EmbeddedChannel packetBackend;
        EmbeddedChannel runBackend;
        final ResponseParser parser = new ResponseParser(ResponseKind.QUERY, true);

        @Setup(Level.Trial)
        public void setup() {
            response = Wire.direct(rows * 200 + 512);
            int sequenceId = 1;
            Wire.packet(response, sequenceId++, out -> MySQLBuf.writeIntLenenc(out, 1));
            Wire.packet(response, sequenceId++, out -> Wire.column(out, "c", Wire.UTF8MB4_GENERAL_CI, 480,
                    Wire.TYPE_STRING, 1));
            for (int i = 0; i < rows; i++) {
                Wire.packet(response, sequenceId++, out -> MySQLBuf.writeStringLenenc(out, Wire.C));
            }
            Wire.packet(response, sequenceId, out -> new OkPacket(OkPacket.EOF_HEADER, 0, 0,
                    ServerStatus.AUTOCOMMIT, 0, "").encode(out));
            client = new EmbeddedChannel();
            client.config().setAllocator(Wire.EVENT_LOOP_ALLOC);
            packetBackend = new EmbeddedChannel(new PacketSplitter(), new PacketRelay(this));
            packetBackend.config().setAllocator(Wire.EVENT_LOOP_ALLOC);
            runBackend = new EmbeddedChannel(new RunRelay(this));
            runBackend.config().setAllocator(Wire.EVENT_LOOP_ALLOC);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            packetBackend.finishAndReleaseAll();
            runBackend.finishAndReleaseAll();
            client.finishAndReleaseAll();
            Wire.release(response);
        }
    }

    /** Cuts the bytes into physical packets, header included, as the relay's framer did before runs. */
    static final class PacketSplitter extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            while (in.readableBytes() >= PacketFrameDecoder.HEADER_SIZE) {
                int size = PacketFrameDecoder.HEADER_SIZE + in.getUnsignedMediumLE(in.readerIndex());
                if (in.readableBytes() < size) {
                    return;
                }
                out.add(in.readRetainedSlice(size));
            }
        }
    }

    /** Per packet: parse, write to the client. */
    static final class PacketRelay extends ChannelInboundHandlerAdapter {
        private final Read read;

        PacketRelay(Read read) {
            this.read = read;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf packet = (ByteBuf) msg;
            read.parser.accept(packet);
            read.client.write(packet, read.client.voidPromise());
        }
    }

    /** Per run: parse every packet in place, write the run to the client once. */
    static final class RunRelay extends PacketRunDecoder {
        private final Read read;

        RunRelay(Read read) {
            this.read = read;
        }

        @Override
        protected void runRead(ChannelHandlerContext ctx, ByteBuf run) {
            for (int index = run.readerIndex(); index < run.writerIndex(); ) {
                read.parser.accept(run, index);
                index += PacketRunDecoder.packetSize(run, index);
            }
            read.client.write(run, read.client.voidPromise());
        }

        @Override
        protected void readComplete(ChannelHandlerContext ctx) {
        }

        @Override
        protected void closed(ChannelHandlerContext ctx) {
        }
    }

    @Benchmark
    public void packets(Read r, Blackhole bh) {
        relay(r, r.packetBackend, bh);
    }

    @Benchmark
    public void runs(Read r, Blackhole bh) {
        relay(r, r.runBackend, bh);
    }

    private static void relay(Read r, EmbeddedChannel backend, Blackhole bh) {
        r.parser.reset(ResponseKind.QUERY, true);
        backend.writeInbound(r.response.retainedDuplicate());
        r.client.flush();
        for (ByteBuf out; (out = r.client.readOutbound()) != null; ) {
            bh.consume(out.readableBytes());
            out.release();
        }
        if (r.parser.summary().statusFlags() != ServerStatus.AUTOCOMMIT) {
            throw new IllegalStateException("response not parsed to its end");
        }
    }
}
