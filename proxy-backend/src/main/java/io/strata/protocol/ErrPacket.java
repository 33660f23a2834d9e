package io.strata.protocol;

import io.netty.buffer.ByteBuf;

/** <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_err_packet.html">ERR_Packet</a>. */
public record ErrPacket(int errorCode, String sqlState, String message) {

    public static final int HEADER = 0xFF;

    public static ErrPacket decode(ByteBuf payload) {
        payload.skipBytes(1);
        int code = MySQLBuf.readInt2(payload);
        String state = "HY000";
        if (payload.isReadable() && payload.getByte(payload.readerIndex()) == '#') {
            payload.skipBytes(1);
            state = MySQLBuf.readStringFix(payload, 5);
        }
        return new ErrPacket(code, state, MySQLBuf.readStringEof(payload));
    }

    public void encode(ByteBuf out) {
        MySQLBuf.writeInt1(out, HEADER);
        MySQLBuf.writeInt2(out, errorCode);
        out.writeByte('#');
        MySQLBuf.writeStringEof(out, sqlState);
        MySQLBuf.writeStringEof(out, message);
    }
}
