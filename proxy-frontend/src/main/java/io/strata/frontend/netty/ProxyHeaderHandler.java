package io.strata.frontend.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A trusted peer's PROXY protocol header (v1 or v2, decoded by Netty's {@code HAProxyMessageDecoder} before this
 * handler): the real client's address goes to {@code start}, which sets up the MySQL connection phase, and the
 * greeting follows. A LOCAL header (a load balancer's own health check) or an UNKNOWN one keeps the peer's address.
 * A peer that sends no header within the handshake timeout, or a broken one, is closed: from a trusted network the
 * header is required.
 */
final class ProxyHeaderHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ProxyHeaderHandler.class);

    private final Consumer<SocketAddress> start;
    private final long timeoutMillis;
    private ScheduledFuture<?> timeout;

    ProxyHeaderHandler(Consumer<SocketAddress> start, long timeoutMillis) {
        this.start = start;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timeout = ctx.executor().schedule(() -> {
            LOG.debug("{} sent no PROXY protocol header in time", ctx.channel().remoteAddress());
            ctx.close();
        }, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HAProxyMessage header)) {
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        try {
            timeout.cancel(false);
            SocketAddress client = ctx.channel().remoteAddress();
            if (header.command() == HAProxyCommand.PROXY
                    && header.proxiedProtocol() != HAProxyProxiedProtocol.UNKNOWN && header.sourceAddress() != null) {
                client = new InetSocketAddress(header.sourceAddress(), header.sourcePort());
            }
            ctx.pipeline().remove(this);
            start.accept(client);
            ctx.pipeline().fireChannelActive(); // the MySQL handlers, added now, greet the client
        } finally {
            header.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("{}: a broken PROXY protocol header: {}", ctx.channel().remoteAddress(), cause.getMessage());
        ctx.close();
    }
}
