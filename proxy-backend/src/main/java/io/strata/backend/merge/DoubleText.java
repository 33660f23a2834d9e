package io.strata.backend.merge;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A DOUBLE as MySQL and MariaDB print it in a text row ({@code String::set_real}): with a column's fixed decimals,
 * rounded to them; else the shortest digits that read back as the same double ({@code my_gcvt}), in plain notation
 * when the point falls within 15 digits before it or 14 zeros after it, else as "1.5e20" / "1e-16".
 */
final class DoubleText {

    /** A column's decimals from which a DOUBLE's are not fixed (the server sends 31; MariaDB's own is 39). */
    static final int NOT_FIXED_DECIMALS = 31;
    /** DBL_DIG: the most integer digits printed plainly when the digits end before the point. */
    private static final int MAX_POINT_FOR_PLAIN = 15;
    /** The point may be at most 14 zeros before the first digit for plain notation. */
    private static final int MIN_POINT_FOR_PLAIN = -14;

    private DoubleText() {
    }

    static String format(double value, int decimals) {
        if (decimals < NOT_FIXED_DECIMALS) {
            return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0" : "0";
        }
        BigDecimal shortest = shortest(Math.abs(value));
        String digits = shortest.unscaledValue().toString();
        int point = digits.length() - shortest.scale(); // digits before the point; negative: zeros after it
        StringBuilder out = new StringBuilder(digits.length() + 8);
        if (value < 0) {
            out.append('-');
        }
        if (point >= MIN_POINT_FOR_PLAIN && (point <= MAX_POINT_FOR_PLAIN || digits.length() > point)) {
            plain(out, digits, point);
        } else {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(point - 1);
        }
        return out.toString();
    }

    /**
     * The fewest digits that read back as the value. Java's own shortest form never has fewer than two (4.9E-324
     * where one digit, 5e-324, reads back the same), so one digit is tried too.
     */
    private static BigDecimal shortest(double positive) {
        BigDecimal java = new BigDecimal(Double.toString(positive)).stripTrailingZeros();
        if (java.precision() == 2) {
            BigDecimal one = java.round(new MathContext(1, RoundingMode.HALF_EVEN));
            if (one.doubleValue() == positive) {
                return one.stripTrailingZeros();
            }
        }
        return java;
    }

    private static void plain(StringBuilder out, String digits, int point) {
        if (point <= 0) {
            out.append("0.").repeat('0', -point).append(digits);
        } else if (point < digits.length()) {
            out.append(digits, 0, point).append('.').append(digits, point, digits.length());
        } else {
            out.append(digits).repeat('0', point - digits.length());
        }
    }
}
