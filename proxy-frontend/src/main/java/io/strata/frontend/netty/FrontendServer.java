package io.strata.frontend.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.strata.frontend.FrontendContext;

import java.net.InetSocketAddress;

import io.strata.backend.connection.ClientLoops;
import io.strata.backend.connection.LoopReadBuffer;
import io.strata.backend.connection.Transports;

/** The listening socket: accepts clients on the shared event loops (the backend connections use the same loops). */
public final class FrontendServer implements AutoCloseable {

    private final Channel channel;

    private FrontendServer(Channel channel) {
        this.channel = channel;
    }

    /** @param clientLoops the workers' chooser of client loops, told of each client's close */
    public static FrontendServer bind(FrontendContext context, EventLoopGroup boss, EventLoopGroup workers,
                                      ClientLoops clientLoops) throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(Transports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, LoopReadBuffer.INSTANCE)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new FrontendChannelInitializer(context, clientLoops));
        String host = context.config().server().host();
        int port = context.config().server().port();
        return new FrontendServer(bootstrap.bind(host, port).sync().channel());
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
