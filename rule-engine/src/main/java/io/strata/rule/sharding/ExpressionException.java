package io.strata.rule.sharding;

/**
 * An inline expression Strata cannot read (at start: {@link #position()} says where) or cannot evaluate for a
 * value (at routing: position -1). Callers turn it into a configuration error or a {@link ShardingRouteException}.
 */
final class ExpressionException extends RuntimeException {

    private final int position;

    ExpressionException(String problem, int position) {
        super(problem, null, false, false);
        this.position = position;
    }

    ExpressionException(String problem) {
        this(problem, -1);
    }

    /** Zero-based index into the whole expression text, or -1 when evaluation failed. */
    int position() {
        return position;
    }

    /** The problem, with the place when there is one: "unexpected '?' at character 12". */
    String problem() {
        return position < 0 ? getMessage() : getMessage() + " at character " + (position + 1);
    }
}
