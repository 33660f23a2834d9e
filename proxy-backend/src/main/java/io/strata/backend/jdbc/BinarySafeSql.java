package io.strata.backend.jdbc;

import io.strata.protocol.Charsets;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.util.HexFormat;

/**
 * Turns the bytes of a COM_QUERY into a String for JDBC without losing binary data. Drivers send binary parameters
 * of client-side prepared statements as string literals holding raw bytes ({@code _binary'...'}), which no character
 * set decodes; such literals are rewritten as hex literals ({@code X'...'}), which mean the same bytes to the server.
 */
public final class BinarySafeSql {

    private BinarySafeSql() {
    }

    /** @param noBackslashEscapes the session's NO_BACKSLASH_ESCAPES status (backslash is then an ordinary byte) */
    public static String decode(byte[] sql, Charset charset, boolean noBackslashEscapes) {
        String strict = Charsets.decodeStrict(sql, 0, sql.length, charset);
        if (strict != null) {
            return strict;
        }
        StringBuilder out = new StringBuilder(sql.length * 2);
        int plainStart = 0;
        int i = 0;
        while (i < sql.length) {
            byte b = sql[i];
            if (b == '\'' || b == '"') {
                int end = literalEnd(sql, i, noBackslashEscapes);
                String literal = Charsets.decodeStrict(sql, i, end - i, charset);
                if (literal == null) {
                    out.append(new String(sql, plainStart, i - plainStart, charset));
                    if (i > 0 && isWordByte(sql[i - 1])) {
                        out.append(' '); // _binary'..' becomes _binary X'..', not the identifier _binaryX
                    }
                    out.append("X'").append(HexFormat.of().formatHex(unescape(sql, i + 1, end - 1,
                            noBackslashEscapes, b))).append('\'');
                    plainStart = end;
                }
                i = end;
            } else {
                i++;
            }
        }
        out.append(new String(sql, plainStart, sql.length - plainStart, charset));
        return out.toString();
    }

    private static boolean isWordByte(byte b) {
        return Character.isLetterOrDigit(b) || b == '_' || b == '$';
    }

    /** The index just past the closing quote of the literal opening at {@code start}. */
    private static int literalEnd(byte[] sql, int start, boolean noBackslashEscapes) {
        byte quote = sql[start];
        int i = start + 1;
        while (i < sql.length) {
            byte b = sql[i];
            if (b == '\\' && !noBackslashEscapes) {
                i += 2;
            } else if (b == quote) {
                if (i + 1 < sql.length && sql[i + 1] == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length;
    }

    /** The bytes a literal stands for, with MySQL's escapes resolved. */
    private static byte[] unescape(byte[] sql, int from, int to, boolean noBackslashEscapes, byte quote) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(0, to - from));
        for (int i = from; i < to; i++) {
            byte b = sql[i];
            if (b == '\\' && !noBackslashEscapes && i + 1 < to) {
                byte e = sql[++i];
                if (e == '%' || e == '_') {
                    out.write('\\'); // MySQL keeps the backslash of \% and \_ (they matter to LIKE)
                }
                out.write(switch (e) {
                    case '0' -> 0;
                    case 'b' -> '\b';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    case 'Z' -> 26;
                    default -> e; // \\ \' \" and any other character stand for themselves
                });
            } else if (b == quote && i + 1 < to && sql[i + 1] == quote) {
                out.write(b);
                i++;
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }
}
