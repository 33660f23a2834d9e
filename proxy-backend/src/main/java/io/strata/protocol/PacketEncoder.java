package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.util.List;

/**
 * Writes a logical {@link MySQLFrame} as one or more physical packets: payloads of 0xFFFFFF bytes or more are split,
 * and a payload that is an exact multiple of 0xFFFFFF ends with an empty packet. Payload bytes are sliced, not
 * copied. Plain {@link ByteBuf}s pass through untouched (already framed, e.g. relayed backend packets).
 */
@ChannelHandler.Sharable
public final class PacketEncoder extends MessageToMessageEncoder<MySQLFrame> {

    public static final PacketEncoder INSTANCE = new PacketEncoder();

    @Override
    protected void encode(ChannelHandlerContext ctx, MySQLFrame frame, List<Object> out) {
        ByteBuf payload = frame.payload();
        int sequenceId = frame.sequenceId();
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

    private static ByteBuf header(ChannelHandlerContext ctx, int length, int sequenceId) {
        return ctx.alloc().ioBuffer(4).writeMediumLE(length).writeByte(sequenceId);
    }
}
