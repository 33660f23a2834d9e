package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * Arithmetic as Groovy does it on the values sharding expressions see. Integers keep Groovy's types: Integer with
 * Integer stays an Integer and wraps on overflow as in Java, a Long makes it a Long, a BigInteger a BigInteger;
 * {@code %} is Java's remainder (its sign is the dividend's). {@code /} divides as Groovy: into a BigDecimal, exact
 * where the quotient ends ({@code 7 / 2} is 3.5, not 3), else to the operands' precision plus 10 digits;
 * {@code intdiv} is the whole-number division. A string holding a number counts as that number wherever a number
 * is needed (MySQL's comparison of {@code '5'} with 5), except with {@code +}, which joins strings as in Groovy.
 */
final class GroovyMath {

    private static final int INT = 0;
    private static final int LONG = 1;
    private static final int BIG_INTEGER = 2;
    private static final int BIG_DECIMAL = 3;
    private static final int DIVISION_EXTRA_PRECISION = 10;

    private GroovyMath() {
    }

    static Object add(Object a, Object b) {
        if (a instanceof String || b instanceof String) {
            return text(a) + text(b);
        }
        Number x = number(a, "+");
        Number y = number(b, "+");
        return switch (rank(x, y)) {
            case INT -> x.intValue() + y.intValue();
            case LONG -> x.longValue() + y.longValue();
            case BIG_INTEGER -> big(x).add(big(y));
            default -> decimal(x).add(decimal(y));
        };
    }

    static Object subtract(Object a, Object b) {
        Number x = number(a, "-");
        Number y = number(b, "-");
        return switch (rank(x, y)) {
            case INT -> x.intValue() - y.intValue();
            case LONG -> x.longValue() - y.longValue();
            case BIG_INTEGER -> big(x).subtract(big(y));
            default -> decimal(x).subtract(decimal(y));
        };
    }

    static Object multiply(Object a, Object b) {
        Number x = number(a, "*");
        Number y = number(b, "*");
        return switch (rank(x, y)) {
            case INT -> x.intValue() * y.intValue();
            case LONG -> x.longValue() * y.longValue();
            case BIG_INTEGER -> big(x).multiply(big(y));
            default -> decimal(x).multiply(decimal(y));
        };
    }

    static Object divide(Object a, Object b) {
        BigDecimal x = decimal(number(a, "/"));
        BigDecimal y = decimal(number(b, "/"));
        if (y.signum() == 0) {
            throw new ExpressionException("division by zero");
        }
        try {
            return x.divide(y);
        } catch (ArithmeticException endless) {
            return x.divide(y, new MathContext(Math.max(x.precision(), y.precision()) + DIVISION_EXTRA_PRECISION));
        }
    }

    static Object remainder(Object a, Object b) {
        Number x = number(a, "%");
        Number y = number(b, "%");
        if (decimal(y).signum() == 0) {
            throw new ExpressionException("% by zero");
        }
        return switch (rank(x, y)) {
            case INT -> x.intValue() % y.intValue();
            case LONG -> x.longValue() % y.longValue();
            case BIG_INTEGER -> big(x).remainder(big(y));
            default -> decimal(x).remainder(decimal(y));
        };
    }

    static Object intdiv(Object a, Object b) {
        Number x = number(a, "intdiv");
        Number y = number(b, "intdiv");
        int rank = rank(x, y);
        if (rank == BIG_DECIMAL) {
            throw new ExpressionException("intdiv needs whole numbers, got " + Values.describe(a) + " and "
                    + Values.describe(b));
        }
        if (big(y).signum() == 0) {
            throw new ExpressionException("intdiv by zero");
        }
        return switch (rank) {
            case INT -> x.intValue() / y.intValue();
            case LONG -> x.longValue() / y.longValue();
            default -> big(x).divide(big(y));
        };
    }

    static Object floorMod(Object a, Object b) {
        Number x = number(a, "Math.floorMod");
        Number y = number(b, "Math.floorMod");
        int rank = rank(x, y);
        if (rank == BIG_DECIMAL || rank == BIG_INTEGER) {
            throw new ExpressionException("Math.floorMod needs int or long values, got " + Values.describe(a)
                    + " and " + Values.describe(b));
        }
        if (y.longValue() == 0) {
            throw new ExpressionException("Math.floorMod by zero");
        }
        return rank == INT ? Math.floorMod(x.intValue(), y.intValue()) : Math.floorMod(x.longValue(), y.longValue());
    }

    static Object negate(Object a) {
        Number x = number(a, "-");
        return switch (rank(x, x)) {
            case INT -> -x.intValue();
            case LONG -> -x.longValue();
            case BIG_INTEGER -> big(x).negate();
            default -> decimal(x).negate();
        };
    }

    /** Math.abs as Java: Math.abs(Integer.MIN_VALUE) stays negative, as it does in Groovy. */
    static Object abs(Object a) {
        Number x = number(a, "abs");
        return switch (rank(x, x)) {
            case INT -> Math.abs(x.intValue());
            case LONG -> Math.abs(x.longValue());
            case BIG_INTEGER -> big(x).abs();
            default -> decimal(x).abs();
        };
    }

    /** The value as Groovy's number types, a string holding a number read as one; else an error naming op. */
    static Number number(Object value, String operation) {
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger
                || value instanceof BigDecimal) {
            return (Number) value;
        }
        Object canonical = value instanceof String text ? Values.canonical(Values.number(text)) : value;
        if (canonical instanceof Number number && Values.number(number) != null) {
            return (Number) Values.canonical(number);
        }
        throw new ExpressionException(operation + " needs numbers, got " + Values.describe(value));
    }

    /** How a value prints when joined to a string: Groovy's toString. */
    static String text(Object value) {
        return value instanceof BigDecimal decimal ? decimal.toString() : String.valueOf(value);
    }

    private static int rank(Number x, Number y) {
        return Math.max(rank(x), rank(y));
    }

    private static int rank(Number x) {
        if (x instanceof Integer) {
            return INT;
        }
        if (x instanceof Long) {
            return LONG;
        }
        return x instanceof BigInteger ? BIG_INTEGER : BIG_DECIMAL;
    }

    private static BigInteger big(Number x) {
        return x instanceof BigInteger big ? big : BigInteger.valueOf(x.longValue());
    }

    private static BigDecimal decimal(Number x) {
        if (x instanceof BigDecimal decimal) {
            return decimal;
        }
        return x instanceof BigInteger big ? new BigDecimal(big) : BigDecimal.valueOf(x.longValue());
    }
}
