package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the Groovy inside one {@code ${...}}: integer and decimal literals, strings in single or double quotes,
 * column names, {@code + - * / %}, parentheses, {@code Math.abs(..)}, {@code Math.floorMod(..)} and the methods
 * of {@link Expr#METHODS}; with collections allowed (actualDataNodes) also {@code a..b}, {@code a..<b} and
 * {@code [x, y]}. Anything else is refused with its position, so an expression either means what Groovy would
 * make of it or stops the start. A recursive descent parser, longer than most classes here because a grammar
 * reads best in one place; expressions are a few dozen characters.
 */
final class ExpressionParser {

    private final String text;
    private final int end;
    private final boolean collections;
    private int at;

    private ExpressionParser(String text, int start, int end, boolean collections) {
        this.text = text;
        this.at = start;
        this.end = end;
        this.collections = collections;
    }

    /**
     * Parses {@code text[start, end)}; positions in errors and nodes index into the whole {@code text}.
     *
     * @param collections whether ranges and lists are allowed (data node expressions)
     */
    static Expr parse(String text, int start, int end, boolean collections) {
        ExpressionParser parser = new ExpressionParser(text, start, end, collections);
        parser.skipSpaces();
        if (parser.at >= end) {
            throw new ExpressionException("an empty ${}", start);
        }
        Expr expr = parser.top();
        parser.skipSpaces();
        if (parser.at < end) {
            throw parser.unexpected();
        }
        return expr;
    }

    private Expr top() {
        Expr expr = additive();
        skipSpaces();
        if (!collections || !lookingAt("..")) {
            return expr;
        }
        int position = at;
        at += 2;
        boolean exclusive = accept('<');
        return new Expr.RangeOf(expr, additive(), exclusive, position);
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (true) {
            skipSpaces();
            char c = peek();
            if (c != '+' && c != '-') {
                return left;
            }
            int position = at++;
            left = new Expr.Binary(c, left, multiplicative(), position);
        }
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (true) {
            skipSpaces();
            char c = peek();
            if (c != '*' && c != '/' && c != '%') {
                return left;
            }
            int position = at++;
            left = new Expr.Binary(c, left, unary(), position);
        }
    }

    private Expr unary() {
        skipSpaces();
        int position = at;
        if (accept('-')) {
            return new Expr.Negate(unary(), position);
        }
        if (accept('+')) {
            return unary();
        }
        return postfix(primary());
    }

    private Expr postfix(Expr target) {
        while (true) {
            skipSpaces();
            if (peek() != '.' || at + 1 < end && text.charAt(at + 1) == '.') {
                return target;
            }
            at++;
            skipSpaces();
            int position = at;
            String method = identifier();
            target = new Expr.MethodCall(target, method, arguments(method, Expr.METHODS.get(method), position),
                    position);
        }
    }

    private Expr primary() {
        skipSpaces();
        int position = at;
        char c = peek();
        if (Character.isDigit(c)) {
            return number();
        }
        if (c == '\'' || c == '"') {
            return new Expr.Literal(string(c), position);
        }
        if (c == '(') {
            at++;
            Expr inner = additive();
            expect(')');
            return inner;
        }
        if (c == '[' && collections) {
            return list();
        }
        if (Character.isLetter(c) || c == '_') {
            String name = identifier();
            skipSpaces();
            if (name.equals("Math") && peek() == '.') {
                at++;
                skipSpaces();
                int functionPosition = at;
                String function = identifier();
                return new Expr.MathCall(function,
                        arguments("Math." + function, Expr.MATH_FUNCTIONS.get(function), functionPosition),
                        position);
            }
            return new Expr.Variable(name, position);
        }
        throw unexpected();
    }

    private List<Expr> arguments(String method, Set<Integer> arities, int position) {
        if (arities == null) {
            Set<String> known = new TreeSet<>(method.startsWith("Math.") ? Expr.MATH_FUNCTIONS.keySet()
                    : Expr.METHODS.keySet());
            throw new ExpressionException(method + "() is not supported (supported: " + String.join(", ", known)
                    + ")", position);
        }
        skipSpaces();
        expect('(');
        List<Expr> arguments = new ArrayList<>();
        skipSpaces();
        if (!accept(')')) {
            do {
                arguments.add(additive());
                skipSpaces();
            } while (accept(','));
            expect(')');
        }
        if (!arities.contains(arguments.size())) {
            String counts = String.join(" or ", new TreeSet<>(arities).stream().map(String::valueOf).toList());
            throw new ExpressionException(method + "() takes " + counts + " arguments, not " + arguments.size(),
                    position);
        }
        return arguments;
    }

    private Expr list() {
        int position = at++;
        List<Expr> items = new ArrayList<>();
        skipSpaces();
        if (!accept(']')) {
            do {
                items.add(additive());
                skipSpaces();
            } while (accept(','));
            expect(']');
        }
        return new Expr.ListOf(items, position);
    }

    private Expr number() {
        int position = at;
        while (at < end && Character.isDigit(text.charAt(at))) {
            at++;
        }
        boolean decimal = at + 1 < end && text.charAt(at) == '.' && Character.isDigit(text.charAt(at + 1));
        if (decimal) {
            at++;
            while (at < end && Character.isDigit(text.charAt(at))) {
                at++;
            }
        }
        String digits = text.substring(position, at);
        char suffix = Character.toUpperCase(peek());
        if (suffix == 'L' || suffix == 'G') {
            at++;
        }
        if (at < end && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
            throw unexpected();
        }
        return new Expr.Literal(numberValue(digits, decimal, suffix, position), position);
    }

    /** Types a literal as Groovy does: the smallest of Integer, Long, BigInteger; 1.5 is a BigDecimal. */
    private static Object numberValue(String digits, boolean decimal, char suffix, int position) {
        if (decimal) {
            if (suffix == 'L') {
                throw new ExpressionException("a decimal literal cannot be a long", position);
            }
            return new BigDecimal(digits);
        }
        BigInteger value = new BigInteger(digits);
        if (suffix == 'G') {
            return value;
        }
        if (suffix == 'L') {
            if (value.bitLength() > 63) {
                throw new ExpressionException("the literal " + digits + " does not fit a long", position);
            }
            return value.longValue();
        }
        return Values.narrow(value);
    }

    private String string(char quote) {
        int position = at++;
        StringBuilder value = new StringBuilder();
        while (at < end) {
            char c = text.charAt(at++);
            if (c == quote) {
                return value.toString();
            }
            if (c == '$' && quote == '"') {
                throw new ExpressionException("a \"...\" string with $ would be a Groovy template; use '...'",
                        at - 1);
            }
            if (c == '\\') {
                value.append(escape());
            } else {
                value.append(c);
            }
        }
        throw new ExpressionException("a string that is not closed", position);
    }

    private char escape() {
        if (at >= end) {
            throw new ExpressionException("a \\ at the end of a string", at - 1);
        }
        char c = text.charAt(at++);
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case '\\', '\'', '"', '$' -> c;
            default -> throw new ExpressionException("the escape \\" + c + " is not supported", at - 2);
        };
    }

    private String identifier() {
        int start = at;
        if (at < end && (Character.isLetter(text.charAt(at)) || text.charAt(at) == '_')) {
            at++;
            while (at < end && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_'
                    || text.charAt(at) == '$')) {
                at++;
            }
            return text.substring(start, at);
        }
        throw unexpected();
    }

    private void expect(char c) {
        skipSpaces();
        if (!accept(c)) {
            throw at >= end ? new ExpressionException("'" + c + "' missing", at) : unexpected();
        }
    }

    private boolean accept(char c) {
        if (peek() == c) {
            at++;
            return true;
        }
        return false;
    }

    private boolean lookingAt(String token) {
        return text.startsWith(token, at) && at + token.length() <= end;
    }

    private char peek() {
        return at < end ? text.charAt(at) : '\0';
    }

    private void skipSpaces() {
        while (at < end && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private ExpressionException unexpected() {
        if (at >= end) {
            return new ExpressionException("the expression ends too early", at);
        }
        return new ExpressionException("'" + text.charAt(at) + "' is not supported here", at);
    }
}
