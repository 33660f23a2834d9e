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

    /** The largest payload a client may send before it has logged in: a handshake response with its attributes. */
    public static final int LOGIN_MAX_PAYLOAD = 128 * 1024;

    /** The largest payload after login (max_allowed_packet); before it, {@link #limit()} is at most the login's. */
    private final long maxPayload;
    private boolean loggedIn;
    private final PacketMemory memory;
    /** Bytes this connection holds of {@link #memory}: the packet arriving, and the parts of a frame being joined. */
    private long reserved;
    /** Whether the packet at the head of the stream was already weighed against {@link #memory}. */
    private boolean headWeighed;
    private CompositeByteBuf pending;
    private int firstSequenceId;
    /** After an oversized packet the stream cannot be followed: the rest is dropped while the connection closes. */
    private boolean failed;

    /** @param maxPayload the largest logical payload accepted, in bytes (the proxy's max_allowed_packet) */
    public PacketFrameDecoder(long maxPayload) {
        this(maxPayload, true, new PacketMemory(0));
    }

    /**
     * A client connection's decoder: until {@link #loggedIn} it takes packets of at most {@link #LOGIN_MAX_PAYLOAD}
     * bytes, so that no one makes Strata hold a large packet before showing a password.
     *
     * @param maxPayload the largest logical payload accepted after login (the proxy's max_allowed_packet)
     * @param memory     what all client connections share for packets still arriving
     */
    public static PacketFrameDecoder forClient(long maxPayload, PacketMemory memory) {
        return new PacketFrameDecoder(maxPayload, false, memory);
    }

    private PacketFrameDecoder(long maxPayload, boolean loggedIn, PacketMemory memory) {
        this.maxPayload = maxPayload;
        this.loggedIn = loggedIn;
        this.memory = memory;
    }

    /** The client has logged in: its packets may now be as large as max_allowed_packet. */
    public void loggedIn() {
        loggedIn = true;
    }

    /** The largest payload accepted now. */
    private long limit() {
        return loggedIn ? maxPayload : Math.min(maxPayload, LOGIN_MAX_PAYLOAD);
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
            if (pending == null && length > limit()) {
                // said before the packet is buffered: a client may not make Strata hold more than this
                throw tooLong("packet of " + length + " bytes");
            }
            boolean joined = pending != null || length == MAX_PAYLOAD;
            if (in.readableBytes() < HEADER_SIZE + length) {
                weigh(length); // it is being buffered: it counts from now
                return;
            }
            if (joined) {
                weigh(length); // a part of a long frame stays held until the frame's last part
            }
            headWeighed = false;
            int sequenceId = in.getUnsignedByte(in.readerIndex() + 3);
            if (!joined) {
                // the header stays in front of the payload, so a command can go to a backend as it came
                out.add(new MySQLFrame(sequenceId, in.readRetainedSlice(HEADER_SIZE + length).skipBytes(HEADER_SIZE)));
            } else {
                in.skipBytes(HEADER_SIZE);
                join(ctx, sequenceId, in.readRetainedSlice(length), length < MAX_PAYLOAD, out);
            }
            if (pending == null) {
                releaseReserved(); // whole: what happens to it now is the command's, not the stream's
            }
            if (!loggedIn && !out.isEmpty()) {
                // One packet at a time before login, handed on before the next is read: after an SSLRequest the
                // bytes that follow are TLS, which the connection phase takes (takeRemaining) for its TLS handler.
                return;
            }
        }
    }

    /** Counts the packet at the head against the shared memory, once, if it is large enough to count. */
    private void weigh(int length) {
        if (headWeighed) {
            return;
        }
        headWeighed = true;
        if (length > PacketMemory.UNCOUNTED) {
            if (!memory.reserve(length)) {
                releasePending();
                releaseReserved();
                failed = true;
                MySQLException error = ErrorCode.OUT_OF_PACKET_MEMORY.exception(memory.used(), memory.limit());
                throw new TooLongFrameException(error.getMessage(), error);
            }
            reserved += length;
        }
    }

    private void releaseReserved() {
        if (reserved > 0) {
            memory.release(reserved);
            reserved = 0;
        }
    }

    /** Adds a physical packet's payload to the frame being joined; emits the frame at its last packet. */
    private void join(ChannelHandlerContext ctx, int sequenceId, ByteBuf payload, boolean last, List<Object> out) {
        if (pending == null) {
            pending = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            firstSequenceId = sequenceId;
        }
        pending.addComponent(true, payload);
        if (pending.readableBytes() > limit()) {
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
        String message = what + (loggedIn ? " exceeds max_allowed_packet " + maxPayload
                : " exceeds the " + limit() + " bytes a client may send before it has logged in");
        return new TooLongFrameException(message, ErrorCode.PACKET_TOO_LARGE.exception(message));
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        releasePending();
        releaseReserved();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releasePending();
        releaseReserved();
        super.channelInactive(ctx);
    }

    private void releasePending() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
