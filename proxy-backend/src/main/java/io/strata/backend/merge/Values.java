package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The values of rows compared, told equal, and read as numbers, as MySQL does it for each {@link ColumnKind}. */
final class Values {

    private Values() {
    }

    /**
     * Column {@code ca} of {@code a} against column {@code cb} of {@code b}, both of {@code a}'s kind for {@code
     * ca}; NULL before every value.
     */
    static int compare(MergeRow a, int ca, MergeRow b, int cb) {
        boolean aNull = a.isNull(ca);
        boolean bNull = b.isNull(cb);
        if (aNull || bNull) {
            return aNull == bNull ? 0 : aNull ? -1 : 1;
        }
        return switch (a.layout().kind(ca)) {
            case SIGNED, DATE_TIME, TIME -> Long.compare(a.longValue(ca), b.longValue(cb));
            case UNSIGNED -> Long.compareUnsigned(a.longValue(ca), b.longValue(cb));
            case FLOATING -> compareDoubles(a.doubleValue(ca), b.doubleValue(cb));
            case DECIMAL -> TextValues.compareDecimal(a.bytes(ca), a.start(ca), a.length(ca), b.bytes(cb), b.start(cb),
                    b.length(cb));
            case BYTES -> compareBytes(a.bytes(ca), a.start(ca), a.length(ca), b.bytes(cb), b.start(cb),
                    b.length(cb));
        };
    }

    /** -0.0 and 0.0 are equal, as in MySQL. */
    static int compareDoubles(double a, double b) {
        return a < b ? -1 : a > b ? 1 : 0;
    }

    /** Bytes compared unsigned, eight at a time where they can be; a prefix before what it begins. */
    static int compareBytes(ByteBuf a, int aStart, int aLength, ByteBuf b, int bStart, int bLength) {
        int common = Math.min(aLength, bLength);
        int i = 0;
        for (; i + 8 <= common; i += 8) {
            long x = a.getLong(aStart + i);
            long y = b.getLong(bStart + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < common; i++) {
            int c = Integer.compare(a.getUnsignedByte(aStart + i), b.getUnsignedByte(bStart + i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(aLength, bLength);
    }

    /**
     * The value as a key equal to another row's exactly when {@link #compare} says they are equal (for groups in a
     * hash map and distinct values): a Long, a BigDecimal without trailing zeros, a Double, {@link Bytes}; null.
     */
    static Object key(MergeRow row, int column) {
        if (row.isNull(column)) {
            return null;
        }
        return switch (row.layout().kind(column)) {
            case SIGNED, UNSIGNED, DATE_TIME, TIME -> row.longValue(column);
            case FLOATING -> row.doubleValue(column) + 0.0; // -0.0 becomes 0.0
            case DECIMAL -> decimal(row, column).stripTrailingZeros();
            case BYTES -> new Bytes(copy(row, column));
        };
    }

    /** A numeric value exactly (a FLOAT or DOUBLE by its shortest text); a string's number as MySQL reads it. */
    static BigDecimal decimal(MergeRow row, int column) {
        return switch (row.layout().kind(column)) {
            case SIGNED -> BigDecimal.valueOf(row.longValue(column));
            case UNSIGNED -> new BigDecimal(new BigInteger(Long.toUnsignedString(row.longValue(column))));
            case FLOATING -> new BigDecimal(Double.toString(row.doubleValue(column)));
            case DECIMAL -> TextValues.decimal(row.bytes(column), row.start(column), row.length(column));
            case DATE_TIME, TIME, BYTES -> leadingNumber(new String(copy(row, column), StandardCharsets.UTF_8));
        };
    }

    /** The number a string begins with, as MySQL converts a string in numeric context ("12abc" is 12, "x" is 0). */
    static BigDecimal leadingNumber(String text) {
        String trimmed = text.strip();
        int end = 0;
        while (end < trimmed.length() && "+-.0123456789eE".indexOf(trimmed.charAt(end)) >= 0) {
            end++;
        }
        for (; end > 0; end--) {
            try {
                return new BigDecimal(trimmed.substring(0, end));
            } catch (NumberFormatException e) {
                // shorter: "1e" or "1." then "1"
            }
        }
        return BigDecimal.ZERO;
    }

    static byte[] copy(MergeRow row, int column) {
        byte[] bytes = new byte[row.length(column)];
        row.bytes(column).getBytes(row.start(column), bytes);
        return bytes;
    }

    /** Bytes as a key: equal when their contents are. */
    record Bytes(byte[] value) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Bytes bytes && Arrays.equals(value, bytes.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return new String(value, StandardCharsets.UTF_8);
        }
    }
}
