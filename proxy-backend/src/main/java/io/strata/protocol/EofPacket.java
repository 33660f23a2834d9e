package io.strata.protocol;

import io.netty.buffer.ByteBuf;

/** <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_eof_packet.html">EOF_Packet</a>. */
public record EofPacket(int warnings, int statusFlags) {

    public static final int HEADER = 0xFE;

    public static EofPacket decode(ByteBuf payload) {
        payload.skipBytes(1);
        return new EofPacket(MySQLBuf.readInt2(payload), MySQLBuf.readInt2(payload));
    }

    public void encode(ByteBuf out) {
        MySQLBuf.writeInt1(out, HEADER);
        MySQLBuf.writeInt2(out, warnings);
        MySQLBuf.writeInt2(out, statusFlags);
    }

    /** An 0xFE packet is an EOF (or an OK that ends a result set) only when short; a row may start with 0xFE too. */
    public static boolean isEofOrOkEof(ByteBuf payload) {
        return isEofOrOkEof(payload, payload.readerIndex(), payload.readableBytes());
    }

    /** The same test on a payload of {@code length} bytes at {@code index} of a larger buffer. */
    public static boolean isEofOrOkEof(ByteBuf buf, int index, int length) {
        return length > 0 && buf.getUnsignedByte(index) == HEADER && length < PacketFrameDecoder.MAX_PAYLOAD;
    }
}
