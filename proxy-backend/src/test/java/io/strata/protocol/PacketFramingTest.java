package io.strata.protocol;

import static io.strata.protocol.Wire.concat;
import static io.strata.protocol.Wire.hex;
import static io.strata.protocol.Wire.packetBytes;
import static io.strata.protocol.Wire.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The inbound side: bytes as they arrive from a socket, cut into packets and joined into logical frames. */
class PacketFramingTest {

    private static final int MAX = PacketFrameDecoder.MAX_PAYLOAD;
    private static final long MAX_ALLOWED_PACKET = 64L << 20;
    private static final byte[] SELECT_1 = hex("03 73 65 6c 65 63 74 20 31"); // COM_QUERY "select 1"

    private final List<EmbeddedChannel> channels = new ArrayList<>();
    private final List<MySQLFrame> frames = new ArrayList<>();

    @AfterEach
    void releaseEverything() {
        frames.forEach(MySQLFrame::release);
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private EmbeddedChannel inbound(long maxAllowedPacket) {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketFrameDecoder(maxAllowedPacket));
        channels.add(channel);
        return channel;
    }

    /** Delivers {@code stream} as separate reads, cut at the given offsets. */
    private static void receive(EmbeddedChannel channel, byte[] stream, int... cuts) {
        int from = 0;
        for (int cut : cuts) {
            channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, from, cut)));
            from = cut;
        }
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, from, stream.length)));
    }

    private MySQLFrame nextFrame(EmbeddedChannel channel) {
        MySQLFrame frame = channel.readInbound();
        assertNotNull(frame, "expected one more frame");
        frames.add(frame);
        return frame;
    }

    private static byte[] payload(MySQLFrame frame) {
        return ByteBufUtil.getBytes(frame.payload());
    }

    @Test
    void aPacketSplitInsideItsHeaderWaitsForTheRestOfIt() {
        EmbeddedChannel channel = inbound(MAX_ALLOWED_PACKET);
        byte[] stream = packetBytes(0, SELECT_1);

        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, 0, 2)));
        assertNull(channel.readInbound(), "two bytes of a header are no packet yet");
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(stream, 2, stream.length)));

        MySQLFrame frame = nextFrame(channel);
        assertEquals(0, frame.sequenceId());
        assertEquals(0, frame.lastSequenceId());
        assertArrayEquals(SELECT_1, payload(frame));
        assertNull(channel.readInbound());
    }

    @Test
    void severalPacketsInOneBufferComeOutAsSeveralFrames() {
        EmbeddedChannel channel = inbound(MAX_ALLOWED_PACKET);
        byte[] stream = concat(packetBytes(0, SELECT_1), packetBytes(1, new byte[0]), packetBytes(2, hex("0e")));

        receive(channel, stream);

        MySQLFrame first = nextFrame(channel);
        assertEquals(0, first.sequenceId());
        assertArrayEquals(SELECT_1, payload(first));
        MySQLFrame empty = nextFrame(channel);
        assertEquals(1, empty.sequenceId());
        assertEquals(0, empty.payload().readableBytes());
        MySQLFrame ping = nextFrame(channel);
        assertEquals(2, ping.sequenceId());
        assertArrayEquals(hex("0e"), payload(ping));
        assertNull(channel.readInbound());
    }

    @Test
    void everyWayOfCuttingAStreamInTwoOrThreeGivesTheSameFrames() {
        byte[][] payloads = {SELECT_1, new byte[0], hex("0e")};
        byte[] stream = concat(packetBytes(0, payloads[0]), packetBytes(1, payloads[1]), packetBytes(2, payloads[2]));

        for (int first = 1; first < stream.length; first++) {
            for (int second = first; second < stream.length; second++) {
                EmbeddedChannel channel = inbound(MAX_ALLOWED_PACKET);
                receive(channel, stream, first, second);

                for (int i = 0; i < payloads.length; i++) {
                    MySQLFrame frame = nextFrame(channel);
                    String cut = "cut at " + first + " and " + second;
                    assertEquals(i, frame.sequenceId(), cut);
                    assertArrayEquals(payloads[i], payload(frame), cut);
                }
                assertNull(channel.readInbound());
            }
        }
    }

    @Test
    void aPayloadOfExactlyMaxBytesEndsWithTheEmptyPacketAfterIt() {
        EmbeddedChannel channel = inbound(MAX_ALLOWED_PACKET);
        byte[] payload = randomBytes(MAX, 1);

        // Sequence ids wrap: the continuation of packet 255 is packet 0.
        receive(channel, packetBytes(255, payload));
        assertNull(channel.readInbound(), "a full packet means more follows");
        receive(channel, packetBytes(0, new byte[0]));

        MySQLFrame frame = nextFrame(channel);
        assertEquals(255, frame.sequenceId());
        assertEquals(0, frame.lastSequenceId());
        assertArrayEquals(payload, payload(frame));
        assertNull(channel.readInbound());
    }

    @Test
    void aTwentyMibPayloadArrivesAsAFullPacketAndTheRest() {
        EmbeddedChannel channel = inbound(MAX_ALLOWED_PACKET);
        byte[] payload = randomBytes(20 << 20, 2);
        byte[] full = packetBytes(3, Arrays.copyOfRange(payload, 0, MAX));
        byte[] rest = packetBytes(4, Arrays.copyOfRange(payload, MAX, payload.length));
        assertEquals(4 + (20 << 20) - MAX, rest.length);

        // Cut inside the second packet's header, and once more in the middle of its payload.
        receive(channel, concat(full, rest), full.length + 2, full.length + 1000);

        MySQLFrame frame = nextFrame(channel);
        assertEquals(3, frame.sequenceId());
        assertEquals(4, frame.lastSequenceId(), "a reply continues from lastSequenceId + 1");
        assertEquals(20 << 20, frame.payload().readableBytes());
        assertArrayEquals(payload, payload(frame));
        assertNull(channel.readInbound());
    }

    @Test
    void aPayloadAtMaxAllowedPacketIsAccepted() {
        EmbeddedChannel channel = inbound(MAX + 100);
        byte[] payload = randomBytes(MAX + 100, 3);

        receive(channel, concat(packetBytes(0, Arrays.copyOf(payload, MAX)),
                packetBytes(1, Arrays.copyOfRange(payload, MAX, payload.length))));

        assertArrayEquals(payload, payload(nextFrame(channel)));
    }

    @Test
    void aPayloadOverMaxAllowedPacketFailsNamingTheSizeAndTheLimit() {
        long limit = 16L << 20; // 16777216
        EmbeddedChannel channel = inbound(limit);
        byte[] stream = concat(packetBytes(0, new byte[MAX]), packetBytes(1, new byte[100]));

        var error = assertThrows(TooLongFrameException.class, () -> receive(channel, stream));

        assertTrue(error.getMessage().contains(String.valueOf(MAX + 100)), error::getMessage);
        assertTrue(error.getMessage().contains(String.valueOf(limit)), error::getMessage);
        assertTrue(error.getMessage().contains("max_allowed_packet"), error::getMessage);
        assertNull(channel.readInbound());
    }

    @Test
    void aFirstFragmentAlreadyOverMaxAllowedPacketFailsAtOnce() {
        EmbeddedChannel channel = inbound(1 << 20);

        var error = assertThrows(TooLongFrameException.class,
                () -> receive(channel, packetBytes(0, new byte[MAX])));

        assertTrue(error.getMessage().contains(String.valueOf(MAX)), error::getMessage);
        assertTrue(error.getMessage().contains(String.valueOf(1 << 20)), error::getMessage);
    }

    @Test
    void aSinglePacketOverMaxAllowedPacketFails() {
        EmbeddedChannel channel = inbound(1024);

        var error = assertThrows(TooLongFrameException.class,
                () -> receive(channel, packetBytes(0, new byte[2048])));

        assertTrue(error.getMessage().contains("2048"), error::getMessage);
        assertTrue(error.getMessage().contains("1024"), error::getMessage);
    }

    @Test
    void anOversizedPacketFailsAtItsHeaderBeforeItsPayloadIsBuffered() {
        EmbeddedChannel channel = inbound(1024);
        byte[] header = Arrays.copyOf(packetBytes(0, new byte[1 << 20]), 4);

        var error = assertThrows(TooLongFrameException.class, () -> receive(channel, header));

        assertTrue(error.getMessage().contains(String.valueOf(1 << 20)), error::getMessage);
    }

    @Test
    void withAutoReadOffOnlyAReadThatCompletedNoPacketAsksForTheNextOne() {
        AtomicInteger readRequests = new AtomicInteger();
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                readRequests.incrementAndGet();
                ctx.read();
            }
        }, new PacketFrameDecoder(MAX_ALLOWED_PACKET));
        channels.add(channel);
        channel.config().setAutoRead(false);
        readRequests.set(0);
        byte[] packet = packetBytes(0, SELECT_1);

        receive(channel, packet, 3); // a header cut short, then the rest: the first read yields nothing
        assertEquals(1, readRequests.get());
        nextFrame(channel);

        receive(channel, packet); // a whole packet: its frame is there, no read is asked for
        nextFrame(channel);
        assertEquals(1, readRequests.get());
        assertNull(channel.readInbound());
    }

    @Test
    void aFrameEndsWhereItsPacketEndsNotWhereTheReadBufferDoes() {
        EmbeddedChannel channel = inbound(MAX_ALLOWED_PACKET);
        byte[] truncatedExecute = packetBytes(0, hex("17 01")); // COM_STMT_EXECUTE cut after one byte of its id
        ByteBuf read = Unpooled.buffer(64).writeBytes(randomBytes(64, 7)).clear().writeBytes(truncatedExecute);

        channel.writeInbound(read);

        ByteBuf payload = nextFrame(channel).payload();
        assertThrows(IndexOutOfBoundsException.class, () -> payload.getIntLE(payload.readerIndex() + 1),
                "the stale bytes after the packet are not the statement id");
    }

    private EmbeddedChannel client(PacketMemory memory) {
        EmbeddedChannel channel = new EmbeddedChannel(PacketFrameDecoder.forClient(MAX_ALLOWED_PACKET, memory));
        channels.add(channel);
        return channel;
    }

    @Test
    void aLargePacketCountsAgainstTheSharedMemoryWhileItArrivesAndNotAfter() {
        PacketMemory memory = new PacketMemory(1 << 20);
        EmbeddedChannel channel = client(memory);
        ((PacketFrameDecoder) channel.pipeline().first()).loggedIn();
        byte[] stream = packetBytes(0, randomBytes(300_000, 7));

        receive(channel, Arrays.copyOfRange(stream, 0, 1000));
        assertEquals(300_000, memory.used(), "counted whole from its header");
        receive(channel, Arrays.copyOfRange(stream, 1000, stream.length));
        assertEquals(300_000, nextFrame(channel).payload().readableBytes());
        assertEquals(0, memory.used(), "whole, it is the command's");

        receive(channel, packetBytes(0, SELECT_1));
        nextFrame(channel);
        assertEquals(0, memory.used(), "small packets are not counted");
    }

    @Test
    void aPacketTheSharedMemoryCannotHoldIsRefusedWith1041AndTheOthersKeepTheirs() {
        PacketMemory memory = new PacketMemory(500_000);
        EmbeddedChannel first = client(memory);
        EmbeddedChannel second = client(memory);
        ((PacketFrameDecoder) first.pipeline().first()).loggedIn();
        ((PacketFrameDecoder) second.pipeline().first()).loggedIn();
        byte[] large = packetBytes(0, randomBytes(300_000, 8));

        receive(first, Arrays.copyOfRange(large, 0, 5000));
        Exception refused = assertThrows(Exception.class,
                () -> receive(second, Arrays.copyOfRange(large, 0, 5000)));
        assertEquals(1041, MySQLException.toErrPacket(refused).errorCode());
        assertEquals(300_000, memory.used(), "the refused one holds nothing");

        first.close();
        assertEquals(0, memory.used(), "a connection that goes gives back what it held");
    }

    @Test
    void thePartsOfALongFrameCountUntilItsLastPart() {
        PacketMemory memory = new PacketMemory(64L << 20);
        EmbeddedChannel channel = client(memory);
        ((PacketFrameDecoder) channel.pipeline().first()).loggedIn();
        byte[] stream = concat(packetBytes(0, new byte[MAX]), packetBytes(1, SELECT_1));

        receive(channel, Arrays.copyOfRange(stream, 0, MAX + 4));
        assertEquals(MAX, memory.used(), "the first part is held for the frame");
        receive(channel, Arrays.copyOfRange(stream, MAX + 4, stream.length));
        assertEquals(MAX + SELECT_1.length, nextFrame(channel).payload().readableBytes());
        assertEquals(0, memory.used());
    }

    @Test
    void beforeLoginOnlySmallPacketsAreTaken() {
        EmbeddedChannel channel = client(new PacketMemory(0));
        byte[] stream = packetBytes(1, new byte[PacketFrameDecoder.LOGIN_MAX_PAYLOAD + 1]);

        Exception refused = assertThrows(Exception.class, () -> receive(channel, Arrays.copyOfRange(stream, 0, 4)));
        assertEquals(1153, MySQLException.toErrPacket(refused).errorCode());
        assertTrue(refused.getMessage().contains("before it has logged in"), refused.getMessage());
    }
}
