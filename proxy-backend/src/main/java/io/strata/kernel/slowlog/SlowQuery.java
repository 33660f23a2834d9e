package io.strata.kernel.slowlog;

/**
 * One slow statement, as the command handler saw it: when it started (epoch milliseconds), how long it ran
 * (seconds), who ran it from where on which connection and default schema (null or empty when none), the rows it
 * sent, examined and changed, and its text as the client sent it (passwords are masked when it is written, not
 * here, so that building one costs the event loop nothing). {@code rowsAffected} is carried for other formats:
 * MySQL 8's slow log line has no field for it, so {@link SlowLog} does not write it.
 */
public record SlowQuery(long startEpochMillis, double queryTimeSeconds, String user, String host, long connectionId,
                        String schema, long rowsSent, long rowsExamined, long rowsAffected, String sql) {
}
