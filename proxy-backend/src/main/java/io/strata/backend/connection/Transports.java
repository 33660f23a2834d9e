package io.strata.backend.connection;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import io.netty.util.concurrent.EventExecutorChooserFactory;
import io.netty.util.concurrent.ThreadPerTaskExecutor;

import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.ThreadFactory;

/** Native epoll where the platform has it (fewer syscalls and copies), NIO elsewhere. */
public final class Transports {

    private Transports() {
    }

    public static boolean nativeEpoll() {
        return Epoll.isAvailable() && !Boolean.getBoolean("strata.nio");
    }

    public static EventLoopGroup eventLoopGroup(int threads, ThreadFactory factory) {
        return nativeEpoll() ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
    }

    /** Event loops whose clients are placed by {@code chooser} ({@link ClientLoops}). */
    public static EventLoopGroup eventLoopGroup(int threads, ThreadFactory factory,
                                                EventExecutorChooserFactory chooser) {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor(factory);
        return nativeEpoll()
                ? new EpollEventLoopGroup(threads, executor, chooser, DefaultSelectStrategyFactory.INSTANCE)
                : new NioEventLoopGroup(threads, executor, chooser, SelectorProvider.provider(),
                        DefaultSelectStrategyFactory.INSTANCE);
    }

    public static Class<? extends SocketChannel> socketChannel() {
        return nativeEpoll() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public static Class<? extends ServerSocketChannel> serverSocketChannel() {
        return nativeEpoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
