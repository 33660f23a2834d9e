package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Computes an {@link Expr} for the values of its columns. Failures (a method on a value that has none, a string
 * index out of range, a division by zero) are {@link ExpressionException}s without position.
 */
final class ExpressionEvaluator {

    /** Ranges in actualDataNodes are expanded in memory: a typo like 0..99999999 must not exhaust it. */
    static final int MAX_RANGE = 100_000;

    private ExpressionEvaluator() {
    }

    /**
     * @param variables column values by lower-case column name, as {@link Values#canonical} makes them
     * @return Integer, Long, BigInteger, BigDecimal, String, a value of a variable, or (ranges and lists) a List
     */
    static Object evaluate(Expr expr, Map<String, Object> variables) {
        return switch (expr) {
            case Expr.Literal literal -> literal.value();
            case Expr.Variable variable -> variable(variable, variables);
            case Expr.Negate negate -> GroovyMath.negate(evaluate(negate.operand(), variables));
            case Expr.Binary binary -> binary(binary, variables);
            case Expr.MethodCall call -> method(call, variables);
            case Expr.MathCall call -> math(call, variables);
            case Expr.RangeOf range -> range(range, variables);
            case Expr.ListOf list -> list(list, variables);
        };
    }

    private static Object variable(Expr.Variable variable, Map<String, Object> variables) {
        Object value = variables.get(variable.name().toLowerCase(Locale.ROOT));
        if (value == null) {
            throw new ExpressionException("no value for " + variable.name());
        }
        return value;
    }

    private static Object binary(Expr.Binary binary, Map<String, Object> variables) {
        Object left = evaluate(binary.left(), variables);
        Object right = evaluate(binary.right(), variables);
        return switch (binary.operator()) {
            case '+' -> GroovyMath.add(left, right);
            case '-' -> GroovyMath.subtract(left, right);
            case '*' -> GroovyMath.multiply(left, right);
            case '/' -> GroovyMath.divide(left, right);
            default -> GroovyMath.remainder(left, right);
        };
    }

    private static Object math(Expr.MathCall call, Map<String, Object> variables) {
        Object first = evaluate(call.arguments().get(0), variables);
        if (call.function().equals("abs")) {
            return GroovyMath.abs(first);
        }
        return GroovyMath.floorMod(first, evaluate(call.arguments().get(1), variables));
    }

    private static Object method(Expr.MethodCall call, Map<String, Object> variables) {
        Object target = evaluate(call.target(), variables);
        List<Object> arguments = new ArrayList<>(call.arguments().size());
        call.arguments().forEach(argument -> arguments.add(evaluate(argument, variables)));
        return switch (call.method()) {
            case "hashCode" -> target.hashCode();
            case "toString" -> GroovyMath.text(target);
            case "length" -> string(target, "length").length();
            case "abs" -> GroovyMath.abs(target);
            case "intValue", "toInteger" -> GroovyMath.number(target, call.method()).intValue();
            case "longValue", "toLong" -> GroovyMath.number(target, call.method()).longValue();
            case "intdiv" -> GroovyMath.intdiv(target, arguments.get(0));
            case "substring" -> substring(string(target, "substring"), arguments);
            default -> padLeft(string(target, "padLeft"), arguments);
        };
    }

    private static String substring(String text, List<Object> arguments) {
        int from = index(arguments.get(0), "substring");
        int to = arguments.size() > 1 ? index(arguments.get(1), "substring") : text.length();
        if (from < 0 || to > text.length() || from > to) {
            throw new ExpressionException("substring(" + from + (arguments.size() > 1 ? ", " + to : "")
                    + ") is out of range for " + Values.describe(text));
        }
        return text.substring(from, to);
    }

    private static String padLeft(String text, List<Object> arguments) {
        int width = index(arguments.get(0), "padLeft");
        String padding = arguments.size() > 1 ? string(arguments.get(1), "padLeft") : " ";
        if (padding.isEmpty() || width > MAX_RANGE) {
            throw new ExpressionException("padLeft needs a non-empty padding and a sensible width");
        }
        StringBuilder padded = new StringBuilder();
        while (padded.length() < width - text.length()) {
            padded.append(padding);
        }
        padded.setLength(Math.max(0, width - text.length()));
        return padded + text;
    }

    private static List<Object> range(Expr.RangeOf range, Map<String, Object> variables) {
        long from = whole(evaluate(range.from(), variables), "a range");
        long to = whole(evaluate(range.to(), variables), "a range");
        long step = from <= to ? 1 : -1;
        long last = range.exclusive() ? to - step : to;
        if (range.exclusive() && from == to) {
            return List.of();
        }
        if (Math.abs(last - from) >= MAX_RANGE) {
            throw new ExpressionException("the range " + from + ".." + to + " has more than " + MAX_RANGE
                    + " values");
        }
        List<Object> values = new ArrayList<>();
        for (long value = from; value != last + step; value += step) {
            values.add(Values.narrow(BigInteger.valueOf(value)));
        }
        return values;
    }

    private static List<Object> list(Expr.ListOf list, Map<String, Object> variables) {
        List<Object> values = new ArrayList<>(list.items().size());
        for (Expr item : list.items()) {
            Object value = evaluate(item, variables);
            if (value instanceof List<?>) {
                throw new ExpressionException("a list inside a list");
            }
            values.add(value);
        }
        return values;
    }

    private static String string(Object value, String method) {
        if (value instanceof String text) {
            return text;
        }
        throw new ExpressionException(method + " needs a string, got " + Values.describe(value)
                + " (call toString() first)");
    }

    private static int index(Object value, String method) {
        long index = whole(value, method);
        if (index < Integer.MIN_VALUE || index > Integer.MAX_VALUE) {
            throw new ExpressionException(method + " needs an int, got " + value);
        }
        return (int) index;
    }

    private static long whole(Object value, String what) {
        Number number = GroovyMath.number(value, what);
        if (number instanceof BigDecimal || number instanceof BigInteger) {
            throw new ExpressionException(what + " needs int or long values, got " + Values.describe(value));
        }
        return number.longValue();
    }
}
