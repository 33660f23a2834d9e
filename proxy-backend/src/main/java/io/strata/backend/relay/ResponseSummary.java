package io.strata.backend.relay;

import io.strata.protocol.ErrPacket;

/**
 * What a finished backend response tells about the session: the last status flags and warnings, the affected rows of
 * the last OK, the last insert id of the last OK that had one (a multi-statement's INSERT before its SELECT), and the
 * error that ended it (null when it ended well). {@code statusFlags} is -1 when
 * the response carried none (a lone ERR): the session's status is then unchanged.
 *
 * @param rowCount  what {@code ROW_COUNT()} reads after the response: the last OK's affected rows, -1 when it ended
 *                  with a result set or an error; {@link #UNCHANGED} for commands other than a query or an execute
 * @param foundRows what {@code FOUND_ROWS()} reads after it: the rows of its last result set, or {@link #UNCHANGED}
 *                  when it had none (or only a cursor, whose rows come later)
 */
public record ResponseSummary(int statusFlags, int warnings, long affectedRows, long lastInsertId, ErrPacket error,
                              int lastSequenceId, long rowCount, long foundRows) {

    /** A count the response leaves as it was. */
    public static final long UNCHANGED = Long.MIN_VALUE;

    public boolean failed() {
        return error != null;
    }
}
