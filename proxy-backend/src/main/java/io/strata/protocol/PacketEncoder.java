package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundInvoker;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.util.List;

/**
 * Writes a logical {@link MySQLFrame} as one or more physical packets: payloads of 0xFFFFFF bytes or more are split,
 * and a payload that is an exact multiple of 0xFFFFFF ends with an empty packet. A small payload is copied behind
 * its header into one buffer; larger ones are sliced, not copied. Plain {@link ByteBuf}s pass through untouched
 * (already framed, e.g. relayed backend packets).
 */
@ChannelHandler.Sharable
public final class PacketEncoder extends MessageToMessageEncoder<MySQLFrame> {

    public static final PacketEncoder INSTANCE = new PacketEncoder();
    /**
     * Payloads up to this size go out as one buffer, header included: copying a statement's few hundred bytes costs
     * less than a header buffer, a payload slice and a second message through the pipeline and the socket write
     * (jmh FramingBenchmark.encodeBatch).
     */
    public static final int COPY_LIMIT = 2048;

    /**
     * A command for a backend (sequence id 0), ready for the wire: the client's own packet when the payload still has
     * its header in front, else one new buffer when small, which then passes this encoder untouched, else a frame for
     * it to split. {@code payload} is released, now or once written.
     */
    public static Object command(ByteBufAllocator alloc, ByteBuf payload) {
        if (hasOwnHeader(payload)) {
            return payload.readerIndex(payload.readerIndex() - PacketFrameDecoder.HEADER_SIZE);
        }
        if (payload.readableBytes() > COPY_LIMIT) {
            return new MySQLFrame(0, payload);
        }
        try {
            return packet(alloc, 0, payload);
        } finally {
            payload.release();
        }
    }

    /**
     * Where packets that are already framed (a {@link ByteBuf}, not a {@link MySQLFrame}) are written from: the
     * encoder's own context, so they go on toward the socket (and TLS, where a client has it) without passing
     * through the encoder, which would only hand them on; the relay's writes per statement skip that step. The
     * channel itself where the pipeline has no encoder.
     */
    public static ChannelOutboundInvoker wire(Channel channel) {
        ChannelHandlerContext encoder = channel.pipeline().context(INSTANCE);
        return encoder != null ? encoder : channel;
    }

    /**
     * Whether the bytes just before the payload are the header a command needs: its length and sequence id 0. A
     * client's command arrives that way ({@link PacketFrameDecoder} leaves the header in front of the payload), and is
     * then sent on as it came, with no buffer to allocate and nothing to copy; the check itself makes it exact.
     */
    private static boolean hasOwnHeader(ByteBuf payload) {
        int start = payload.readerIndex();
        return start >= PacketFrameDecoder.HEADER_SIZE && payload.readableBytes() < PacketFrameDecoder.MAX_PAYLOAD
                && payload.getByte(start - 1) == 0
                && payload.getUnsignedMediumLE(start - PacketFrameDecoder.HEADER_SIZE) == payload.readableBytes();
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, MySQLFrame frame, List<Object> out) {
        ByteBuf payload = frame.payload();
        int sequenceId = frame.sequenceId();
        if (payload.readableBytes() <= COPY_LIMIT) {
            out.add(packet(ctx.alloc(), sequenceId, payload));
            return;
        }
        while (true) {
            int length = Math.min(payload.readableBytes(), PacketFrameDecoder.MAX_PAYLOAD);
            out.add(header(ctx, length, sequenceId));
            if (length > 0) {
                out.add(payload.readRetainedSlice(length));
            }
            sequenceId = (sequenceId + 1) & 0xFF;
            if (length < PacketFrameDecoder.MAX_PAYLOAD) {
                return;
            }
        }
    }

    /** Number of physical packets {@code payloadLength} bytes take, i.e. how far the sequence id advances. */
    public static int packetCount(int payloadLength) {
        return payloadLength / PacketFrameDecoder.MAX_PAYLOAD + 1;
    }

    /** One whole packet: header and a copy of the payload's readable bytes (the payload itself is left as it is). */
    private static ByteBuf packet(ByteBufAllocator alloc, int sequenceId, ByteBuf payload) {
        return append(alloc.ioBuffer(PacketFrameDecoder.HEADER_SIZE + payload.readableBytes()), sequenceId, payload);
    }

    /**
     * A whole packet of a payload under {@link PacketFrameDecoder#MAX_PAYLOAD} written at the end of {@code out}:
     * header, then a copy of the payload's readable bytes (the payload itself is left as it is). Returns {@code out}.
     */
    public static ByteBuf append(ByteBuf out, int sequenceId, ByteBuf payload) {
        int length = payload.readableBytes();
        return out.writeMediumLE(length).writeByte(sequenceId).writeBytes(payload, payload.readerIndex(), length);
    }

    private static ByteBuf header(ChannelHandlerContext ctx, int length, int sequenceId) {
        return ctx.alloc().ioBuffer(4).writeMediumLE(length).writeByte(sequenceId);
    }
}
