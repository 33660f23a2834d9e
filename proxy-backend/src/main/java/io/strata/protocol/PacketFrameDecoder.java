package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Cuts the byte stream into physical packets: 3-byte little-endian payload length, 1-byte sequence id, payload.
 * Emits each packet whole, header included, as a retained slice, so a relay can forward it untouched. Payloads of
 * exactly 0xFFFFFF bytes are followed by a continuation packet; {@link PacketAggregator} joins them where a whole
 * payload is needed. (Netty's LengthFieldBasedFrameDecoder would do, but allocates a byte-order view per packet.)
 */
public final class PacketFrameDecoder extends ByteToMessageDecoder {

    public static final int HEADER_SIZE = 4;
    public static final int MAX_PAYLOAD = 0xFFFFFF;

    /**
     * The bytes received but not yet cut into packets, taken out of this decoder (null when there are none). On an
     * SSLRequest, what follows it is the client's TLS handshake, which must go through the TLS handler instead.
     */
    public ByteBuf takeRemaining() {
        ByteBuf buffered = internalBuffer();
        return buffered.isReadable() ? buffered.readRetainedSlice(buffered.readableBytes()) : null;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= HEADER_SIZE) {
            int length = in.getUnsignedMediumLE(in.readerIndex());
            if (in.readableBytes() < HEADER_SIZE + length) {
                return;
            }
            out.add(in.readRetainedSlice(HEADER_SIZE + length));
        }
    }
}
