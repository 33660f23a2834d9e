package io.strata.protocol;

import io.netty.buffer.ByteBuf;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_v10.html">
 * Protocol::HandshakeV10</a>: the server's greeting. {@code authPluginData} is the 20-byte nonce.
 */
public record HandshakeV10(String serverVersion, long connectionId, byte[] authPluginData, int capabilities,
                           int characterSet, int statusFlags, String authPluginName, int mariaDbCapabilities) {

    /** A greeting without MariaDB extended capabilities. */
    public HandshakeV10(String serverVersion, long connectionId, byte[] authPluginData, int capabilities,
                        int characterSet, int statusFlags, String authPluginName) {
        this(serverVersion, connectionId, authPluginData, capabilities, characterSet, statusFlags, authPluginName, 0);
    }

    /** Whether the server is MariaDB 10.2+ speaking extended capabilities (it clears CLIENT_MYSQL, bit 0). */
    public boolean mariaDbExtended() {
        return !Capabilities.has(capabilities, Capabilities.CLIENT_LONG_PASSWORD);
    }

    public void encode(ByteBuf out) {
        MySQLBuf.writeInt1(out, 10);
        MySQLBuf.writeStringNul(out, serverVersion);
        MySQLBuf.writeInt4(out, connectionId);
        out.writeBytes(authPluginData, 0, 8);
        out.writeByte(0);
        MySQLBuf.writeInt2(out, capabilities & 0xFFFF);
        MySQLBuf.writeInt1(out, characterSet);
        MySQLBuf.writeInt2(out, statusFlags);
        MySQLBuf.writeInt2(out, capabilities >>> 16);
        MySQLBuf.writeInt1(out, authPluginData.length + 1);
        out.writeZero(6);
        MySQLBuf.writeInt4(out, mariaDbExtended() ? mariaDbCapabilities : 0);
        out.writeBytes(authPluginData, 8, authPluginData.length - 8);
        out.writeByte(0);
        MySQLBuf.writeStringNul(out, authPluginName);
    }

    public static HandshakeV10 decode(ByteBuf in) {
        int protocol = MySQLBuf.readInt1(in);
        if (protocol != 10) {
            throw ErrorCode.HANDSHAKE.exception("unsupported protocol version " + protocol);
        }
        String version = MySQLBuf.readStringNul(in);
        long connectionId = MySQLBuf.readInt4(in);
        byte[] part1 = MySQLBuf.readBytesFix(in, 8);
        in.skipBytes(1);
        int caps = MySQLBuf.readInt2(in);
        int charset = in.isReadable() ? MySQLBuf.readInt1(in) : 0;
        int status = in.isReadable() ? MySQLBuf.readInt2(in) : 0;
        caps |= in.isReadable() ? MySQLBuf.readInt2(in) << 16 : 0;
        int authDataLength = in.isReadable() ? MySQLBuf.readInt1(in) : 0;
        in.skipBytes(Math.min(6, in.readableBytes()));
        int mariaDbCaps = in.readableBytes() >= 4 ? (int) MySQLBuf.readInt4(in) : 0;
        if (Capabilities.has(caps, Capabilities.CLIENT_LONG_PASSWORD)) {
            mariaDbCaps = 0;
        }
        byte[] part2 = new byte[0];
        if (Capabilities.has(caps, Capabilities.CLIENT_SECURE_CONNECTION)) {
            part2 = MySQLBuf.readBytesFix(in, Math.max(13, authDataLength - 8));
        }
        String plugin = Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH) && in.isReadable()
                ? MySQLBuf.readStringNul(in) : Scramble.NATIVE_PASSWORD;
        byte[] nonce = new byte[8 + Math.max(0, part2.length - 1)];
        System.arraycopy(part1, 0, nonce, 0, 8);
        System.arraycopy(part2, 0, nonce, 8, nonce.length - 8);
        return new HandshakeV10(version, connectionId, nonce, caps, charset, status, plugin, mariaDbCaps);
    }
}
