package io.strata.frontend.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.Channel;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.strata.backend.connection.ClientLoops;
import io.strata.config.ProxyProtocolConfig;
import io.strata.config.ClientAddress;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.Phases;
import io.strata.frontend.auth.ConnectionPhaseHandler;
import io.strata.frontend.command.CommandHandler;
import io.strata.kernel.Session;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.PacketMemory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Frame decoder and encoder, then the connection phase (replaced by the command handler on login). It is what
 * hands a connection from one phase to the other ({@link Phases}).
 */
final class FrontendChannelInitializer extends ChannelInitializer<Channel> implements Phases {

    private final FrontendContext context;
    private final ClientLoops clientLoops;
    /** What every client's packets still arriving may hold together (server.packetMemory). */
    private final PacketMemory packetMemory;

    FrontendChannelInitializer(FrontendContext context, ClientLoops clientLoops) {
        this.context = context;
        this.clientLoops = clientLoops;
        this.packetMemory = new PacketMemory(context.config().server().limits().packetMemory());
    }

    @Override
    protected void initChannel(Channel channel) {
        channel.closeFuture().addListener(closed -> clientLoops.closed(channel.eventLoop()));
        ProxyProtocolConfig proxy = context.config().server().proxyProtocol();
        if (proxy.enabled() && trusted(proxy, channel.remoteAddress())) {
            // the load balancer speaks first: its header, then the MySQL greeting to the client it names
            channel.pipeline().addLast("proxy-decoder", new HAProxyMessageDecoder())
                    .addLast("proxy-header", new ProxyHeaderHandler(client -> mysql(channel, client, false),
                            context.config().server().limits().handshakeTimeoutMillis()));
            return;
        }
        mysql(channel, channel.remoteAddress(), proxy.enabled());
    }

    /** The MySQL connection phase for {@code client}; with {@code refuseProxyHeaders}, a PROXY header is refused. */
    private void mysql(Channel channel, SocketAddress client, boolean refuseProxyHeaders) {
        Session session = new Session(context.sessions().nextId(), client, new ChannelClient(channel));
        if (refuseProxyHeaders) {
            channel.pipeline().addLast("proxy-refusal", new UntrustedProxyHeader());
        }
        channel.pipeline().addLast("framer", PacketFrameDecoder.forClient(context.config().server().maxAllowedPacket(),
                        packetMemory))
                .addLast("encoder", PacketEncoder.INSTANCE)
                .addLast("auth", new ConnectionPhaseHandler(context, this, session));
    }

    /** Whether the peer is one of server.proxyProtocol.trustedNetworks. */
    private static boolean trusted(ProxyProtocolConfig proxy, SocketAddress peer) {
        if (!(peer instanceof InetSocketAddress inet)) {
            return false;
        }
        String host = inet.getAddress().getHostAddress();
        for (String network : proxy.trustedNetworks()) {
            if (ClientAddress.parse(network).matches(host)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public ChannelHandler commands(Session session) {
        return new CommandHandler(context, this, session);
    }

    @Override
    public ChannelHandler changeUser(Session session, HandshakeResponse41 response, int sequenceId) {
        return ConnectionPhaseHandler.changeUser(context, this, session, response, sequenceId);
    }

    /** A session's client end on Netty: closing it closes the channel; a stop goes down its pipeline. */
    private record ChannelClient(Channel channel) implements Session.Client {
        @Override
        public void close() {
            channel.close();
        }

        @Override
        public void stopAtBoundary() {
            channel.pipeline().fireUserEventTriggered(CommandHandler.STOP_AT_BOUNDARY);
        }
    }
}
