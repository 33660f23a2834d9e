package io.strata.protocol.command;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.Charsets;
import io.strata.protocol.ColumnType;
import io.strata.protocol.CommandType;
import io.strata.protocol.MySQLBuf;

import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;

/**
 * Decodes the parameter values of a
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html">COM_STMT_EXECUTE</a>
 * into the Java values that, bound with JDBC's setObject, reach the server as the same type: Byte, Short, Integer
 * and Long for the integer types (unsigned ones a size up), Float, Double, BigDecimal, LocalDate, LocalDateTime,
 * Duration for TIME, String for text in the client's character set, byte[] for blobs and for text that is not
 * valid in it. Dates no Java type holds (zero dates) stay text, which the server reads the same way.
 */
public final class ExecuteParameters {

    private static final int UNSIGNED = 0x80;

    private ExecuteParameters() {
    }

    /**
     * @param payload  the execute, command byte at its reader index; neither released nor read from (indices stay)
     * @param params   the statement's parameter count, as its prepare answered
     * @param types    two bytes per parameter (type, flags): the execute's own or those bound before
     * @param longData values sent before by COM_STMT_SEND_LONG_DATA, by parameter index (absent from the execute)
     * @param charset  the client's character set, for text values
     * @return one value per parameter, null for SQL NULL
     * @throws io.strata.protocol.MySQLException MALFORMED_PACKET when the values end before the packet does
     */
    public static Object[] decode(ByteBuf payload, int params, byte[] types, Map<Integer, byte[]> longData,
                                  Charset charset) {
        Object[] values = new Object[params];
        if (params == 0) {
            return values;
        }
        if (types == null || types.length < 2 * params) {
            throw new IllegalArgumentException("types for " + params + " parameters needed");
        }
        try {
            int bitmap = payload.readerIndex() + ComStmtExecute.NULL_BITMAP;
            int flag = ComStmtExecute.boundFlagIndex(payload, params);
            ByteBuf in = payload.duplicate();
            in.readerIndex(flag + 1 + (payload.getByte(flag) == 1 ? 2 * params : 0));
            for (int i = 0; i < params; i++) {
                int type = types[2 * i] & 0xFF;
                boolean unsigned = (types[2 * i + 1] & UNSIGNED) != 0;
                byte[] sent = longData.get(i);
                if (sent != null) {
                    values[i] = isText(type) ? text(sent, charset) : sent;
                } else if ((payload.getByte(bitmap + i / 8) & 1 << (i % 8)) == 0) {
                    values[i] = value(in, type, unsigned, charset);
                }
            }
            return values;
        } catch (IndexOutOfBoundsException e) {
            // Every read is bounded by the buffer: running past it means the client's packet is short, not a bug here.
            throw CommandDecoder.tooShort(CommandType.COM_STMT_EXECUTE, payload);
        }
    }

    private static Object value(ByteBuf in, int type, boolean unsigned, Charset charset) {
        return switch (type) {
            case ColumnType.TINY -> unsigned ? (Object) (short) in.readUnsignedByte() : (Object) in.readByte();
            case ColumnType.SHORT, ColumnType.YEAR -> unsigned ? (Object) in.readUnsignedShortLE()
                    : (Object) in.readShortLE();
            case ColumnType.INT24, ColumnType.LONG -> unsigned ? (Object) in.readUnsignedIntLE()
                    : (Object) in.readIntLE();
            case ColumnType.LONGLONG -> {
                long value = in.readLongLE();
                yield unsigned && value < 0 ? new BigDecimal(Long.toUnsignedString(value)) : (Object) value;
            }
            case ColumnType.FLOAT -> in.readFloatLE();
            case ColumnType.DOUBLE -> in.readDoubleLE();
            case ColumnType.NULL -> null;
            case ColumnType.DATE -> date(in);
            case ColumnType.DATETIME, ColumnType.TIMESTAMP -> dateTime(in);
            case ColumnType.TIME -> time(in);
            case ColumnType.DECIMAL, ColumnType.NEWDECIMAL -> decimal(bytesLenenc(in));
            default -> {
                byte[] bytes = bytesLenenc(in);
                yield isText(type) ? text(bytes, charset) : bytes;
            }
        };
    }

    /**
     * A length-encoded value, its length checked against the packet before anything is allocated: a client's
     * 0xFE-prefixed length of 2^31 - 1 in a small packet must fail as short, not allocate 2 GiB first.
     */
    private static byte[] bytesLenenc(ByteBuf in) {
        long length = MySQLBuf.readIntLenenc(in);
        if (length < -1 || length > in.readableBytes()) {
            throw new IndexOutOfBoundsException("value of " + length + " bytes, " + in.readableBytes() + " left");
        }
        return length <= 0 ? new byte[0] : MySQLBuf.readBytesFix(in, (int) length);
    }

    /** Types whose values are characters (the rest of the length-encoded ones are bytes). */
    private static boolean isText(int type) {
        return switch (type) {
            case ColumnType.VARCHAR, ColumnType.VAR_STRING, ColumnType.STRING, ColumnType.ENUM, ColumnType.SET,
                 ColumnType.JSON -> true;
            default -> false;
        };
    }

    /** Text in the client's character set, or the bytes themselves when they are not (the server gets those). */
    private static Object text(byte[] bytes, Charset charset) {
        String text = Charsets.decodeStrict(bytes, 0, bytes.length, charset);
        return text != null ? text : bytes;
    }

    private static Object decimal(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.US_ASCII);
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return text; // the server's to judge, as it would the client's own text
        }
    }

    private static Object date(ByteBuf in) {
        int[] f = dateTimeFields(in);
        try {
            return LocalDate.of(f[0], f[1], f[2]);
        } catch (DateTimeException e) {
            return String.format("%04d-%02d-%02d", f[0], f[1], f[2]);
        }
    }

    private static Object dateTime(ByteBuf in) {
        int[] f = dateTimeFields(in);
        try {
            return LocalDateTime.of(f[0], f[1], f[2], f[3], f[4], f[5], f[6] * 1000);
        } catch (DateTimeException e) {
            return String.format("%04d-%02d-%02d %02d:%02d:%02d.%06d", f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
        }
    }

    /** Length 0, 4, 7 or 11, then year (2), month, day, hour, minute, second, microseconds (4). */
    private static int[] dateTimeFields(ByteBuf in) {
        int length = in.readUnsignedByte();
        int[] f = new int[7];
        if (length >= 4) {
            f[0] = in.readUnsignedShortLE();
            f[1] = in.readUnsignedByte();
            f[2] = in.readUnsignedByte();
        }
        if (length >= 7) {
            f[3] = in.readUnsignedByte();
            f[4] = in.readUnsignedByte();
            f[5] = in.readUnsignedByte();
        }
        if (length >= 11) {
            f[6] = (int) in.readUnsignedIntLE();
        }
        in.skipBytes(Math.max(0, length - 11));
        return f;
    }

    /** Length 0, 8 or 12, then negative (1), days (4), hour, minute, second, microseconds (4). */
    private static Duration time(ByteBuf in) {
        int length = in.readUnsignedByte();
        if (length < 8) {
            in.skipBytes(length);
            return Duration.ZERO;
        }
        boolean negative = in.readByte() == 1;
        long seconds = in.readUnsignedIntLE() * 86_400 + in.readUnsignedByte() * 3600L + in.readUnsignedByte() * 60L
                + in.readUnsignedByte();
        long micros = length >= 12 ? in.readUnsignedIntLE() : 0;
        in.skipBytes(Math.max(0, length - 12));
        Duration duration = Duration.ofSeconds(seconds, micros * 1000);
        return negative ? duration.negated() : duration;
    }
}
