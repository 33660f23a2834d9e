package io.strata.it;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseParser;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.HandshakeResponse41;
import io.strata.protocol.HandshakeV10;
import io.strata.protocol.MySQLBuf;
import io.strata.protocol.Scramble;

import javax.crypto.Cipher;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A bare MySQL protocol client over a blocking socket, for what drivers hide: exact response bytes (to compare
 * Strata's with MariaDB's own), arbitrary command bytes, and malformed input.
 */
final class RawClient implements AutoCloseable {

    static final int CAPABILITIES = Capabilities.BACKEND_BASE | Capabilities.CLIENT_DEPRECATE_EOF;

    /** {@link #CAPABILITIES}, with or without CLIENT_DEPRECATE_EOF (result sets then end with an EOF packet). */
    static int capabilities(boolean deprecateEof) {
        return deprecateEof ? CAPABILITIES : CAPABILITIES & ~Capabilities.CLIENT_DEPRECATE_EOF;
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    final HandshakeV10 greeting;
    private final int capabilities;

    private RawClient(Socket socket, HandshakeV10 greeting, int capabilities) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.greeting = greeting;
        this.capabilities = capabilities;
    }

    static RawClient connect(int port, String user, String password, String database) throws IOException {
        return connect(port, user, password, database, CAPABILITIES);
    }

    static RawClient connect(int port, String user, String password, String database, int capabilities)
            throws IOException {
        return connect(port, user, password, database, capabilities, 45);
    }

    /**
     * Connects with mysql_native_password (answering an auth switch) asking for the collation {@code collation} (45:
     * utf8mb4_general_ci); fails with the server's error.
     */
    static RawClient connect(int port, String user, String password, String database, int capabilities,
                             int collation) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        HandshakeV10 greeting = HandshakeV10.decode(Unpooled.wrappedBuffer(payload(readPacket(in))));
        RawClient client = new RawClient(socket, greeting, capabilities);
        int caps = database == null ? capabilities & ~Capabilities.CLIENT_CONNECT_WITH_DB : capabilities;
        byte[] nonce = Scramble.trimNonce(greeting.authPluginData());
        HandshakeResponse41 response = new HandshakeResponse41(caps, 1 << 24, collation, user,
                Scramble.nativePassword(password, nonce), database, Scramble.NATIVE_PASSWORD, Map.of());
        ByteBuf buf = Unpooled.buffer();
        response.encode(buf);
        client.writePacket(1, MySQLBuf.readBytesEof(buf));
        byte[] reply = payload(client.readPacket());
        if ((reply[0] & 0xFF) == 0xFE) {
            ByteBuf sw = Unpooled.wrappedBuffer(reply).skipBytes(1);
            MySQLBuf.readStringNul(sw);
            byte[] newNonce = Scramble.trimNonce(MySQLBuf.readBytesEof(sw));
            client.writePacket(3, Scramble.nativePassword(password, newNonce));
            reply = payload(client.readPacket());
        }
        if ((reply[0] & 0xFF) == 0xFF) {
            ErrPacket err = ErrPacket.decode(Unpooled.wrappedBuffer(reply));
            client.close();
            throw new IOException(err.errorCode() + " " + err.sqlState() + " " + err.message());
        }
        return client;
    }

    /**
     * Logs in as {@code user} speaking {@code plugin} from the start and answering what the server asks (an auth
     * switch; caching_sha2_password's full authentication with the server's RSA key, as a client without TLS does),
     * then closes the connection. Returns every packet the server sent after its greeting, up to its OK or ERR.
     */
    static List<byte[]> login(int port, String plugin, String user, String password) throws IOException {
        try (RawClient client = greeted(port)) {
            return client.login(plugin, user, password, null);
        }
    }

    /** A connection that has read the server's greeting and sent nothing yet: {@link #login} comes next. */
    static RawClient greeted(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        HandshakeV10 greeting = HandshakeV10.decode(Unpooled.wrappedBuffer(payload(readPacket(in))));
        return new RawClient(socket, greeting, CAPABILITIES);
    }

    /** The login of {@link #login(int, String, String, String)} on this connection, into {@code database} if any. */
    List<byte[]> login(String plugin, String user, String password, String database) throws IOException {
        byte[] nonce = Scramble.trimNonce(greeting.authPluginData());
        int caps = database == null ? capabilities & ~Capabilities.CLIENT_CONNECT_WITH_DB : capabilities;
        HandshakeResponse41 response = new HandshakeResponse41(caps, 1 << 24, 45, user,
                scramble(plugin, password, nonce), database, plugin, Map.of());
        ByteBuf buf = Unpooled.buffer();
        response.encode(buf);
        writePacket(1, MySQLBuf.readBytesEof(buf));
        return authentication(plugin, password, nonce);
    }

    /**
     * COM_CHANGE_USER to {@code user}, its scramble made with {@code plugin} over the greeting's nonce; the rest as
     * {@link #login}. Returns the server's packets up to its OK or ERR (after an ERR the server closes).
     */
    List<byte[]> changeUser(String plugin, String user, String password) throws IOException {
        byte[] nonce = Scramble.trimNonce(greeting.authPluginData());
        byte[] scramble = scramble(plugin, password, nonce);
        ByteBuf buf = Unpooled.buffer();
        MySQLBuf.writeInt1(buf, 0x11);
        MySQLBuf.writeStringNul(buf, user);
        MySQLBuf.writeInt1(buf, scramble.length);
        buf.writeBytes(scramble);
        MySQLBuf.writeStringNul(buf, "");
        MySQLBuf.writeInt2(buf, 45);
        MySQLBuf.writeStringNul(buf, plugin);
        writePacket(0, MySQLBuf.readBytesEof(buf));
        return authentication(plugin, password, nonce);
    }

    /** The connection phase after the client's first packet: answers the server until its OK or ERR. */
    private List<byte[]> authentication(String plugin, String password, byte[] nonce) throws IOException {
        List<byte[]> packets = new ArrayList<>();
        while (true) {
            byte[] packet = readPacket();
            packets.add(packet);
            int next = (packet[3] + 1) & 0xFF;
            byte[] payload = payload(packet);
            switch (payload[0] & 0xFF) {
                case 0x00, 0xFF -> {
                    return packets;
                }
                case 0xFE -> { // auth switch: the plugin and the nonce to answer with
                    ByteBuf request = Unpooled.wrappedBuffer(payload).skipBytes(1);
                    plugin = MySQLBuf.readStringNul(request);
                    nonce = Scramble.trimNonce(MySQLBuf.readBytesEof(request));
                    writePacket(next, scramble(plugin, password, nonce));
                }
                case 0x01 -> { // caching_sha2_password: 0x03 fast auth OK (the OK follows), 0x04 full, or the key
                    if (payload.length == 2 && payload[1] == 0x04) {
                        writePacket(next, new byte[] {0x02}); // the public key, please
                    } else if (payload.length > 2) {
                        writePacket(next, encrypt(new String(payload, 1, payload.length - 1,
                                StandardCharsets.US_ASCII), Scramble.xorWithNonce(password, nonce)));
                    }
                }
                default -> throw new IOException("unexpected packet in the connection phase: " + (payload[0] & 0xFF));
            }
        }
    }

    private static byte[] scramble(String plugin, String password, byte[] nonce) {
        return plugin.equals(Scramble.CACHING_SHA2_PASSWORD) ? Scramble.cachingSha2(password, nonce)
                : Scramble.nativePassword(password, nonce);
    }

    private static byte[] encrypt(String pem, byte[] data) throws IOException {
        try {
            String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            PublicKey key = KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
            cipher.init(Cipher.ENCRYPT_MODE, key);
            return cipher.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot encrypt with the server's key: " + e, e);
        }
    }

    /** COM_QUERY; returns every packet of the response, headers included. */
    List<byte[]> query(String sql) throws IOException {
        return command(0x03, sql.getBytes(StandardCharsets.UTF_8), ResponseKind.QUERY);
    }

    List<byte[]> command(int command, byte[] argument, ResponseKind kind) throws IOException {
        byte[] payload = new byte[argument.length + 1];
        payload[0] = (byte) command;
        System.arraycopy(argument, 0, payload, 1, argument.length);
        writePacket(0, payload);
        return readResponse(kind);
    }

    List<byte[]> readResponse(ResponseKind kind) throws IOException {
        ResponseParser parser = new ResponseParser(kind, Capabilities.has(capabilities,
                Capabilities.CLIENT_DEPRECATE_EOF));
        List<byte[]> packets = new ArrayList<>();
        while (true) {
            byte[] packet = readPacket();
            packets.add(packet);
            if (parser.accept(Unpooled.wrappedBuffer(packet))) {
                return packets;
            }
        }
    }

    void writePacket(int sequenceId, byte[] payload) throws IOException {
        byte[] header = {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16),
                (byte) sequenceId};
        out.write(header);
        out.write(payload);
        out.flush();
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    byte[] readPacket() throws IOException {
        return readPacket(in);
    }

    private static byte[] readPacket(DataInputStream in) throws IOException {
        byte[] header = new byte[4];
        in.readFully(header);
        int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        byte[] packet = new byte[4 + length];
        System.arraycopy(header, 0, packet, 0, 4);
        in.readFully(packet, 4, length);
        return packet;
    }

    static byte[] payload(byte[] packet) {
        byte[] payload = new byte[packet.length - 4];
        System.arraycopy(packet, 4, payload, 0, payload.length);
        return payload;
    }

    /** The error of a response that is a lone ERR packet, or null. */
    static ErrPacket error(List<byte[]> response) {
        byte[] last = payload(response.get(response.size() - 1));
        return (last[0] & 0xFF) == 0xFF ? ErrPacket.decode(Unpooled.wrappedBuffer(last)) : null;
    }

    boolean isClosedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
