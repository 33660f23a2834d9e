package io.strata.protocol;

import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

import java.nio.ByteOrder;

/**
 * Cuts the byte stream into physical packets: 3-byte little-endian payload length, 1-byte sequence id, payload.
 * Emits each packet whole, header included, so a relay can forward it untouched. Payloads of exactly 0xFFFFFF bytes
 * are followed by a continuation packet; {@link PacketAggregator} joins them where a whole payload is needed.
 */
public final class PacketFrameDecoder extends LengthFieldBasedFrameDecoder {

    public static final int HEADER_SIZE = 4;
    public static final int MAX_PAYLOAD = 0xFFFFFF;

    public PacketFrameDecoder() {
        super(ByteOrder.LITTLE_ENDIAN, HEADER_SIZE + MAX_PAYLOAD, 0, 3, 1, 0, true);
    }
}
