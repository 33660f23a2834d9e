package io.strata.rule.sharding;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of Groovy that sharding expressions use, as a tree: what {@link ExpressionParser} reads and
 * {@link ExpressionEvaluator} computes. {@code position} is where the node starts in the expression text.
 */
sealed interface Expr {

    /** The methods a value may call, with the numbers of arguments each takes. */
    Map<String, Set<Integer>> METHODS = Map.ofEntries(
            Map.entry("hashCode", Set.of(0)), Map.entry("toString", Set.of(0)), Map.entry("length", Set.of(0)),
            Map.entry("abs", Set.of(0)), Map.entry("intValue", Set.of(0)), Map.entry("longValue", Set.of(0)),
            Map.entry("toInteger", Set.of(0)), Map.entry("toLong", Set.of(0)), Map.entry("intdiv", Set.of(1)),
            Map.entry("substring", Set.of(1, 2)), Map.entry("padLeft", Set.of(1, 2)));

    /** The functions of {@code Math.} an expression may call, with their numbers of arguments. */
    Map<String, Set<Integer>> MATH_FUNCTIONS = Map.of("abs", Set.of(1), "floorMod", Set.of(2));

    int position();

    /** A number (Integer, Long, BigInteger, BigDecimal, typed as Groovy types the literal) or a String. */
    record Literal(Object value, int position) implements Expr {
    }

    /** A column's value, by the column's name. */
    record Variable(String name, int position) implements Expr {
    }

    record Negate(Expr operand, int position) implements Expr {
    }

    /** {@code operator} is one of {@code + - * / %}. */
    record Binary(char operator, Expr left, Expr right, int position) implements Expr {
    }

    /** {@code target.method(arguments)}, method one of {@link #METHODS}. */
    record MethodCall(Expr target, String method, List<Expr> arguments, int position) implements Expr {
    }

    /** {@code Math.function(arguments)}, function one of {@link #MATH_FUNCTIONS}. */
    record MathCall(String function, List<Expr> arguments, int position) implements Expr {
    }

    /** {@code from..to} or {@code from..<to}: only in {@code actualDataNodes}. */
    record RangeOf(Expr from, Expr to, boolean exclusive, int position) implements Expr {
    }

    /** {@code [a, b, c]}: only in {@code actualDataNodes}. */
    record ListOf(List<Expr> items, int position) implements Expr {
    }
}
