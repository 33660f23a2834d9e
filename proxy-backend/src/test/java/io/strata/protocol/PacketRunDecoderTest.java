package io.strata.protocol;

import static io.strata.protocol.Wire.concat;
import static io.strata.protocol.Wire.packetBytes;
import static io.strata.protocol.Wire.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A backend's response cut into runs of whole packets, however the socket delivers its bytes. */
class PacketRunDecoderTest {

    /** Passes each run on, as a handler behind it would see them. */
    private final EmbeddedChannel channel = new EmbeddedChannel(new PacketRunDecoder() {
        @Override
        protected void runRead(ChannelHandlerContext ctx, ByteBuf run) {
            ctx.fireChannelRead(run);
        }

        @Override
        protected void readComplete(ChannelHandlerContext ctx) {
        }

        @Override
        protected void closed(ChannelHandlerContext ctx) {
        }
    });

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    private List<byte[]> receive(byte[] stream, int... cuts) {
        List<byte[]> runs = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : stream.length;
            channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, from, to)));
            from = to;
            for (ByteBuf run; (run = channel.readInbound()) != null; ) {
                runs.add(ByteBufUtil.getBytes(run));
                run.release();
            }
        }
        return runs;
    }

    @Test
    void everyWholePacketOfOneReadComesAsOneRun() {
        byte[] a = packetBytes(1, new byte[] {1});
        byte[] b = packetBytes(2, randomBytes(300, 1));
        byte[] c = packetBytes(3, new byte[] {(byte) 0xFE, 0, 0, 2, 0});

        List<byte[]> runs = receive(concat(a, b, c));

        assertEquals(1, runs.size());
        assertArrayEquals(concat(a, b, c), runs.get(0));
    }

    @Test
    void aRunEndsAtTheLastWholePacketAndTheRestWaitsForItsBytes() {
        byte[] a = packetBytes(1, new byte[] {1});
        byte[] b = packetBytes(2, randomBytes(300, 2));
        byte[] stream = concat(a, b);

        List<byte[]> runs = receive(stream, a.length + 2, a.length + 100);

        assertEquals(2, runs.size(), "the cut inside b's header and the one inside its payload yield nothing");
        assertArrayEquals(a, runs.get(0));
        assertArrayEquals(b, runs.get(1));
    }

    @Test
    void aPacketCutOverSeveralReadsComesWholeByItselfThenTheRestOfTheRead() {
        byte[] a = packetBytes(1, randomBytes(1000, 3));
        byte[] b = packetBytes(2, new byte[] {1});
        byte[] stream = concat(a, b);

        List<byte[]> runs = receive(stream, 2, 500, 999);

        assertEquals(2, runs.size());
        assertArrayEquals(a, runs.get(0));
        assertArrayEquals(b, runs.get(1));
    }

    @Test
    void anyCutsGiveBackTheStreamInWholePackets() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<Integer> boundaries = new ArrayList<>(List.of(0));
        for (int i = 0; i < 50; i++) {
            all.writeBytes(packetBytes(i + 1, randomBytes(i * 7 % 40, i)));
            boundaries.add(all.size());
        }
        byte[] stream = all.toByteArray();

        for (int step = 1; step < 64; step += 5) {
            int[] cuts = cutsEvery(step, stream.length);
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            for (byte[] run : receive(stream, cuts)) {
                joined.writeBytes(run);
                assertTrue(boundaries.contains(joined.size()), "a run ends on a packet boundary");
            }
            assertArrayEquals(stream, joined.toByteArray());
        }
        assertNull(channel.readInbound());
    }

    @Test
    void aRunEndsWhereTheReadEndsNotWhereItsBufferDoes() {
        byte[] ok = packetBytes(1, new byte[] {0, 0, 0, 2, 0, 0, 0});
        ByteBuf read = Unpooled.buffer(64).writeBytes(randomBytes(64, 5)).clear().writeBytes(ok);

        channel.writeInbound(read);

        ByteBuf run = channel.readInbound();
        assertEquals(ok.length, run.capacity(), "the stale bytes after the read are not part of the run");
        run.release();
        assertEquals(0, read.refCnt(), "the run held the read's only reference");
    }

    private static int[] cutsEvery(int step, int length) {
        return IntStream.iterate(step, cut -> cut < length, cut -> cut + step).toArray();
    }
}
