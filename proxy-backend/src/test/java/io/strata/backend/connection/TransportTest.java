package io.strata.backend.connection;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.strata.config.ServerConfig;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportTest {

    @Test
    void eachTransportIsUsedWhereTheMachineHasItAndNamedWhereItFallsBack() {
        assertEquals(Transport.NIO, Transport.configured(ServerConfig.NIO));
        assertEquals(Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO, Transport.configured(ServerConfig.EPOLL));
        Transport uring = Transport.configured(ServerConfig.IO_URING);
        if (IoUring.isAvailable()) {
            assertEquals(Transport.IO_URING, uring);
            assertNull(Transport.unavailable(ServerConfig.IO_URING));
        } else {
            assertEquals(Transport.configured(ServerConfig.EPOLL), uring);
            assertTrue(Transport.unavailable(ServerConfig.IO_URING).startsWith("io_uring is not available here"));
        }
        assertThrows(IllegalArgumentException.class, () -> Transport.configured("kqueue"));
    }

    /** Bytes go both ways over each transport's channels, and a group tells which transport its loops run. */
    @Test
    void aClientAndServerTalkOverEveryTransport() throws Exception {
        for (String name : ServerConfig.TRANSPORTS) {
            Transport transport = Transport.configured(name);
            EventLoopGroup loops = transport.eventLoopGroup(2, new DefaultThreadFactory("transport-test"));
            try {
                assertEquals(transport, Transport.of(loops));
                assertEquals("pong:ping", echo(loops), name);
            } finally {
                loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    private static String echo(EventLoopGroup loops) throws Exception {
        Channel server = new ServerBootstrap().group(loops).channel(Transport.of(loops).serverSocketChannel())
                .childOption(io.netty.channel.ChannelOption.RCVBUF_ALLOCATOR, LoopReadBuffer.INSTANCE)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf in = (ByteBuf) msg;
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(Unpooled.copiedBuffer("pong:", StandardCharsets.UTF_8),
                                in));
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        CompletableFuture<String> answer = new CompletableFuture<>();
        try {
            Channel client = new Bootstrap().group(loops).channel(Transport.of(loops).socketChannel())
                    .handler(new ChannelInboundHandlerAdapter() {
                        private final StringBuilder received = new StringBuilder();

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf in = (ByteBuf) msg;
                            received.append(in.toString(StandardCharsets.UTF_8));
                            in.release();
                            if (received.length() >= "pong:ping".length()) {
                                answer.complete(received.toString());
                            }
                        }
                    }).connect((InetSocketAddress) server.localAddress()).sync().channel();
            client.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.UTF_8));
            String result = answer.get(10, TimeUnit.SECONDS);
            client.close().sync();
            return result;
        } finally {
            server.close().sync();
        }
    }
}
