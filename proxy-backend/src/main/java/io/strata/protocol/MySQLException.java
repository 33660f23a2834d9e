package io.strata.protocol;

import io.strata.rule.RouteException;

/** An error that knows the ERR packet it becomes on the wire. */
public final class MySQLException extends RuntimeException {

    private final transient ErrPacket packet;

    public MySQLException(ErrPacket packet) {
        super(packet.errorCode() + " (" + packet.sqlState() + "): " + packet.message(), null, false, false);
        this.packet = packet;
    }

    public ErrPacket packet() {
        return packet;
    }

    /** The one choke point turning any failure into what the client sees. */
    public static ErrPacket toErrPacket(Throwable error) {
        Throwable cause = error;
        while (cause != null) {
            if (cause instanceof MySQLException mysql) {
                return mysql.packet();
            }
            if (cause instanceof RouteException route) {
                return new ErrPacket(route.errorCode(), route.sqlState(), route.getMessage());
            }
            cause = cause.getCause();
        }
        return ErrorCode.INTERNAL.packet(String.valueOf(error));
    }
}
