package io.strata.frontend.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.strata.backend.connection.ClientLoops;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.Phases;
import io.strata.frontend.auth.ConnectionPhaseHandler;
import io.strata.frontend.command.CommandHandler;
import io.strata.kernel.Session;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.PacketMemory;

/**
 * Frame decoder and encoder, then the connection phase (replaced by the command handler on login). It is what
 * hands a connection from one phase to the other ({@link Phases}).
 */
final class FrontendChannelInitializer extends ChannelInitializer<SocketChannel> implements Phases {

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
    protected void initChannel(SocketChannel channel) {
        channel.closeFuture().addListener(closed -> clientLoops.closed(channel.eventLoop()));
        Session session = new Session(context.sessions().nextId(), channel.remoteAddress(), new ChannelClient(channel));
        channel.pipeline().addLast("framer", PacketFrameDecoder.forClient(context.config().server().maxAllowedPacket(),
                        packetMemory))
                .addLast("encoder", PacketEncoder.INSTANCE)
                .addLast("auth", new ConnectionPhaseHandler(context, this, session));
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
    private record ChannelClient(SocketChannel channel) implements Session.Client {
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
