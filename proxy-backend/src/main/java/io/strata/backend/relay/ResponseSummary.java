package io.strata.backend.relay;

import io.strata.protocol.ErrPacket;

/**
 * What a finished backend response tells about the session: the last status flags and warnings, the affected rows and
 * last insert id of the last OK, and the error that ended it (null when it ended well). {@code statusFlags} is -1 when
 * the response carried none (a lone ERR): the session's status is then unchanged.
 */
public record ResponseSummary(int statusFlags, int warnings, long affectedRows, long lastInsertId, ErrPacket error,
                              int lastSequenceId) {

    public boolean failed() {
        return error != null;
    }
}
