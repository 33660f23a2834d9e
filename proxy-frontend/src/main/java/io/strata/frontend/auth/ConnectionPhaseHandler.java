package io.strata.frontend.auth;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.strata.config.UserConfig;
import io.strata.frontend.Databases;
import io.strata.frontend.FrontendContext;
import io.strata.frontend.compress.CompressedProtocol;
import io.strata.frontend.Phases;
import io.strata.frontend.packet.Responses;
import io.strata.kernel.Session;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.HandshakeV10;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLException;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.Scramble;
import io.strata.protocol.ServerStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Cipher;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The server side of the connection phase: greeting, HandshakeResponse41, auth switch, and caching_sha2_password's
 * fast or full (RSA key exchange) authentication, then the database check. On success it hands the channel to the
 * command phase ({@link Phases#commands}). The phase is explicit state, never guessed from a packet's first byte.
 */
public final class ConnectionPhaseHandler extends SimpleChannelInboundHandler<MySQLFrame> {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionPhaseHandler.class);
    private static final int MORE_DATA = 0x01;
    private static final int AUTH_SWITCH = 0xFE;
    private static final int SHA2_FAST_AUTH_OK = 0x03;
    private static final int SHA2_PERFORM_FULL_AUTH = 0x04;
    private static final int SHA2_REQUEST_PUBLIC_KEY = 0x02;

    private enum Phase { HANDSHAKE_RESPONSE, AUTH_SWITCH_RESPONSE, SHA2_FULL_AUTH, SHA2_ENCRYPTED_PASSWORD }

    private final FrontendContext context;
    private final Phases phases;
    private final Session session;
    private final byte[] nonce = Scramble.nonce();
    private Phase phase = Phase.HANDSHAKE_RESPONSE;
    private HandshakeResponse41 response;
    private int capabilities;
    /** The zstd level the client asked for with CLIENT_ZSTD_COMPRESSION_ALGORITHM. */
    private int zstdLevel;
    private int serverCapabilities;
    private int serverMariaDbCapabilities;
    private int mariaDbCapabilities;
    private ScheduledFuture<?> timeout;

    private int changeUserSequenceId = -1;
    private boolean tls;

    public ConnectionPhaseHandler(FrontendContext context, Phases phases, Session session) {
        this.context = context;
        this.phases = phases;
        this.session = session;
    }

    /**
     * For COM_CHANGE_USER: the new user's credentials were computed against the old nonce, so the handler starts
     * with an auth switch carrying a fresh one ({@code sequenceId} is the next id of the command).
     */
    public static ConnectionPhaseHandler changeUser(FrontendContext context, Phases phases, Session session,
                                                    HandshakeResponse41 response, int sequenceId) {
        ConnectionPhaseHandler handler = new ConnectionPhaseHandler(context, phases, session);
        handler.response = response;
        handler.capabilities = response.capabilities();
        handler.mariaDbCapabilities = response.mariaDbCapabilities();
        handler.changeUserSequenceId = sequenceId;
        return handler;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (changeUserSequenceId >= 0) {
            switchPlugin(ctx, changeUserSequenceId);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        timeout = ctx.executor().schedule(() -> {
            LOG.debug("connection {} did not authenticate in time", session.connectionId());
            ctx.close();
        }, context.config().server().limits().handshakeTimeoutMillis(), TimeUnit.MILLISECONDS);
        serverCapabilities = context.serverCapabilities();
        serverMariaDbCapabilities = context.serverMariaDbCapabilities();
        HandshakeV10 greeting = new HandshakeV10(context.serverVersion(), session.connectionId(), nonce,
                serverCapabilities, 45, ServerStatus.AUTOCOMMIT, context.authenticator().defaultPlugin(),
                serverMariaDbCapabilities);
        ByteBuf out = ctx.alloc().buffer(128);
        greeting.encode(out);
        ctx.writeAndFlush(new MySQLFrame(0, out));
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, MySQLFrame frame) {
        int next = frame.lastSequenceId() + 1;
        try {
            switch (phase) {
                case HANDSHAKE_RESPONSE -> onHandshakeResponse(ctx, frame.payload(), next);
                case AUTH_SWITCH_RESPONSE -> verify(ctx, plugin(), MySQLBuf.readBytesEof(frame.payload()), next);
                case SHA2_FULL_AUTH -> onFullAuth(ctx, frame.payload(), next);
                case SHA2_ENCRYPTED_PASSWORD -> onEncryptedPassword(ctx, MySQLBuf.readBytesEof(frame.payload()), next);
            }
        } catch (MySQLException e) {
            fail(ctx, next, e.packet());
        } catch (RuntimeException e) {
            fail(ctx, next, ErrorCode.HANDSHAKE.packet(e.getMessage()));
        }
    }

    private void onHandshakeResponse(ChannelHandlerContext ctx, ByteBuf payload, int next) {
        if (HandshakeResponse41.isSslRequest(payload)) {
            startTls(ctx);
            return;
        }
        response = HandshakeResponse41.decode(payload);
        capabilities = response.capabilities() & serverCapabilities;
        zstdLevel = response.zstdLevel();
        mariaDbCapabilities = Capabilities.has(response.capabilities(), Capabilities.CLIENT_LONG_PASSWORD)
                ? 0 : response.mariaDbCapabilities() & serverMariaDbCapabilities;
        String clientPlugin = response.authPluginName();
        if (clientPlugin != null && !clientPlugin.isEmpty() && !clientPlugin.equals(plugin())
                || !Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH) && !plugin().equals(
                Scramble.NATIVE_PASSWORD)) {
            switchPlugin(ctx, next);
            return;
        }
        verify(ctx, plugin(), response.authResponse(), next);
    }

    /** SSLRequest: TLS starts under the framing; the full handshake response follows encrypted. */
    private void startTls(ChannelHandlerContext ctx) {
        if (context.sslContext() == null || tls) {
            throw ErrorCode.HANDSHAKE.exception("TLS is not enabled on this Strata server");
        }
        tls = true;
        // Nothing answers an SSLRequest, so the client's ClientHello may already sit behind it in the frame decoder.
        ByteBuf early = ((PacketFrameDecoder) ctx.pipeline().get("framer")).takeRemaining();
        ctx.pipeline().addFirst("tls", context.sslContext().newHandler(ctx.alloc()));
        if (early != null) {
            // Feed those bytes through TLS first (after this read completes), and read nothing new until then.
            ctx.channel().config().setAutoRead(false);
            ctx.channel().eventLoop().execute(() -> {
                ctx.pipeline().fireChannelRead(early);
                ctx.pipeline().fireChannelReadComplete();
                ctx.channel().config().setAutoRead(true);
            });
        }
    }

    private void switchPlugin(ChannelHandlerContext ctx, int next) {
        phase = Phase.AUTH_SWITCH_RESPONSE;
        ByteBuf out = ctx.alloc().buffer(64);
        MySQLBuf.writeInt1(out, AUTH_SWITCH);
        MySQLBuf.writeStringNul(out, plugin());
        MySQLBuf.writeBytesNul(out, nonce);
        ctx.writeAndFlush(new MySQLFrame(next, out));
    }

    private void verify(ChannelHandlerContext ctx, String plugin, byte[] scramble, int next) {
        String user = response.username();
        boolean ok = context.authenticator().verify(plugin, user, nonce, scramble);
        if (plugin.equals(Scramble.CACHING_SHA2_PASSWORD)) {
            if (!ok) {
                // As MySQL's sha2_password.cc: a failed fast check and a user with no cached entry (never fully
                // authenticated since start, or unknown) both get asked for the full password. Denying a failed
                // fast check at once would tell that the user exists and has logged in.
                phase = Phase.SHA2_FULL_AUTH;
                writeMoreData(ctx, next, new byte[] {SHA2_PERFORM_FULL_AUTH});
                return;
            }
            if (scramble.length > 0) { // a user without a password, with an empty response, is simply in
                writeMoreData(ctx, next++, new byte[] {SHA2_FAST_AUTH_OK});
            }
        } else if (!ok) {
            throw ErrorCode.ACCESS_DENIED.exception(user, session.remoteHost(), scramble.length > 0 ? "YES" : "NO");
        }
        authenticated(ctx, next);
    }

    private void onFullAuth(ChannelHandlerContext ctx, ByteBuf payload, int next) {
        if (payload.readableBytes() == 1 && payload.getByte(payload.readerIndex()) == SHA2_REQUEST_PUBLIC_KEY) {
            phase = Phase.SHA2_ENCRYPTED_PASSWORD;
            writeMoreData(ctx, next, context.authenticator().publicKeyPem().getBytes(StandardCharsets.US_ASCII));
            return;
        }
        if (!tls) {
            // A clear-text password is only acceptable over TLS.
            throw ErrorCode.ACCESS_DENIED.exception(response.username(), session.remoteHost(), "YES");
        }
        byte[] clear = MySQLBuf.readBytesEof(payload);
        int end = clear.length > 0 && clear[clear.length - 1] == 0 ? clear.length - 1 : clear.length;
        if (!context.authenticator().verifyClearText(response.username(),
                new String(clear, 0, end, StandardCharsets.UTF_8))) {
            throw ErrorCode.ACCESS_DENIED.exception(response.username(), session.remoteHost(), "YES");
        }
        authenticated(ctx, next);
    }

    private void onEncryptedPassword(ChannelHandlerContext ctx, byte[] encrypted, int next) {
        String password;
        try {
            Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
            cipher.init(Cipher.DECRYPT_MODE, context.authenticator().rsaKeys().getPrivate());
            byte[] plain = cipher.doFinal(encrypted);
            for (int i = 0; i < plain.length; i++) {
                plain[i] ^= nonce[i % nonce.length];
            }
            int end = plain.length > 0 && plain[plain.length - 1] == 0 ? plain.length - 1 : plain.length;
            password = new String(plain, 0, end, StandardCharsets.UTF_8);
        } catch (Exception e) {
            throw ErrorCode.ACCESS_DENIED.exception(response.username(), session.remoteHost(), "YES");
        }
        if (!context.authenticator().verifyClearText(response.username(), password)) {
            throw ErrorCode.ACCESS_DENIED.exception(response.username(), session.remoteHost(), "YES");
        }
        authenticated(ctx, next);
    }

    /**
     * The password was right: the session is logged in, and in the database it asked for, which a backend may have
     * to confirm first (a schema of a logical database that exposes them); reading the client waits meanwhile.
     */
    private void authenticated(ChannelHandlerContext ctx, int next) {
        UserConfig user = context.authenticator().user(response.username()).orElseThrow();
        session.login(user.name(), capabilities, mariaDbCapabilities, response.characterSet());
        String database = response.database();
        if (database == null) {
            loggedIn(ctx, next);
            return;
        }
        ctx.channel().config().setAutoRead(false);
        Databases.resolve(context, user, session.remoteHost(), database, null, session.state().flavor(),
                ctx.channel().eventLoop()).whenComplete((choice, error) -> onLoop(ctx, () -> {
                    ctx.channel().config().setAutoRead(true);
                    if (error != null) {
                        fail(ctx, next, MySQLException.toErrPacket(error));
                        return;
                    }
                    session.state().use(choice.database(), choice.schema());
                    loggedIn(ctx, next);
                }));
    }

    private void loggedIn(ChannelHandlerContext ctx, int next) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        UserConfig user = context.authenticator().loggedIn(session.user());
        switch (context.sessions().admit(session, context.config().server().limits().maxConnections(),
                user.maxConnections(), user.admin())) {
            case TOO_MANY -> {
                fail(ctx, next, ErrorCode.TOO_MANY_CONNECTIONS.packet());
                return;
            }
            case TOO_MANY_OF_USER -> {
                fail(ctx, next, ErrorCode.USER_CONNECTIONS.packet(user.name()));
                return;
            }
            case ADMITTED -> { }
        }
        Responses.ok(ctx.channel(), next, new OkPacket(0, 0, session.state().statusFlags(), 0));
        // from the first packet after this OK, both ways; zlib first when a client asks for both, as MySQL does
        if (Capabilities.has(capabilities, Capabilities.CLIENT_COMPRESS)) {
            CompressedProtocol.install(ctx.pipeline());
        } else if (Capabilities.has(capabilities, Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM)) {
            CompressedProtocol.install(ctx.pipeline(), CompressedProtocol.zstd(zstdLevel),
                    CompressedProtocol.zstd(zstdLevel));
        }
        ((PacketFrameDecoder) ctx.pipeline().get("framer")).loggedIn();
        ctx.pipeline().replace(this, "command", phases.commands(session));
    }

    private static void onLoop(ChannelHandlerContext ctx, Runnable task) {
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    private String plugin() {
        return context.authenticator().defaultPlugin();
    }

    private static void writeMoreData(ChannelHandlerContext ctx, int sequenceId, byte[] data) {
        ByteBuf out = ctx.alloc().buffer(data.length + 1);
        out.writeByte(MORE_DATA).writeBytes(data);
        ctx.writeAndFlush(new MySQLFrame(sequenceId, out));
    }

    private void fail(ChannelHandlerContext ctx, int next, ErrPacket err) {
        LOG.debug("connection {} refused: {}", session.connectionId(), err.message());
        context.stats().loginRefused();
        ByteBuf out = ctx.alloc().buffer(64);
        err.encode(out);
        ctx.writeAndFlush(new MySQLFrame(next, out)).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} failed during the handshake", session.connectionId(), cause);
        if (ctx.channel().isActive()) {
            ErrPacket error = MySQLException.toErrPacket(cause); // a packet too large says so (1153, 1041)
            fail(ctx, 2, error.errorCode() != ErrorCode.INTERNAL.code() ? error
                    : ErrorCode.MALFORMED_PACKET.packet(String.valueOf(cause.getMessage())));
        }
    }
}
