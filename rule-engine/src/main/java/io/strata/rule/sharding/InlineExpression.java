package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A ShardingSphere inline expression: text with Groovy in {@code ${...}} or {@code $->{...}}, like
 * {@code t_order_${order_id % 2}}, read once at start without a scripting engine. What the Groovy may hold is in
 * {@link ExpressionParser}; how it computes, in {@link GroovyMath}.
 *
 * <p>One departure from Groovy, on purpose: a value that prints into a name must be a whole number or text. Groovy
 * would print {@code 7 / 2} as 3.5 and {@code 1.5 * 2} as 3.0; here the first is an error (no table is named
 * {@code t_3.5}) and the second names {@code t_3}.
 */
final class InlineExpression {

    private final String text;
    /** Literal text (String) and expressions (Expr), in order. */
    private final List<Object> parts;

    private InlineExpression(String text, List<Object> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
    }

    /**
     * @param collections whether {@code ${...}} may hold ranges and lists (actualDataNodes)
     * @throws ExpressionException with the position of what cannot be read
     */
    static InlineExpression parse(String text, boolean collections) {
        List<Object> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int at = 0;
        while (at < text.length()) {
            int open = openingAt(text, at);
            if (open == 0) {
                if (text.charAt(at) == '$') {
                    throw new ExpressionException("a '$' that starts no ${...} or $->{...}", at);
                }
                literal.append(text.charAt(at++));
                continue;
            }
            if (!literal.isEmpty()) {
                parts.add(literal.toString());
                literal.setLength(0);
            }
            int start = at + open;
            int close = closingBrace(text, at, start);
            parts.add(ExpressionParser.parse(text, start, close, collections));
            at = close + 1;
        }
        if (!literal.isEmpty()) {
            parts.add(literal.toString());
        }
        return new InlineExpression(text, parts);
    }

    /** Length of the opening {@code ${} or {@code $->{} at {@code at}, or 0. */
    private static int openingAt(String text, int at) {
        if (text.startsWith("${", at)) {
            return 2;
        }
        return text.startsWith("$->{", at) ? 4 : 0;
    }

    /**
     * The {@code }} that closes the expression opened at {@code opening} and starting at {@code start}; braces
     * inside quotes do not count.
     */
    private static int closingBrace(String text, int opening, int start) {
        char quote = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '{') {
                throw new ExpressionException("a Groovy closure or block is not supported", i);
            } else if (c == '}') {
                return i;
            }
        }
        throw new ExpressionException("a ${ that is not closed by }", opening);
    }

    String text() {
        return text;
    }

    /** Literal text (String) and expressions (Expr), in order. */
    List<Object> parts() {
        return parts;
    }

    /** The column names the expression reads, as written. */
    Set<String> variables() {
        Set<String> names = new LinkedHashSet<>();
        for (Object part : parts) {
            if (part instanceof Expr expr) {
                collectVariables(expr, names);
            }
        }
        return names;
    }

    /** Whether it reads only these columns (compared ignoring case, as MySQL compares column names). */
    boolean readsOnly(Set<String> columns) {
        Set<String> lower = new LinkedHashSet<>();
        columns.forEach(column -> lower.add(column.toLowerCase(Locale.ROOT)));
        return variables().stream().allMatch(name -> lower.contains(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * The text with each {@code ${...}} replaced by its value.
     *
     * @param variables values by lower-case column name, as given (they are made canonical here)
     * @throws ExpressionException when a value does not fit the expression or prints as no name
     */
    String evaluate(Map<String, ?> variables) {
        Map<String, Object> canonical = new HashMap<>();
        variables.forEach((name, value) -> canonical.put(name.toLowerCase(Locale.ROOT), Values.canonical(value)));
        StringBuilder result = new StringBuilder();
        for (Object part : parts) {
            if (part instanceof Expr expr) {
                result.append(print(ExpressionEvaluator.evaluate(expr, canonical)));
            } else {
                result.append(part);
            }
        }
        return result.toString();
    }

    /** How a value prints into a name: whole numbers without a fraction, text as it is. */
    static String print(Object value) {
        if (value instanceof BigDecimal decimal) {
            if (decimal.signum() != 0 && decimal.stripTrailingZeros().scale() > 0) {
                throw new ExpressionException("the value " + decimal.toPlainString() + " is not a whole number "
                        + "(/ divides exactly, as in Groovy; use intdiv for a whole-number division)");
            }
            return decimal.toBigInteger().toString();
        }
        if (value instanceof List<?>) {
            throw new ExpressionException("a range or list names several tables, not one");
        }
        return String.valueOf(value);
    }

    private static void collectVariables(Expr expr, Set<String> names) {
        switch (expr) {
            case Expr.Variable variable -> names.add(variable.name());
            case Expr.Negate negate -> collectVariables(negate.operand(), names);
            case Expr.Binary binary -> {
                collectVariables(binary.left(), names);
                collectVariables(binary.right(), names);
            }
            case Expr.MethodCall call -> {
                collectVariables(call.target(), names);
                call.arguments().forEach(argument -> collectVariables(argument, names));
            }
            case Expr.MathCall call -> call.arguments().forEach(argument -> collectVariables(argument, names));
            case Expr.RangeOf range -> {
                collectVariables(range.from(), names);
                collectVariables(range.to(), names);
            }
            case Expr.ListOf list -> list.items().forEach(item -> collectVariables(item, names));
            case Expr.Literal literal -> {
            }
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
