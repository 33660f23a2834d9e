package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * Joins physical packets (from {@link PacketFrameDecoder}) into logical {@link MySQLFrame}s: a payload of exactly
 * 0xFFFFFF bytes means "more follows", possibly ending with an empty packet.
 */
public final class PacketAggregator extends MessageToMessageDecoder<ByteBuf> {

    private final long maxPayload;
    private CompositeByteBuf pending;
    private int firstSequenceId;

    /** @param maxPayload the largest logical payload accepted, in bytes (the proxy's max_allowed_packet) */
    public PacketAggregator(long maxPayload) {
        this.maxPayload = maxPayload;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf packet, List<Object> out) {
        int length = packet.getUnsignedMediumLE(packet.readerIndex());
        int sequenceId = packet.getUnsignedByte(packet.readerIndex() + 3);
        if (pending == null && length > maxPayload) {
            throw new TooLongFrameException("packet of " + length + " bytes exceeds max_allowed_packet "
                    + maxPayload);
        }
        ByteBuf payload = packet.retainedSlice(packet.readerIndex() + PacketFrameDecoder.HEADER_SIZE, length);
        if (pending == null && length < PacketFrameDecoder.MAX_PAYLOAD) {
            out.add(new MySQLFrame(sequenceId, payload));
            return;
        }
        if (pending == null) {
            pending = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            firstSequenceId = sequenceId;
        }
        pending.addComponent(true, payload);
        if (pending.readableBytes() > maxPayload) {
            long size = pending.readableBytes();
            releasePending();
            throw new TooLongFrameException("packet of more than " + size + " bytes exceeds max_allowed_packet "
                    + maxPayload);
        }
        if (length < PacketFrameDecoder.MAX_PAYLOAD) {
            out.add(new MySQLFrame(firstSequenceId, sequenceId, pending));
            pending = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releasePending();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releasePending();
        super.channelInactive(ctx);
    }

    private void releasePending() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
