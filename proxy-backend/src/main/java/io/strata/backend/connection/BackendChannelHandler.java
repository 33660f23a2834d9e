package io.strata.backend.connection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.strata.protocol.PacketRunDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Routes a backend channel's packets (in runs): to the handshake until it succeeds, then to the connection's relay. */
final class BackendChannelHandler extends PacketRunDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(BackendChannelHandler.class);

    private final BackendHandshake handshake;
    private BackendConnection connection;

    BackendChannelHandler(BackendHandshake handshake) {
        this.handshake = handshake;
    }

    @Override
    protected void runRead(ChannelHandlerContext ctx, ByteBuf run) {
        if (connection != null) {
            connection.onPackets(run);
            return;
        }
        try {
            for (int index = run.readerIndex(); index < run.writerIndex() && connection == null; ) {
                int size = PacketRunDecoder.packetSize(run, index);
                connection = handshake.accept(ctx.channel(), run.slice(index, size));
                index += size;
            }
        } finally {
            run.release();
        }
    }

    @Override
    protected void readComplete(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.onReadComplete();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.writabilityChanged();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    protected void closed(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.onClosed();
        } else {
            handshake.fail("the server closed the connection during the handshake");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException) {
            LOG.debug("backend connection {} failed", connection, cause); // the network's doing, told by the caller
        } else {
            LOG.warn("backend connection {} failed", connection, cause);
        }
        if (connection == null) {
            handshake.fail(BackendConnector.describe(cause));
        }
        ctx.close();
    }
}
