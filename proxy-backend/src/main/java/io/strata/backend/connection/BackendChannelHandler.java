package io.strata.backend.connection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Routes a backend channel's packets: to the handshake until it succeeds, then to the connection's relay. */
final class BackendChannelHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(BackendChannelHandler.class);

    private final BackendHandshake handshake;
    private BackendConnection connection;

    BackendChannelHandler(BackendHandshake handshake) {
        this.handshake = handshake;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf packet = (ByteBuf) msg;
        if (connection != null) {
            connection.onPacket(packet);
            return;
        }
        try {
            connection = handshake.accept(ctx.channel(), packet);
        } finally {
            packet.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.onReadComplete();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.onClosed();
        } else {
            handshake.fail("the server closed the connection during the handshake");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("backend connection {} failed", connection, cause);
        if (connection == null) {
            handshake.fail(BackendConnector.describe(cause));
        }
        ctx.close();
    }
}
