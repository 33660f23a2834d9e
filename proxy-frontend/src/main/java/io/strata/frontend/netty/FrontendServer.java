package io.strata.frontend.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.strata.frontend.FrontendContext;

import io.netty.channel.unix.DomainSocketAddress;
import io.strata.config.SocketConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

import io.strata.backend.connection.ClientLoops;
import io.strata.backend.connection.LoopReadBuffer;
import io.strata.backend.connection.Transports;

/**
 * The listening sockets: the TCP port and, with server.socket, a Unix domain socket beside it. Both accept clients on
 * the shared event loops (the backend connections use the same loops) into the same pipeline.
 */
public final class FrontendServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FrontendServer.class);

    private final Channel channel;
    /** The Unix socket's listener and file, or null. */
    private final Channel socket;
    private final Path socketFile;

    private FrontendServer(Channel channel, Channel socket, Path socketFile) {
        this.channel = channel;
        this.socket = socket;
        this.socketFile = socketFile;
    }

    /** @param clientLoops the workers' chooser of client loops, told of each client's close */
    public static FrontendServer bind(FrontendContext context, EventLoopGroup boss, EventLoopGroup workers,
                                      ClientLoops clientLoops) throws InterruptedException {
        FrontendChannelInitializer initializer = new FrontendChannelInitializer(context, clientLoops);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(Transports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, LoopReadBuffer.INSTANCE)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(initializer);
        String host = context.config().server().host();
        int port = context.config().server().port();
        Channel tcp = bootstrap.bind(host, port).sync().channel();
        SocketConfig socketConfig = context.config().server().socket();
        if (!socketConfig.enabled()) {
            return new FrontendServer(tcp, null, null);
        }
        try {
            Path file = Path.of(socketConfig.path()).toAbsolutePath();
            clearStale(file);
            Channel unix = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(Transports.serverDomainSocketChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.RCVBUF_ALLOCATOR, LoopReadBuffer.INSTANCE)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                    .childHandler(initializer)
                    .bind(new DomainSocketAddress(file.toFile())).sync().channel();
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(socketConfig.permissions()));
            LOG.info("Strata listening on Unix socket {} (mode {})", file, socketConfig.mode());
            return new FrontendServer(tcp, unix, file);
        } catch (IOException | RuntimeException e) {
            tcp.close().syncUninterruptibly();
            throw new IllegalStateException("cannot listen on the Unix socket " + socketConfig.path()
                    + " (server.socket in server.yaml): " + e.getMessage(), e);
        }
    }

    /**
     * A socket file left by a Strata that did not stop cleanly is replaced; one a live process listens on is not
     * (the start fails, naming it), and neither is a file that is no socket.
     */
    private static void clearStale(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(file));
            throw new IOException("another process listens on it");
        } catch (java.net.SocketException | java.nio.channels.UnsupportedAddressTypeException e) {
            // nobody listens: a stale socket
        }
        if (Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()) {
            Files.delete(file);
            LOG.info("removed the stale socket file {}", file);
        } else {
            throw new IOException(file + " exists and is no socket");
        }
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        if (socket != null) {
            socket.close().syncUninterruptibly();
            try {
                Files.deleteIfExists(socketFile);
            } catch (IOException e) {
                LOG.warn("cannot remove the socket file {}: {}", socketFile, e.getMessage());
            }
        }
    }
}
