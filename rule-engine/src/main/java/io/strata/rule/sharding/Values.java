package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.Temporal;

/**
 * How sharding values compare and count as numbers. Values come as the router read them from SQL or from
 * parameters: Integer, Long, BigInteger, BigDecimal ({@code 5.0}), String ({@code '5'}), java.time values.
 *
 * <p>Numbers follow MySQL's comparison of a number with an integer column: a string that holds a number
 * ({@code ' 5'}, {@code '5.0'}, {@code '+5'}, {@code '5e0'}) counts as that number, as {@code id = '5'} finds the
 * row {@code id = 5}. A string that holds no number is refused rather than read as 0 (what MySQL does, with a
 * warning), and a fraction is refused where a whole number is needed: such a value matches no row of an integer
 * column, and an error says so more plainly than an empty result.
 */
final class Values {

    private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /** Digits before the point beyond which a "number" is refused: 1e999999999 must not become a huge integer. */
    private static final int MAX_DIGITS = 400;

    private Values() {
    }

    /** The value as a number, or null when it is no number (nor a string holding one). */
    static BigDecimal number(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger big) {
            return new BigDecimal(big);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        if (value instanceof String text) {
            return parse(text.strip());
        }
        return null;
    }

    private static BigDecimal parse(String text) {
        if (text.isEmpty() || text.length() > MAX_DIGITS) {
            return null;
        }
        try {
            BigDecimal number = new BigDecimal(text);
            return number.precision() - number.scale() > MAX_DIGITS ? null : number;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The value as a whole number, or null when it is none: {@code 5}, {@code 5.0} and {@code '5'} are 5. */
    static BigInteger wholeNumber(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return BigInteger.valueOf(((Number) value).longValue());
        }
        BigDecimal number = number(value);
        if (number == null || number.precision() - number.scale() > MAX_DIGITS
                || number.signum() != 0 && number.stripTrailingZeros().scale() > 0) {
            return null;
        }
        return number.toBigInteger();
    }

    /** The smallest of Integer, Long, BigInteger that holds it: how a SQL literal reads in ShardingSphere. */
    static Number narrow(BigInteger value) {
        if (value.compareTo(INT_MIN) >= 0 && value.compareTo(INT_MAX) <= 0) {
            return value.intValue();
        }
        if (value.compareTo(LONG_MIN) >= 0 && value.compareTo(LONG_MAX) <= 0) {
            return value.longValue();
        }
        return value;
    }

    /**
     * The value as an expression or a hash sees it: whole numbers (also {@code 5.0}) as the smallest of Integer,
     * Long, BigInteger, so {@code 5} hashes the same whether it came as text or as a BIGINT parameter; other
     * numbers as BigDecimal; strings and dates as they are.
     */
    static Object canonical(Object value) {
        if (value instanceof Integer) {
            return value;
        }
        if (value instanceof String || !(value instanceof Number)) {
            return value;
        }
        BigInteger whole = wholeNumber(value);
        if (whole != null) {
            return narrow(whole);
        }
        BigDecimal number = number(value);
        return number == null ? value : number.stripTrailingZeros();
    }

    /**
     * Whether comparing the two is certain whatever the column: numbers with numbers, java.time values of one type.
     * A string is never: its equality with another value depends on the column's type and collation.
     */
    static boolean surelyComparable(Object a, Object b) {
        if (a instanceof String || b instanceof String) {
            return false;
        }
        if (a instanceof Number && b instanceof Number) {
            return number(a) != null && number(b) != null;
        }
        return a instanceof Temporal && a instanceof Comparable<?> && a.getClass() == b.getClass();
    }

    /** Orders two values for which {@link #surelyComparable} holds. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        if (a instanceof Number && b instanceof Number) {
            return number(a).compareTo(number(b));
        }
        return ((Comparable) a).compareTo(b);
    }

    /** Whether the value lies in the range; null when that is not certain (see {@link #surelyComparable}). */
    static Boolean inRange(Object value, ShardingRange range) {
        if (range.hasLower()) {
            if (!surelyComparable(value, range.lower())) {
                return null;
            }
            int order = compare(value, range.lower());
            if (order < 0 || order == 0 && !range.lowerInclusive()) {
                return false;
            }
        }
        if (range.hasUpper()) {
            if (!surelyComparable(value, range.upper())) {
                return null;
            }
            int order = compare(value, range.upper());
            return order < 0 || order == 0 && range.upperInclusive();
        }
        return true;
    }

    /** For messages: strings quoted as in SQL, numbers and dates as they print. */
    static String describe(Object value) {
        if (value instanceof String text) {
            return "'" + text.replace("'", "''") + "'";
        }
        return String.valueOf(value);
    }
}
