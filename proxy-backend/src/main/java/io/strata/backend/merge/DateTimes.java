package io.strata.backend.merge;

/** Dates and times as longs that order as MySQL orders them, whichever protocol carried them. */
final class DateTimes {

    private DateTimes() {
    }

    /** A date and time's fields packed in order: later fields never outweigh earlier ones. */
    static long pack(long year, long month, long day, long hour, long minute, long second, long micros) {
        return (((((year * 13 + month) * 32 + day) * 24 + hour) * 60 + minute) * 60 + second) * 1_000_000 + micros;
    }

    /** A time of day or duration in signed microseconds. */
    static long time(boolean negative, long days, long hours, long minutes, long seconds, long micros) {
        long value = ((((days * 24 + hours) * 60 + minutes) * 60) + seconds) * 1_000_000 + micros;
        return negative ? -value : value;
    }
}
