package io.strata.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Cuts the byte stream after its last whole packet: each read yields a run of whole packets for
 * {@link #runRead}, and a packet cut by the end of a read is completed from the next reads and passed on alone.
 * A relay forwards a run as one buffer, so a 100-row result costs one write instead of a hundred, and never a
 * partial packet: when the server dies mid-response, what the client got still ends on a packet boundary. Reading
 * the packets inside a run is {@link #packetSize} at each offset.
 *
 * <p>Only the bytes of a cut packet are copied. (Netty's ByteToMessageDecoder would copy every read after a cut one
 * into its cumulation while slices of it are in flight, and grow that buffer without bound on a long result.)
 *
 * <p>The handler that takes the runs extends this class rather than sitting behind it in the pipeline: every
 * response passes here, and a pipeline stage costs a hop per read and per read batch.
 */
public abstract class PacketRunDecoder extends ChannelInboundHandlerAdapter {

    private ByteBuf partial;
    private boolean ranInThisBatch;

    /** The size of the packet at {@code index}, header included. */
    public static int packetSize(ByteBuf buf, int index) {
        return PacketFrameDecoder.HEADER_SIZE + buf.getUnsignedMediumLE(index);
    }

    /** A run of whole packets, from its reader index to its writer index; the callee owns (releases) it. */
    protected abstract void runRead(ChannelHandlerContext ctx, ByteBuf run);

    /** The end of a batch of reads. */
    protected abstract void readComplete(ChannelHandlerContext ctx);

    /** The channel closed (a cut packet it left is released already). */
    protected abstract void closed(ChannelHandlerContext ctx);

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        boolean handedOn = false;
        try {
            if (partial != null) {
                if (!complete(in)) {
                    return;
                }
                ByteBuf packet = partial;
                partial = null;
                run(ctx, packet);
            }
            int start = in.readerIndex();
            int end = endOfWholePackets(in);
            if (end > start && end == in.writerIndex()) {
                // The read ends with a whole packet, as it usually does: its run takes the read's own reference, in
                // a plain slice (no retain, no recycled object) bounded to what was read, for the buffer holds stale
                // bytes beyond.
                handedOn = true;
                run(ctx, in.slice(start, end - start));
                return;
            }
            if (end > start) {
                run(ctx, in.retainedSlice(start, end - start));
            }
            if (end < in.writerIndex()) {
                in.readerIndex(end);
                int known = in.readableBytes() >= PacketFrameDecoder.HEADER_SIZE ? packetSize(in, end) : 64;
                partial = ctx.alloc().buffer(known);
                partial.writeBytes(in);
            }
        } finally {
            if (!handedOn) {
                in.release();
            }
        }
    }

    /** With auto-read off, a read that completed no packet must ask for the next one itself, or the stream stalls. */
    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        if (!ranInThisBatch && !ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
        ranInThisBatch = false;
        readComplete(ctx);
    }

    @Override
    public final void channelInactive(ChannelHandlerContext ctx) {
        releasePartial();
        closed(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releasePartial();
    }

    private void run(ChannelHandlerContext ctx, ByteBuf run) {
        ranInThisBatch = true;
        runRead(ctx, run);
    }

    private static int endOfWholePackets(ByteBuf in) {
        int end = in.writerIndex();
        int index = in.readerIndex();
        while (end - index >= PacketFrameDecoder.HEADER_SIZE) {
            int size = packetSize(in, index);
            if (end - index < size) {
                break;
            }
            index += size;
        }
        return index;
    }

    /** Moves bytes of {@code in} into the cut packet; whether it is whole now. */
    private boolean complete(ByteBuf in) {
        int header = PacketFrameDecoder.HEADER_SIZE;
        if (partial.readableBytes() < header) {
            partial.writeBytes(in, Math.min(header - partial.readableBytes(), in.readableBytes()));
            if (partial.readableBytes() < header) {
                return false;
            }
        }
        int missing = packetSize(partial, partial.readerIndex()) - partial.readableBytes();
        partial.writeBytes(in, Math.min(missing, in.readableBytes()));
        return partial.readableBytes() == packetSize(partial, partial.readerIndex());
    }

    private void releasePartial() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }
}
