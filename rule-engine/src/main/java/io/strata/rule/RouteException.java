package io.strata.rule;

/** A statement no rule can route: the client gets this MySQL error code, SQL state and message. */
public final class RouteException extends RuntimeException {

    private final int errorCode;
    private final String sqlState;

    public RouteException(int errorCode, String sqlState, String message) {
        super(message, null, false, false);
        this.errorCode = errorCode;
        this.sqlState = sqlState;
    }

    public int errorCode() {
        return errorCode;
    }

    public String sqlState() {
        return sqlState;
    }
}
