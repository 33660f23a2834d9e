package io.strata.backend.connection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.HandshakeV10;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.MySQLFrame;
import io.strata.protocol.OkPacket;
import io.strata.protocol.PacketFrameDecoder;
import io.strata.protocol.Scramble;

import javax.crypto.Cipher;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The client side of the connection phase, as Strata plays it towards a backend: HandshakeV10 in, HandshakeResponse41
 * out, then auth switch and caching_sha2_password's extra rounds (fast auth, or full auth with the server's RSA key)
 * until OK or ERR.
 */
final class BackendHandshake {

    private static final int AUTH_MORE_DATA = 0x01;
    private static final int AUTH_SWITCH = 0xFE;
    private static final int SHA2_FAST_AUTH_OK = 0x03;
    private static final int SHA2_FULL_AUTH = 0x04;

    private final DataSourceConfig dataSource;
    private final int flavor;
    private final CompletableFuture<BackendConnection> result;
    private HandshakeV10 greeting;
    private int capabilities;
    private String plugin;
    private byte[] nonce;

    BackendHandshake(DataSourceConfig dataSource, int flavor, CompletableFuture<BackendConnection> result) {
        this.dataSource = dataSource;
        this.flavor = flavor;
        this.result = result;
    }

    /** Takes one packet of the connection phase; returns the connection once authenticated, else null. */
    BackendConnection accept(Channel channel, ByteBuf packet) {
        int sequenceId = packet.getUnsignedByte(packet.readerIndex() + 3);
        ByteBuf payload = packet.slice(packet.readerIndex() + PacketFrameDecoder.HEADER_SIZE,
                packet.readableBytes() - PacketFrameDecoder.HEADER_SIZE);
        try {
            if (greeting == null) {
                greet(channel, payload, sequenceId);
                return null;
            }
            int header = payload.getUnsignedByte(payload.readerIndex());
            switch (header) {
                case OkPacket.HEADER -> {
                    return authenticated(channel);
                }
                case ErrPacket.HEADER -> refuse(channel, ErrPacket.decode(payload));
                case AUTH_SWITCH -> switchPlugin(channel, payload, sequenceId);
                case AUTH_MORE_DATA -> moreData(channel, payload, sequenceId);
                default -> fail("unexpected packet 0x" + Integer.toHexString(header) + " during authentication");
            }
        } catch (RuntimeException e) {
            fail(BackendConnector.describe(e));
            channel.close();
        }
        return null;
    }

    private void greet(Channel channel, ByteBuf payload, int sequenceId) {
        if (payload.getUnsignedByte(payload.readerIndex()) == ErrPacket.HEADER) {
            refuse(channel, ErrPacket.decode(payload));
            return;
        }
        greeting = HandshakeV10.decode(payload);
        capabilities = (Capabilities.BACKEND_BASE | flavor & Capabilities.FLAVOR_MASK) & greeting.capabilities();
        int mariaDbCapabilities = (flavor & Capabilities.FLAVOR_EXTENDED_TYPE_INFO) != 0
                ? greeting.mariaDbCapabilities() & Capabilities.MARIADB_CLIENT_EXTENDED_TYPE_INFO : 0;
        if (dataSource.schema().isEmpty()) {
            capabilities &= ~Capabilities.CLIENT_CONNECT_WITH_DB;
        }
        if (dataSource.tls().enabled()) {
            if (!Capabilities.has(greeting.capabilities(), Capabilities.CLIENT_SSL)) {
                fail("the server offers no TLS, and the data source's URL asks for sslMode="
                        + dataSource.tls().sslMode() + " (Strata never falls back to clear text)");
                channel.close();
                return;
            }
            capabilities |= Capabilities.CLIENT_SSL;
        }
        nonce = Scramble.trimNonce(greeting.authPluginData());
        plugin = greeting.authPluginName();
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, PacketFrameDecoder.MAX_PAYLOAD,
                BackendConnector.DEFAULT_COLLATION_ID, dataSource.username(), scramble(),
                dataSource.schema(), plugin, Map.of("_client_name", "strata", "program_name", "strata-proxy"),
                mariaDbCapabilities);
        if (dataSource.tls().enabled()) {
            startTls(channel, response, sequenceId);
            return;
        }
        ByteBuf out = channel.alloc().buffer();
        response.encode(out);
        channel.writeAndFlush(new MySQLFrame(sequenceId + 1, out));
    }

    /**
     * sslMode asks for TLS (and the server offers it: see {@link #greet}): an SSLRequest, the TLS handshake, then the
     * response over TLS. A certificate that fails verification refuses the connection: never a clear-text fallback.
     */
    private void startTls(Channel channel, HandshakeResponse41 response, int sequenceId) {
        ByteBuf request = channel.alloc().buffer(32);
        response.encodeSslRequest(request);
        channel.writeAndFlush(new MySQLFrame(sequenceId + 1, request)).addListener(written -> {
            if (!written.isSuccess()) {
                fail("TLS: " + BackendConnector.describe(written.cause()));
                channel.close();
                return;
            }
            SslHandler tls;
            try {
                tls = BackendTlsContexts.handler(dataSource, channel.alloc());
            } catch (RuntimeException e) {
                fail(e.getMessage());
                channel.close();
                return;
            }
            channel.pipeline().addFirst("tls", tls);
            tls.handshakeFuture().addListener(handshaken -> {
                if (!handshaken.isSuccess()) {
                    fail("TLS handshake failed (sslMode=" + dataSource.tls().sslMode() + "): "
                            + BackendConnector.describe(handshaken.cause()));
                    channel.close();
                    return;
                }
                ByteBuf out = channel.alloc().buffer();
                response.encode(out);
                channel.writeAndFlush(new MySQLFrame(sequenceId + 2, out));
            });
        });
    }

    private byte[] scramble() {
        return switch (plugin) {
            case Scramble.CACHING_SHA2_PASSWORD -> Scramble.cachingSha2(dataSource.password(), nonce);
            default -> Scramble.nativePassword(dataSource.password(), nonce);
        };
    }

    private void switchPlugin(Channel channel, ByteBuf payload, int sequenceId) {
        payload.skipBytes(1);
        plugin = MySQLBuf.readStringNul(payload);
        nonce = Scramble.trimNonce(MySQLBuf.readBytesEof(payload));
        if (!plugin.equals(Scramble.NATIVE_PASSWORD) && !plugin.equals(Scramble.CACHING_SHA2_PASSWORD)) {
            fail("the server asks for authentication plugin '" + plugin + "'; Strata speaks "
                    + Scramble.NATIVE_PASSWORD + " and " + Scramble.CACHING_SHA2_PASSWORD);
            channel.close();
            return;
        }
        send(channel, sequenceId, scramble());
    }

    private void moreData(Channel channel, ByteBuf payload, int sequenceId) {
        payload.skipBytes(1);
        if (payload.readableBytes() == 1) {
            int step = payload.readUnsignedByte();
            if (step == SHA2_FULL_AUTH) {
                send(channel, sequenceId, new byte[] {2}); // ask for the server's RSA public key
            } else if (step != SHA2_FAST_AUTH_OK) {
                fail("unexpected caching_sha2_password step " + step);
            }
            return;
        }
        String pem = MySQLBuf.readStringEof(payload);
        send(channel, sequenceId, rsaEncrypt(pem, Scramble.xorWithNonce(dataSource.password(), nonce)));
    }

    private static byte[] rsaEncrypt(String pem, byte[] data) {
        try {
            String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            PublicKey key = KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
            cipher.init(Cipher.ENCRYPT_MODE, key);
            return cipher.doFinal(data);
        } catch (Exception e) {
            throw new IllegalStateException("cannot encrypt the password with the server's RSA key: " + e, e);
        }
    }

    private static void send(Channel channel, int sequenceId, byte[] data) {
        channel.writeAndFlush(new MySQLFrame(sequenceId + 1, channel.alloc().buffer(data.length).writeBytes(data)));
    }

    private BackendConnection authenticated(Channel channel) {
        BackendConnection connection = new BackendConnection(channel, dataSource.name(), capabilities, flavor,
                greeting.connectionId(), greeting.serverVersion(),
                Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_WITH_DB) ? dataSource.schema() : null);
        result.complete(connection);
        return connection;
    }

    private void refuse(Channel channel, ErrPacket err) {
        fail(err.errorCode() + " " + err.message());
        channel.close();
    }

    void fail(String reason) {
        result.completeExceptionally(ErrorCode.BACKEND_UNAVAILABLE.exception(dataSource.describe(),
                dataSource.host() + ":" + dataSource.port() + ": " + reason));
    }
}
