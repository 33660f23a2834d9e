package io.strata.rule.sharding;

/**
 * A statement the sharding configuration cannot place: an INLINE expression names no table of the table, a range
 * on an INLINE column where ranges are not allowed, a value an algorithm cannot read. The router turns it into an
 * error for the client; {@link #reason()} is written for that client.
 */
public final class ShardingRouteException extends RuntimeException {

    public ShardingRouteException(String reason) {
        super(reason, null, false, false);
    }

    public ShardingRouteException(String reason, Throwable cause) {
        super(reason, cause, false, false);
    }

    /** One sentence for the user, e.g. "INLINE algorithm t_order_inline gives t_order_5 for order_id = 5, ...". */
    public String reason() {
        return getMessage();
    }
}
