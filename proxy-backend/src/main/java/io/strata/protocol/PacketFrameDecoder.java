package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * Cuts a client's byte stream into logical {@link MySQLFrame}s. A physical packet is a 3-byte little-endian payload
 * length, a 1-byte sequence id and the payload; a payload of exactly 0xFFFFFF bytes means "more follows", possibly
 * ending with an empty packet, and those are joined into one frame. A frame's payload is a retained slice of the
 * bytes read, not a copy; a single packet's slice starts at its header, with the reader index past it, so that
 * {@link PacketEncoder#command} can send a client's command on as it came.
 *
 * <p>One decoder, not a framer and a joiner: every command passes here, and a second pipeline stage cost a hop and a
 * slice per command. (Netty's LengthFieldBasedFrameDecoder would frame too, but allocates a byte-order view per packet.)
 */
public final class PacketFrameDecoder extends ByteToMessageDecoder {

    public static final int HEADER_SIZE = 4;
    public static final int MAX_PAYLOAD = 0xFFFFFF;

    private final long maxPayload;
    private CompositeByteBuf pending;
    private int firstSequenceId;
    /** After an oversized packet the stream cannot be followed: the rest is dropped while the connection closes. */
    private boolean failed;

    /** @param maxPayload the largest logical payload accepted, in bytes (the proxy's max_allowed_packet) */
    public PacketFrameDecoder(long maxPayload) {
        this.maxPayload = maxPayload;
    }

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
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= HEADER_SIZE) {
            int length = in.getUnsignedMediumLE(in.readerIndex());
            if (pending == null && length > maxPayload) {
                // said before the packet is buffered: a client may not make Strata hold more than this
                throw tooLong("packet of " + length + " bytes");
            }
            if (in.readableBytes() < HEADER_SIZE + length) {
                return;
            }
            int sequenceId = in.getUnsignedByte(in.readerIndex() + 3);
            if (pending == null && length < MAX_PAYLOAD) {
                // the header stays in front of the payload, so a command can go to a backend as it came
                out.add(new MySQLFrame(sequenceId, in.readRetainedSlice(HEADER_SIZE + length).skipBytes(HEADER_SIZE)));
            } else {
                in.skipBytes(HEADER_SIZE);
                join(ctx, sequenceId, in.readRetainedSlice(length), length < MAX_PAYLOAD, out);
            }
        }
    }

    /** Adds a physical packet's payload to the frame being joined; emits the frame at its last packet. */
    private void join(ChannelHandlerContext ctx, int sequenceId, ByteBuf payload, boolean last, List<Object> out) {
        if (pending == null) {
            pending = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            firstSequenceId = sequenceId;
        }
        pending.addComponent(true, payload);
        if (pending.readableBytes() > maxPayload) {
            long size = pending.readableBytes();
            releasePending();
            throw tooLong("packet of more than " + size + " bytes");
        }
        if (last) {
            out.add(new MySQLFrame(firstSequenceId, sequenceId, pending));
            pending = null;
        }
    }

    /** The client hears 1153, as from MySQL, before its connection closes. */
    private TooLongFrameException tooLong(String what) {
        failed = true;
        String message = what + " exceeds max_allowed_packet " + maxPayload;
        return new TooLongFrameException(message, ErrorCode.PACKET_TOO_LARGE.exception(message));
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
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
