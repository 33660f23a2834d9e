package io.strata.protocol;

import io.netty.buffer.ByteBuf;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_ok_packet.html">OK_Packet</a>
 * (without session-state info: Strata does not offer CLIENT_SESSION_TRACK).
 */
public record OkPacket(int header, long affectedRows, long lastInsertId, int statusFlags, int warnings, String info) {

    public static final int HEADER = 0x00;
    /** The header of an OK packet that ends a result set for CLIENT_DEPRECATE_EOF clients. */
    public static final int EOF_HEADER = 0xFE;

    public OkPacket(long affectedRows, long lastInsertId, int statusFlags, int warnings) {
        this(HEADER, affectedRows, lastInsertId, statusFlags, warnings, "");
    }

    public static OkPacket decode(ByteBuf payload) {
        int header = MySQLBuf.readInt1(payload);
        long affectedRows = MySQLBuf.readIntLenenc(payload);
        long lastInsertId = MySQLBuf.readIntLenenc(payload);
        int status = payload.readableBytes() >= 2 ? MySQLBuf.readInt2(payload) : 0;
        int warnings = payload.readableBytes() >= 2 ? MySQLBuf.readInt2(payload) : 0;
        String info = MySQLBuf.readStringEof(payload);
        return new OkPacket(header, affectedRows, lastInsertId, status, warnings, info);
    }

    public void encode(ByteBuf out) {
        MySQLBuf.writeInt1(out, header);
        MySQLBuf.writeIntLenenc(out, affectedRows);
        MySQLBuf.writeIntLenenc(out, lastInsertId);
        MySQLBuf.writeInt2(out, statusFlags);
        MySQLBuf.writeInt2(out, warnings);
        MySQLBuf.writeStringEof(out, info);
    }
}
