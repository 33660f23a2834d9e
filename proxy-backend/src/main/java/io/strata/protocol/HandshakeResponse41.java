package io.strata.protocol;

import io.netty.buffer.ByteBuf;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_response.html">
 * Protocol::HandshakeResponse41</a>. {@code database} and {@code authPluginName} are null when absent.
 */
public record HandshakeResponse41(int capabilities, long maxPacketSize, int characterSet, String username,
                                  byte[] authResponse, String database, String authPluginName,
                                  Map<String, String> attributes, int mariaDbCapabilities, int zstdLevel) {

    /** Without CLIENT_ZSTD_COMPRESSION_ALGORITHM's level. */
    public HandshakeResponse41(int capabilities, long maxPacketSize, int characterSet, String username,
                               byte[] authResponse, String database, String authPluginName,
                               Map<String, String> attributes, int mariaDbCapabilities) {
        this(capabilities, maxPacketSize, characterSet, username, authResponse, database, authPluginName, attributes,
                mariaDbCapabilities, 0);
    }

    public HandshakeResponse41(int capabilities, long maxPacketSize, int characterSet, String username,
                               byte[] authResponse, String database, String authPluginName,
                               Map<String, String> attributes) {
        this(capabilities, maxPacketSize, characterSet, username, authResponse, database, authPluginName, attributes,
                0);
    }

    /** An SSLRequest is the first 32 bytes of a response with CLIENT_SSL set, and nothing more. */
    public static boolean isSslRequest(ByteBuf in) {
        return in.readableBytes() == 32 && Capabilities.has((int) in.getUnsignedIntLE(in.readerIndex()),
                Capabilities.CLIENT_SSL);
    }

    public static HandshakeResponse41 decode(ByteBuf in) {
        int caps = (int) MySQLBuf.readInt4(in);
        if (!Capabilities.has(caps, Capabilities.CLIENT_PROTOCOL_41)) {
            throw ErrorCode.HANDSHAKE.exception("client does not speak protocol 4.1");
        }
        long maxPacket = MySQLBuf.readInt4(in);
        int charset = MySQLBuf.readInt1(in);
        in.skipBytes(19);
        int mariaDbCaps = (int) MySQLBuf.readInt4(in); // zero from MySQL clients: the filler is all zeros
        String user = MySQLBuf.readStringNul(in);
        byte[] auth;
        if (Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)) {
            auth = MySQLBuf.readBytesLenenc(in);
        } else if (Capabilities.has(caps, Capabilities.CLIENT_SECURE_CONNECTION)) {
            auth = MySQLBuf.readBytesFix(in, MySQLBuf.readInt1(in));
        } else {
            auth = MySQLBuf.readBytesNul(in);
        }
        String database = null;
        if (Capabilities.has(caps, Capabilities.CLIENT_CONNECT_WITH_DB) && in.isReadable()) {
            database = MySQLBuf.readStringNul(in);
            database = database.isEmpty() ? null : database;
        }
        String plugin = null;
        if (Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH) && in.isReadable()) {
            plugin = MySQLBuf.readStringNul(in);
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        if (Capabilities.has(caps, Capabilities.CLIENT_CONNECT_ATTRS) && in.isReadable()) {
            ByteBuf block = in.readSlice(MySQLBuf.present(in, MySQLBuf.readIntLenenc(in)));
            while (block.isReadable()) {
                attrs.put(MySQLBuf.readStringLenenc(block), MySQLBuf.readStringLenenc(block));
            }
        }
        int zstdLevel = Capabilities.has(caps, Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM) && in.isReadable()
                ? MySQLBuf.readInt1(in) : 0;
        return new HandshakeResponse41(caps, maxPacket, charset, user, auth, database, plugin, attrs, mariaDbCaps,
                zstdLevel);
    }

    /** The SSLRequest this response is sent after, when it asks for TLS: its first 32 bytes. */
    public void encodeSslRequest(ByteBuf out) {
        MySQLBuf.writeInt4(out, capabilities | Capabilities.CLIENT_SSL);
        MySQLBuf.writeInt4(out, maxPacketSize);
        MySQLBuf.writeInt1(out, characterSet);
        out.writeZero(19);
        MySQLBuf.writeInt4(out, mariaDbCapabilities);
    }

    public void encode(ByteBuf out) {
        MySQLBuf.writeInt4(out, capabilities);
        MySQLBuf.writeInt4(out, maxPacketSize);
        MySQLBuf.writeInt1(out, characterSet);
        out.writeZero(19);
        MySQLBuf.writeInt4(out, mariaDbCapabilities);
        MySQLBuf.writeStringNul(out, username);
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)) {
            MySQLBuf.writeBytesLenenc(out, authResponse);
        } else {
            MySQLBuf.writeInt1(out, authResponse.length);
            out.writeBytes(authResponse);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_WITH_DB)) {
            MySQLBuf.writeStringNul(out, database == null ? "" : database);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH)) {
            MySQLBuf.writeStringNul(out, authPluginName);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_CONNECT_ATTRS)) {
            ByteBuf block = out.alloc().buffer();
            try {
                attributes.forEach((k, v) -> {
                    MySQLBuf.writeStringLenenc(block, k);
                    MySQLBuf.writeStringLenenc(block, v);
                });
                MySQLBuf.writeIntLenenc(out, block.readableBytes());
                out.writeBytes(block);
            } finally {
                block.release();
            }
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM)) {
            MySQLBuf.writeInt1(out, zstdLevel);
        }
    }
}
