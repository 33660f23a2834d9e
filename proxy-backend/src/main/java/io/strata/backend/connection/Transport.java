package io.strata.backend.connection;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorChooserFactory;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import io.strata.config.ServerConfig;

import java.util.concurrent.ThreadFactory;

/**
 * How the event loops do socket I/O ({@code server.transport}). Netty's event loops run I/O and then their tasks
 * without a time budget between the two, which suits these loops: their tasks are short hand-offs between a client
 * and its backend connection.
 */
public enum Transport {

    /** Linux's epoll: the loop waits for sockets to be ready, then reads or writes each with a system call. */
    EPOLL(ServerConfig.EPOLL, EpollIoHandler.class, EpollSocketChannel.class, EpollServerSocketChannel.class),
    /**
     * Linux's io_uring: reads and writes are queued in rings shared with the kernel, and one system call submits
     * and reaps many of them, so a busy loop makes fewer calls per query than with epoll.
     */
    IO_URING(ServerConfig.IO_URING, IoUringIoHandler.class, IoUringSocketChannel.class,
            IoUringServerSocketChannel.class),
    /** The JDK's selector: any platform. */
    NIO(ServerConfig.NIO, NioIoHandler.class, NioSocketChannel.class, NioServerSocketChannel.class);

    private final String configName;
    private final Class<? extends IoHandler> handler;
    private final Class<? extends SocketChannel> socketChannel;
    private final Class<? extends ServerSocketChannel> serverSocketChannel;

    Transport(String configName, Class<? extends IoHandler> handler, Class<? extends SocketChannel> socketChannel,
              Class<? extends ServerSocketChannel> serverSocketChannel) {
        this.configName = configName;
        this.handler = handler;
        this.socketChannel = socketChannel;
        this.serverSocketChannel = serverSocketChannel;
    }

    /**
     * The configured transport where this machine has it, else the next best: io_uring falls back to epoll (a
     * kernel may forbid io_uring, e.g. {@code kernel.io_uring_disabled}), epoll to NIO (not Linux).
     */
    public static Transport configured(String name) {
        Transport wanted = named(name);
        if (wanted == IO_URING && !IoUring.isAvailable()) {
            wanted = EPOLL;
        }
        return wanted == EPOLL && !Epoll.isAvailable() ? NIO : wanted;
    }

    /** Why the configured transport is not the one {@link #configured} gives, or null when it is. */
    public static String unavailable(String name) {
        Transport wanted = named(name);
        if (wanted == IO_URING && !IoUring.isAvailable()) {
            return "io_uring is not available here (" + IoUring.unavailabilityCause() + ")";
        }
        if (wanted != NIO && !Epoll.isAvailable()) {
            return "epoll is not available here (" + Epoll.unavailabilityCause() + ")";
        }
        return null;
    }

    private static Transport named(String name) {
        for (Transport transport : values()) {
            if (transport.configName.equals(name)) {
                return transport;
            }
        }
        throw new IllegalArgumentException("transport must be one of " + ServerConfig.TRANSPORTS + ", got " + name);
    }

    /** The transport of a group's loops, so a channel registered with them is of the matching kind. */
    public static Transport of(EventLoopGroup group) {
        EventExecutor loop = group.iterator().next(); // not next(): a chooser may count its picks
        if (loop instanceof IoEventLoop io) {
            for (Transport transport : values()) {
                if (io.isIoType(transport.handler)) {
                    return transport;
                }
            }
        }
        throw new IllegalArgumentException("event loops of an unknown transport: " + loop);
    }

    /** @param threads 0 for Netty's default (twice the CPUs) */
    public EventLoopGroup eventLoopGroup(int threads, ThreadFactory factory) {
        return new MultiThreadIoEventLoopGroup(threads, factory, handlers());
    }

    /** Event loops whose clients are placed by {@code chooser} ({@link ClientLoops}). */
    public EventLoopGroup eventLoopGroup(int threads, ThreadFactory factory, EventExecutorChooserFactory chooser) {
        return new MultiThreadIoEventLoopGroup(threads, new ThreadPerTaskExecutor(factory), chooser, handlers());
    }

    private IoHandlerFactory handlers() {
        return switch (this) {
            case EPOLL -> EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
    }

    public Class<? extends SocketChannel> socketChannel() {
        return socketChannel;
    }

    public Class<? extends ServerSocketChannel> serverSocketChannel() {
        return serverSocketChannel;
    }

    @Override
    public String toString() {
        return configName;
    }
}
