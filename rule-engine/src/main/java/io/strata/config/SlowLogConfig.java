package io.strata.config;

import java.util.Objects;

/**
 * The slow query log: statements slower than {@code thresholdMillis} (from the command's arrival to its last packet)
 * are written to {@code file} in MySQL's slow query log format, which pt-query-digest and mysqldumpslow read.
 *
 * @param file relative to the directory Strata was started in ({@code bin/start.sh}: the distribution's)
 */
public record SlowLogConfig(boolean enabled, long thresholdMillis, String file) {

    public static final long DEFAULT_THRESHOLD_MILLIS = 1000;
    public static final String DEFAULT_FILE = "logs/slow.log";
    public static final SlowLogConfig DISABLED = new SlowLogConfig(false, DEFAULT_THRESHOLD_MILLIS, DEFAULT_FILE);

    public SlowLogConfig {
        Objects.requireNonNull(file, "file");
        if (thresholdMillis < 0) {
            throw new IllegalArgumentException("threshold must be >= 0, got " + thresholdMillis);
        }
    }
}
