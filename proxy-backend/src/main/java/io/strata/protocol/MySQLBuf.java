package io.strata.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Reads and writes the MySQL basic data types, named as on
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_data_types.html">the protocol's
 * basic types page</a>, so codec code reads 1:1 against the spec. All integers are little-endian.
 */
public final class MySQLBuf {

    private MySQLBuf() {
    }

    public static int readInt1(ByteBuf buf) {
        return buf.readUnsignedByte();
    }

    public static int readInt2(ByteBuf buf) {
        return buf.readUnsignedShortLE();
    }

    public static int readInt3(ByteBuf buf) {
        return buf.readUnsignedMediumLE();
    }

    public static long readInt4(ByteBuf buf) {
        return buf.readUnsignedIntLE();
    }

    public static long readInt8(ByteBuf buf) {
        return buf.readLongLE();
    }

    /** Length-encoded integer; returns -1 for the NULL marker 0xFB (meaningful only in text rows). */
    public static long readIntLenenc(ByteBuf buf) {
        int first = buf.readUnsignedByte();
        return switch (first) {
            case 0xFB -> -1;
            case 0xFC -> buf.readUnsignedShortLE();
            case 0xFD -> buf.readUnsignedMediumLE();
            case 0xFE -> buf.readLongLE();
            default -> first;
        };
    }

    public static String readStringNul(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            end = buf.writerIndex();
        }
        String s = buf.toString(buf.readerIndex(), end - buf.readerIndex(), StandardCharsets.UTF_8);
        buf.readerIndex(Math.min(end + 1, buf.writerIndex()));
        return s;
    }

    public static byte[] readBytesNul(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            end = buf.writerIndex();
        }
        byte[] bytes = readBytesFix(buf, end - buf.readerIndex());
        if (buf.isReadable()) {
            buf.skipBytes(1);
        }
        return bytes;
    }

    public static String readStringLenenc(ByteBuf buf) {
        long len = readIntLenenc(buf);
        return len <= 0 ? "" : readStringFix(buf, present(buf, len));
    }

    public static byte[] readBytesLenenc(ByteBuf buf) {
        long len = readIntLenenc(buf);
        return len <= 0 ? new byte[0] : readBytesFix(buf, present(buf, len));
    }

    /**
     * A text-protocol row's values, read from a copy of the payload's position: each a length-encoded string's
     * bytes, or null for NULL (0xFB).
     */
    public static byte[][] readTextRow(ByteBuf payload, int columns) {
        ByteBuf in = payload.duplicate();
        byte[][] cells = new byte[columns][];
        for (int i = 0; i < columns; i++) {
            if (in.getUnsignedByte(in.readerIndex()) == 0xFB) {
                in.skipBytes(1);
            } else {
                cells[i] = readBytesLenenc(in);
            }
        }
        return cells;
    }

    /**
     * A length read from a packet, checked against what the packet still holds: a length is the sender's word, and
     * believing one of 2^40 would allocate before the read found it short.
     *
     * @throws MySQLException MALFORMED_PACKET when the packet holds fewer bytes
     */
    public static int present(ByteBuf buf, long len) {
        if (len < 0 || len > buf.readableBytes()) {
            throw ErrorCode.MALFORMED_PACKET.exception("a length of " + len + " where " + buf.readableBytes()
                    + " bytes are left");
        }
        return (int) len;
    }

    public static String readStringFix(ByteBuf buf, int len) {
        return readStringFix(buf, len, StandardCharsets.UTF_8);
    }

    public static String readStringFix(ByteBuf buf, int len, Charset charset) {
        String s = buf.toString(buf.readerIndex(), present(buf, len), charset);
        buf.skipBytes(len);
        return s;
    }

    public static String readStringEof(ByteBuf buf) {
        return readStringFix(buf, buf.readableBytes());
    }

    public static byte[] readBytesFix(ByteBuf buf, int len) {
        byte[] bytes = new byte[present(buf, len)];
        buf.readBytes(bytes);
        return bytes;
    }

    public static byte[] readBytesEof(ByteBuf buf) {
        return readBytesFix(buf, buf.readableBytes());
    }

    public static void skipLenenc(ByteBuf buf) {
        long len = readIntLenenc(buf);
        if (len > 0) {
            buf.skipBytes(present(buf, len));
        }
    }

    public static void writeInt1(ByteBuf buf, int v) {
        buf.writeByte(v);
    }

    public static void writeInt2(ByteBuf buf, int v) {
        buf.writeShortLE(v);
    }

    public static void writeInt3(ByteBuf buf, int v) {
        buf.writeMediumLE(v);
    }

    public static void writeInt4(ByteBuf buf, long v) {
        buf.writeIntLE((int) v);
    }

    public static void writeInt8(ByteBuf buf, long v) {
        buf.writeLongLE(v);
    }

    public static void writeIntLenenc(ByteBuf buf, long v) {
        if (v >= 0 && v < 0xFB) {
            buf.writeByte((int) v);
        } else if (v >= 0 && v < (1 << 16)) {
            buf.writeByte(0xFC).writeShortLE((int) v);
        } else if (v >= 0 && v < (1 << 24)) {
            buf.writeByte(0xFD).writeMediumLE((int) v);
        } else {
            buf.writeByte(0xFE).writeLongLE(v);
        }
    }

    public static void writeBytesLenenc(ByteBuf buf, byte[] bytes) {
        writeIntLenenc(buf, bytes.length);
        buf.writeBytes(bytes);
    }

    public static void writeStringLenenc(ByteBuf buf, String s) {
        writeBytesLenenc(buf, s.getBytes(StandardCharsets.UTF_8));
    }

    public static void writeStringNul(ByteBuf buf, String s) {
        buf.writeBytes(s.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }

    public static void writeBytesNul(ByteBuf buf, byte[] bytes) {
        buf.writeBytes(bytes).writeByte(0);
    }

    public static void writeStringEof(ByteBuf buf, String s) {
        buf.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
}
