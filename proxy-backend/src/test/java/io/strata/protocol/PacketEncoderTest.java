package io.strata.protocol;

import static io.strata.protocol.Wire.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The outbound side: a logical frame written as physical packets. */
class PacketEncoderTest {

    private static final int MAX = PacketFrameDecoder.MAX_PAYLOAD;

    private final EmbeddedChannel channel = new EmbeddedChannel(PacketEncoder.INSTANCE);

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    record Header(int length, int sequenceId) {
    }

    /** Writes a frame and returns all the bytes that reached the wire. */
    private byte[] send(MySQLFrame frame) {
        channel.writeOutbound(frame);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (ByteBuf part; (part = channel.readOutbound()) != null; ) {
            wire.writeBytes(ByteBufUtil.getBytes(part));
            part.release();
        }
        return wire.toByteArray();
    }

    private static List<Header> headers(byte[] wire) {
        ByteBuf in = Unpooled.wrappedBuffer(wire);
        List<Header> headers = new ArrayList<>();
        while (in.isReadable()) {
            Header header = new Header(in.readUnsignedMediumLE(), in.readUnsignedByte());
            headers.add(header);
            in.skipBytes(header.length());
        }
        return headers;
    }

    /** The payloads of all packets on the wire, joined. */
    private static byte[] joinedPayloads(byte[] wire) {
        ByteBuf in = Unpooled.wrappedBuffer(wire);
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        while (in.isReadable()) {
            int length = in.readUnsignedMediumLE();
            in.skipBytes(1);
            payload.writeBytes(ByteBufUtil.getBytes(in.readSlice(length)));
        }
        return payload.toByteArray();
    }

    static Stream<Arguments> payloadSizes() {
        return Stream.of(
                argumentSet("0 bytes: one empty packet", 0,
                        List.of(new Header(0, 7))),
                argumentSet("1 byte", 1,
                        List.of(new Header(1, 7))),
                argumentSet("the copy limit: copied", PacketEncoder.COPY_LIMIT,
                        List.of(new Header(PacketEncoder.COPY_LIMIT, 7))),
                argumentSet("one byte over the copy limit: sliced", PacketEncoder.COPY_LIMIT + 1,
                        List.of(new Header(PacketEncoder.COPY_LIMIT + 1, 7))),
                argumentSet("0xFFFFFF-1 bytes: still one packet", MAX - 1,
                        List.of(new Header(MAX - 1, 7))),
                argumentSet("0xFFFFFF bytes: a full packet, then an empty one", MAX,
                        List.of(new Header(MAX, 7), new Header(0, 8))),
                argumentSet("2*0xFFFFFF+5 bytes: two full packets and the rest", 2 * MAX + 5,
                        List.of(new Header(MAX, 7), new Header(MAX, 8), new Header(5, 9))));
    }

    @ParameterizedTest
    @MethodSource("payloadSizes")
    void writesPayloadsAsPacketsOfAtMost0xFFFFFFBytes(int size, List<Header> expected) {
        byte[] payload = randomBytes(size, size);

        byte[] wire = send(new MySQLFrame(7, Unpooled.wrappedBuffer(payload)));

        assertEquals(expected, headers(wire));
        assertEquals(expected.size(), PacketEncoder.packetCount(size));
        assertArrayEquals(payload, joinedPayloads(wire));
    }

    @Test
    void sequenceIdsWrapAfter255() {
        byte[] wire = send(new MySQLFrame(255, Unpooled.wrappedBuffer(new byte[MAX])));

        assertEquals(List.of(new Header(MAX, 255), new Header(0, 0)), headers(wire));
    }

    @Test
    void theFramePayloadIsReleasedOnceItsPacketsAreWritten() {
        ByteBuf payload = Unpooled.buffer().writeBytes(new byte[]{0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00});

        send(new MySQLFrame(1, payload));

        assertEquals(0, payload.refCnt());
    }

    @Test
    void aSmallFrameGoesOutAsOneBufferAndItsPayloadIsReleased() {
        ByteBuf payload = Unpooled.wrappedBuffer(Wire.hex("03 73 65 6c 65 63 74 20 31")); // COM_QUERY "select 1"

        channel.writeOutbound(new MySQLFrame(0, payload));

        ByteBuf written = channel.readOutbound();
        assertArrayEquals(Wire.hex("09 00 00 00  03 73 65 6c 65 63 74 20 31"), ByteBufUtil.getBytes(written));
        written.release();
        assertNull(channel.readOutbound(), "one write, not a header and a payload");
        assertEquals(0, payload.refCnt());
    }

    @Test
    void aCommandForABackendIsOnePacketBufferWhenSmallAndAFrameWhenLarge() {
        ByteBuf small = Unpooled.wrappedBuffer(Wire.hex("0e")); // COM_PING
        ByteBuf packet = (ByteBuf) PacketEncoder.command(channel.alloc(), small);
        assertArrayEquals(Wire.hex("01 00 00 00  0e"), ByteBufUtil.getBytes(packet));
        assertEquals(0, small.refCnt());
        packet.release();

        ByteBuf large = Unpooled.wrappedBuffer(randomBytes(PacketEncoder.COPY_LIMIT + 1, 5));
        MySQLFrame frame = (MySQLFrame) PacketEncoder.command(channel.alloc(), large);
        assertSame(large, frame.payload());
        assertEquals(0, frame.sequenceId());
        frame.release();
    }

    @Test
    void aClientsCommandGoesToTheBackendAsItCameWithNoCopy() {
        EmbeddedChannel client = new EmbeddedChannel(new PacketFrameDecoder(1 << 20));
        byte[] select1 = Wire.hex("09 00 00 00  03 73 65 6c 65 63 74 20 31"); // COM_QUERY "select 1", sequence id 0
        client.writeInbound(Unpooled.wrappedBuffer(select1));
        MySQLFrame frame = client.readInbound();

        ByteBuf packet = (ByteBuf) PacketEncoder.command(channel.alloc(), frame.payload());

        assertSame(frame.payload(), packet);
        assertArrayEquals(select1, ByteBufUtil.getBytes(packet));
        packet.release();
        client.finishAndReleaseAll();
    }

    @Test
    void aCommandThatCameWithAnotherSequenceIdIsCopiedBehindAHeaderOfItsOwn() {
        EmbeddedChannel client = new EmbeddedChannel(new PacketFrameDecoder(1 << 20));
        client.writeInbound(Unpooled.wrappedBuffer(Wire.hex("01 00 00 03  0e"))); // COM_PING, sequence id 3
        MySQLFrame frame = client.readInbound();
        ByteBuf payload = frame.payload();

        ByteBuf packet = (ByteBuf) PacketEncoder.command(channel.alloc(), payload);

        assertArrayEquals(Wire.hex("01 00 00 00  0e"), ByteBufUtil.getBytes(packet));
        assertEquals(0, payload.refCnt());
        packet.release();
        client.finishAndReleaseAll();
    }

    @Test
    void alreadyFramedBuffersPassThroughUntouched() {
        ByteBuf relayed = Unpooled.wrappedBuffer(Wire.hex("07 00 00 01  00 01 00 02 00 00 00"));

        channel.writeOutbound(relayed);

        ByteBuf written = channel.readOutbound();
        assertSame(relayed, written);
        written.release();
        assertNull(channel.readOutbound());
    }

    @Test
    void whatTheEncoderWritesTheDecoderJoinsBackByteForByte() {
        byte[] payload = randomBytes(2 * MAX + 5, 42);
        byte[] wire = send(new MySQLFrame(0, Unpooled.wrappedBuffer(payload)));

        EmbeddedChannel inbound = new EmbeddedChannel(new PacketFrameDecoder(64L << 20));
        try {
            inbound.writeInbound(Unpooled.wrappedBuffer(wire));
            MySQLFrame frame = inbound.readInbound();
            try {
                assertEquals(0, frame.sequenceId());
                assertEquals(2, frame.lastSequenceId());
                assertArrayEquals(payload, ByteBufUtil.getBytes(frame.payload()));
            } finally {
                frame.release();
            }
        } finally {
            inbound.finishAndReleaseAll();
        }
    }

    /** Notes each message written through it, and passes it on. */
    private static final class Witness extends ChannelOutboundHandlerAdapter {
        final List<Object> seen = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            seen.add(msg);
            ctx.write(msg, promise);
        }
    }

    @Test
    void framedPacketsWrittenFromTheWireGoOnTowardTheSocketPastTheEncoder() {
        Witness socketSide = new Witness(); // where TLS sits for a client that has it
        Witness behind = new Witness(); // a handler after the encoder, like the command handler
        EmbeddedChannel client = new EmbeddedChannel();
        client.pipeline().addLast(socketSide, PacketEncoder.INSTANCE, behind);
        try {
            ByteBuf run = Unpooled.wrappedBuffer(new byte[] {1, 0, 0, 1, 0x00});

            PacketEncoder.wire(client).writeAndFlush(run);

            assertSame(run, client.readOutbound(), "the same buffer reached the socket");
            assertEquals(List.of(run), socketSide.seen);
            assertEquals(List.of(), behind.seen);
        } finally {
            client.finishAndReleaseAll();
        }
    }

    @Test
    void withoutAnEncoderTheWireIsTheChannel() {
        EmbeddedChannel plain = new EmbeddedChannel();
        try {
            assertSame(plain, PacketEncoder.wire(plain));
        } finally {
            plain.finishAndReleaseAll();
        }
    }
}
