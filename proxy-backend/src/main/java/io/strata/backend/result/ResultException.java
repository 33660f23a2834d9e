package io.strata.backend.result;

import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLException;

/** Reading a result's rows failed part way: the error the client gets after the rows it already has. */
public final class ResultException extends RuntimeException {

    private final transient ErrPacket error;

    public ResultException(ErrPacket error) {
        super(error.errorCode() + ": " + error.message(), null, false, false);
        this.error = error;
    }

    public static ResultException of(Throwable cause) {
        return cause instanceof ResultException r ? r : new ResultException(MySQLException.toErrPacket(cause));
    }

    public ErrPacket error() {
        return error;
    }
}
