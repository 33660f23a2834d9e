package io.strata.kernel.slowlog;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * MySQL 8's slow log text, as {@code File_query_log} writes it (sql/log.cc), field for field and space for space,
 * because its readers match it with regexes: {@code pt-query-digest} and {@code mysqldumpslow} split the file on
 * {@code ";\n#"} and read each header line by its exact shape. Not thread-safe: the writer thread alone uses it.
 *
 * <p>The {@code use} line follows mysqld's rule: it is written when the entry's schema differs from the last one
 * written to this file, by any connection (mysqld keeps one {@code db} per log file, not per connection). The
 * readers rely on that: {@code pt-query-digest} gives an entry without a {@code use} line the database of the entry
 * before it in the file ({@code --inherit-attributes db}), so a rule per connection would file a statement under
 * another connection's schema whenever two connections interleave.
 */
final class SlowLogFormat {

    /**
     * mysqld's banner at the top of a new log. The readers drop it only by its shape: {@code pt-query-digest} wants
     * a first line that starts with "/" or a capital and says "mysqld, Version" and "started with:",
     * {@code mysqldumpslow} one that starts with "/", and a "Tcp port: N  Unix socket: S" line with a non-blank S;
     * hence Strata's banner in mysqld's words, with the version Strata greets clients with when it knows no
     * backend's (the format is MySQL 8's). The port is 0: the log does not know the listener's.
     */
    static final String HEADER = "/strata/mysqld, Version: 8.0.0-Strata (Strata MySQL proxy). started with:\n"
            + "Tcp port: 0  Unix socket: (none)\n"
            + "Time                 Id Command    Argument\n";

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private String lastSchema = "";

    /**
     * Appends one entry. The Time line is when the statement ended (start plus its query time), as mysqld stamps an
     * entry when it writes it, at the end; SET timestamp is when it started, in whole seconds, as mysqld's is.
     */
    void append(StringBuilder out, SlowQuery q) {
        long queryMicros = micros(q.queryTimeSeconds());
        long startMicros = q.startEpochMillis() * 1000;
        long endMicros = startMicros + queryMicros;
        out.append("# Time: ");
        TIME.formatTo(Instant.ofEpochSecond(Math.floorDiv(endMicros, 1_000_000L),
                Math.floorMod(endMicros, 1_000_000L) * 1000), out);
        out.append('\n');

        String user = nullToEmpty(q.user());
        String host = nullToEmpty(q.host());
        out.append("# User@Host: ").append(user).append('[').append(user).append("] @ ")
                .append(host).append(" [").append(host).append("]  Id: ");
        padLeft(out, Long.toString(q.connectionId()), 5);
        out.append('\n');

        out.append("# Query_time: ");
        seconds(out, queryMicros);
        out.append("  Lock_time: 0.000000 Rows_sent: ").append(q.rowsSent())
                .append("  Rows_examined: ").append(q.rowsExamined()).append('\n');

        String schema = q.schema();
        if (schema != null && !schema.isEmpty() && !schema.equals(lastSchema)) {
            out.append("use ").append(schema).append(";\n");
            lastSchema = schema;
        }
        out.append("SET timestamp=").append(Math.floorDiv(q.startEpochMillis(), 1000L)).append(";\n");

        String sql = PasswordMask.masked(nullToEmpty(q.sql())).stripTrailing();
        out.append(sql);
        if (!sql.endsWith(";")) {
            out.append(';');
        }
        out.append('\n');
    }

    private static long micros(double seconds) {
        return seconds > 0 ? Math.round(seconds * 1_000_000) : 0;
    }

    /** Six decimals, as mysqld's "%.6f" of the microseconds. */
    private static void seconds(StringBuilder out, long micros) {
        out.append(micros / 1_000_000).append('.');
        padLeft(out, Long.toString(micros % 1_000_000), 6, '0');
    }

    private static void padLeft(StringBuilder out, String digits, int width) {
        padLeft(out, digits, width, ' ');
    }

    private static void padLeft(StringBuilder out, String digits, int width, char pad) {
        for (int i = digits.length(); i < width; i++) {
            out.append(pad);
        }
        out.append(digits);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
