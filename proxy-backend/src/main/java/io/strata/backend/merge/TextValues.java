package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Values read in place from their text, as the text protocol (and the binary protocol for DECIMAL) carries them:
 * ASCII digits, so nothing is copied or turned into a String on the common path.
 */
final class TextValues {

    private TextValues() {
    }

    /**
     * An integer's text as a long; BIGINT UNSIGNED above Long.MAX_VALUE comes out as its 64 bits (the arithmetic
     * wraps exactly as unsigned arithmetic does).
     */
    static long integer(ByteBuf buf, int start, int length) {
        int i = start;
        int end = start + length;
        boolean negative = i < end && buf.getByte(i) == '-';
        if (negative || i < end && buf.getByte(i) == '+') {
            i++;
        }
        long value = 0;
        for (; i < end; i++) {
            value = value * 10 + (buf.getByte(i) - '0');
        }
        return negative ? -value : value;
    }

    static double floating(ByteBuf buf, int start, int length) {
        return Double.parseDouble(buf.toString(start, length, StandardCharsets.US_ASCII));
    }

    static BigDecimal decimal(ByteBuf buf, int start, int length) {
        return new BigDecimal(buf.toString(start, length, StandardCharsets.US_ASCII));
    }

    /**
     * "YYYY-MM-DD[ hh:mm:ss[.ffffff]]" with its fields packed in order into one long, which orders as the text does
     * whatever the fraction's width.
     */
    static long dateTime(ByteBuf buf, int start, int length) {
        long[] fields = new long[7];
        fields(buf, start, start + length, fields);
        return DateTimes.pack(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6]);
    }

    /** "[-]hhh:mm:ss[.ffffff]" in signed microseconds. */
    static long time(ByteBuf buf, int start, int length) {
        boolean negative = length > 0 && buf.getByte(start) == '-';
        long[] fields = new long[4];
        fields(buf, negative ? start + 1 : start, start + length, fields);
        long micros = ((fields[0] * 60 + fields[1]) * 60 + fields[2]) * 1_000_000 + fields[3];
        return negative ? -micros : micros;
    }

    /** The numbers of a date or time in order; the one after a '.' is the last, in microseconds. */
    private static void fields(ByteBuf buf, int from, int end, long[] fields) {
        int field = 0;
        int fractionDigits = -1;
        for (int i = from; i < end && field < fields.length; i++) {
            byte c = buf.getByte(i);
            if (c >= '0' && c <= '9') {
                if (fractionDigits < 0) {
                    fields[field] = fields[field] * 10 + (c - '0');
                } else if (fractionDigits < 6) {
                    fields[field] = fields[field] * 10 + (c - '0');
                    fractionDigits++;
                }
            } else if (c == '.') {
                field = fields.length - 1;
                fractionDigits = 0;
            } else {
                field++;
            }
        }
        if (fractionDigits >= 0) {
            for (; fractionDigits < 6; fractionDigits++) {
                fields[fields.length - 1] *= 10;
            }
        }
    }

    /**
     * Two DECIMAL texts ("-12.50", "3") by value, without parsing either: sign, then the length of the integer
     * part without leading zeros, then the digits, the shorter fraction read as padded with zeros.
     */
    static int compareDecimal(ByteBuf a, int aStart, int aLength, ByteBuf b, int bStart, int bLength) {
        boolean aNegative = aLength > 0 && a.getByte(aStart) == '-';
        boolean bNegative = bLength > 0 && b.getByte(bStart) == '-';
        int aFrom = aNegative ? aStart + 1 : aStart;
        int bFrom = bNegative ? bStart + 1 : bStart;
        int magnitude = compareMagnitude(a, aFrom, aStart + aLength, b, bFrom, bStart + bLength);
        if (aNegative == bNegative) {
            return aNegative ? -magnitude : magnitude;
        }
        if (isZero(a, aFrom, aStart + aLength) && isZero(b, bFrom, bStart + bLength)) {
            return 0; // "-0.00" and "0.00"
        }
        return aNegative ? -1 : 1;
    }

    private static int compareMagnitude(ByteBuf a, int aFrom, int aEnd, ByteBuf b, int bFrom, int bEnd) {
        aFrom = skipZeros(a, aFrom, aEnd);
        bFrom = skipZeros(b, bFrom, bEnd);
        int aPoint = point(a, aFrom, aEnd);
        int bPoint = point(b, bFrom, bEnd);
        int aInteger = aPoint - aFrom;
        int bInteger = bPoint - bFrom;
        if (aInteger != bInteger) {
            return aInteger < bInteger ? -1 : 1;
        }
        for (int i = 0; i < aInteger; i++) {
            int c = Byte.compare(a.getByte(aFrom + i), b.getByte(bFrom + i));
            if (c != 0) {
                return c;
            }
        }
        int aFraction = Math.max(aEnd - aPoint - 1, 0);
        int bFraction = Math.max(bEnd - bPoint - 1, 0);
        for (int i = 0; i < Math.max(aFraction, bFraction); i++) {
            byte ad = i < aFraction ? a.getByte(aPoint + 1 + i) : (byte) '0';
            byte bd = i < bFraction ? b.getByte(bPoint + 1 + i) : (byte) '0';
            if (ad != bd) {
                return ad < bd ? -1 : 1;
            }
        }
        return 0;
    }

    private static int skipZeros(ByteBuf buf, int from, int end) {
        while (from < end && (buf.getByte(from) == '0' || buf.getByte(from) == '+')) {
            from++;
        }
        return from;
    }

    private static int point(ByteBuf buf, int from, int end) {
        for (int i = from; i < end; i++) {
            if (buf.getByte(i) == '.') {
                return i;
            }
        }
        return end;
    }

    private static boolean isZero(ByteBuf buf, int from, int end) {
        for (int i = from; i < end; i++) {
            byte c = buf.getByte(i);
            if (c != '0' && c != '.') {
                return false;
            }
        }
        return true;
    }
}
