package io.strata.backend.connection;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.PacketEncoder;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Opens native connections to a backend server and authenticates them (see {@link BackendHandshake}). */
public final class BackendConnector {

    /** The character set every backend connection starts with (collation id 45, utf8mb4_general_ci). */
    public static final String DEFAULT_CHARSET = "utf8mb4";
    static final int DEFAULT_COLLATION_ID = 45;

    private final EventLoopGroup group;
    private volatile String lastServerVersion;

    public BackendConnector(EventLoopGroup group) {
        this.group = group;
    }

    /**
     * Connects and authenticates. {@code flavor} holds the client capability bits the connection must share with the
     * clients it will serve ({@link io.strata.protocol.Capabilities#FLAVOR_MASK}). The future fails with a
     * {@link io.strata.protocol.MySQLException} naming the data source when the server is unreachable or refuses.
     */
    public CompletableFuture<BackendConnection> connect(DataSourceConfig dataSource, int flavor) {
        return connect(dataSource, flavor, group);
    }

    /** @param loop the event loop (or group) the new connection's channel is registered with */
    public CompletableFuture<BackendConnection> connect(DataSourceConfig dataSource, int flavor,
                                                        EventLoopGroup loop) {
        CompletableFuture<BackendConnection> result = new CompletableFuture<>();
        BackendHandshake handshake = new BackendHandshake(dataSource, flavor, result);
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(Transports.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.RCVBUF_ALLOCATOR, LoopReadBuffer.INSTANCE)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(dataSource.connectionTimeoutMillis(),
                        Integer.MAX_VALUE))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(PacketEncoder.INSTANCE, new BackendChannelHandler(handshake));
                    }
                });
        result.thenAccept(connection -> lastServerVersion = connection.serverVersion());
        ChannelFuture connect = bootstrap.connect(dataSource.host(), dataSource.port());
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(ErrorCode.BACKEND_UNAVAILABLE.exception(dataSource.describe(),
                        dataSource.host() + ":" + dataSource.port() + ": " + describe(f.cause())));
            } else {
                giveUpAfter(connect.channel(), dataSource, handshake, result);
            }
        });
        return result;
    }

    /**
     * Bounds the greeting and login after the TCP connect (which CONNECT_TIMEOUT_MILLIS bounds) by connectionTimeout:
     * a server that hangs (stopped, or behind a network that swallows packets) still completes the connect from its
     * kernel's backlog, and its greeting would never come. Failing the open lets a read go to another replica, as
     * when the connect is refused. Runs on the channel's loop, where the handshake runs: no race with its end.
     */
    private static void giveUpAfter(Channel channel, DataSourceConfig dataSource, BackendHandshake handshake,
                                    CompletableFuture<BackendConnection> result) {
        long millis = dataSource.connectionTimeoutMillis();
        var deadline = channel.eventLoop().schedule(() -> {
            if (!result.isDone()) {
                handshake.fail("no greeting and login within connectionTimeout (" + millis + " ms)");
                channel.close();
            }
        }, millis, TimeUnit.MILLISECONDS);
        result.whenComplete((connection, error) -> deadline.cancel(false));
    }

    /** The version string of the last backend that accepted a connection, or null before the first. */
    public String lastServerVersion() {
        return lastServerVersion;
    }

    static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }
}
