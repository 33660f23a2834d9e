package io.strata.backend.connection;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
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
        return allIo(nativeEpoll() ? new EpollEventLoopGroup(threads, factory)
                : new NioEventLoopGroup(threads, factory));
    }

    /** Event loops whose clients are placed by {@code chooser} ({@link ClientLoops}). */
    public static EventLoopGroup eventLoopGroup(int threads, ThreadFactory factory,
                                                EventExecutorChooserFactory chooser) {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor(factory);
        return allIo(nativeEpoll()
                ? new EpollEventLoopGroup(threads, executor, chooser, DefaultSelectStrategyFactory.INSTANCE)
                : new NioEventLoopGroup(threads, executor, chooser, SelectorProvider.provider(),
                        DefaultSelectStrategyFactory.INSTANCE));
    }

    /**
     * Tasks run after each round of I/O without a time budget (ioRatio 100). Below 100, the loop reads the clock
     * around every round of I/O and again while running tasks to share time between them: two to four clock reads
     * per wake-up, about 3% of Strata's user time at 16 clients. The budget buys nothing here: the tasks on these
     * loops are short hand-offs between a client and its backend connection, never long work.
     */
    private static EventLoopGroup allIo(EventLoopGroup group) {
        if (group instanceof EpollEventLoopGroup epoll) {
            epoll.setIoRatio(100);
        } else if (group instanceof NioEventLoopGroup nio) {
            nio.setIoRatio(100);
        }
        return group;
    }

    public static Class<? extends SocketChannel> socketChannel() {
        return nativeEpoll() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * The listening channel of a Unix domain socket: epoll's (the JDK's NIO has no domain sockets in Netty 4.1).
     *
     * @throws IllegalStateException when the native epoll transport is not available here
     */
    public static Class<? extends ServerChannel> serverDomainSocketChannel() {
        if (!nativeEpoll()) {
            throw new IllegalStateException("server.socket needs Netty's native epoll transport (Linux x86_64 or "
                    + "aarch64, not -Dstrata.nio=true), which is not available here: " + Epoll.unavailabilityCause());
        }
        return EpollServerDomainSocketChannel.class;
    }

    public static Class<? extends ServerSocketChannel> serverSocketChannel() {
        return nativeEpoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
