package io.strata.frontend.netty;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.strata.backend.connection.ClientLoops;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.auth.ConnectionPhaseHandler;
import io.strata.frontend.session.Session;
import io.strata.protocol.PacketEncoder;
import io.strata.protocol.PacketFrameDecoder;

/** Frame decoder and encoder, then the connection phase (replaced by the command handler on login). */
final class FrontendChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final FrontendContext context;
    private final ClientLoops clientLoops;

    FrontendChannelInitializer(FrontendContext context, ClientLoops clientLoops) {
        this.context = context;
        this.clientLoops = clientLoops;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.closeFuture().addListener(closed -> clientLoops.closed(channel.eventLoop()));
        Session session = new Session(context.sessions().nextId(), channel);
        channel.pipeline().addLast("framer", new PacketFrameDecoder(context.config().server().maxAllowedPacket()))
                .addLast("encoder", PacketEncoder.INSTANCE)
                .addLast("auth", new ConnectionPhaseHandler(context, session));
    }
}
