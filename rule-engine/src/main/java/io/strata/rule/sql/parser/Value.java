package io.strata.rule.sql.parser;

/** A value a statement gives a column: one Strata read (a literal, or a prepared statement's parameter), or not. */
public sealed interface Value {

    /**
     * A value read: a {@code Long}, {@code java.math.BigInteger}, {@code java.math.BigDecimal}, {@code Double},
     * {@code String}, {@code byte[]} (a hex or binary literal), or a prepared statement parameter's value as the
     * client bound it; null is SQL NULL.
     */
    record Known(Object value) implements Value {
    }

    /**
     * A prepared statement's {@code ?} with no value yet: the statement is being prepared (each execute then binds
     * one), or a text statement holds a {@code ?}, which the server refuses.
     */
    record Unbound(int index) implements Value {
    }

    /** An expression Strata does not evaluate (a function call, arithmetic, a column, a subquery), as written. */
    record Unreadable(String expression) implements Value {
    }
}
