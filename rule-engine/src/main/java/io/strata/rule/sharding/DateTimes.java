package io.strata.rule.sharding;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Date;

/**
 * Reads sharding values of date/time algorithms as points in time (local, as MySQL's DATETIME). java.time values
 * are taken as they are (an Instant or java.util.Date in the proxy's time zone, as ShardingSphere). Text is read
 * with the algorithm's pattern first, as ShardingSphere does (cut to the pattern's length, or the pattern cut to the
 * text's), then in MySQL's literal forms {@code 2024-01-17}, {@code 2024-01-17 10:00:00[.ffffff]} and ISO-8601.
 * A date alone is its midnight; a year and month, its first day.
 */
final class DateTimes {

    private static final DateTimeFormatter MYSQL = DateTimeFormatter.ofPattern("yyyy-MM-dd[ HH:mm[:ss][.SSSSSS]]");

    private DateTimes() {
    }

    /** The value as a local date and time, or null when it is no date/time. */
    static LocalDateTime read(Object value, DateTimeFormatter pattern, String patternText) {
        return switch (value) {
            case LocalDateTime dateTime -> dateTime;
            case LocalDate date -> date.atStartOfDay();
            case OffsetDateTime dateTime -> dateTime.toLocalDateTime();
            case ZonedDateTime dateTime -> dateTime.toLocalDateTime();
            case YearMonth month -> month.atDay(1).atStartOfDay();
            case Year year -> year.atDay(1).atStartOfDay();
            case Instant instant -> LocalDateTime.ofInstant(instant, ZoneId.systemDefault());
            case java.sql.Timestamp timestamp -> timestamp.toLocalDateTime();
            case java.sql.Date date -> date.toLocalDate().atStartOfDay();
            case Date date -> LocalDateTime.ofInstant(date.toInstant(), ZoneId.systemDefault());
            case String text -> text(text.strip(), pattern, patternText);
            case null, default -> null;
        };
    }

    private static LocalDateTime text(String text, DateTimeFormatter pattern, String patternText) {
        LocalDateTime byPattern = byPattern(text, pattern, patternText);
        if (byPattern != null) {
            return byPattern;
        }
        for (DateTimeFormatter form : new DateTimeFormatter[] {MYSQL, DateTimeFormatter.ISO_LOCAL_DATE_TIME}) {
            LocalDateTime parsed = parse(text, form);
            if (parsed != null) {
                return parsed;
            }
        }
        return null;
    }

    private static LocalDateTime byPattern(String text, DateTimeFormatter pattern, String patternText) {
        if (text.length() >= patternText.length()) {
            return parse(text.substring(0, patternText.length()), pattern);
        }
        try {
            return parse(text, DateTimeFormatter.ofPattern(patternText.substring(0, text.length())));
        } catch (IllegalArgumentException cutInsideALiteral) {
            return null;
        }
    }

    /** The text in exactly this form, or null. */
    static LocalDateTime parse(String text, DateTimeFormatter form) {
        try {
            return of(form.parse(text));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A parsed date (with or without time), year and month, or year; null for anything less (a time alone). */
    static LocalDateTime of(TemporalAccessor parsed) {
        if (parsed.isSupported(ChronoField.EPOCH_DAY)) {
            LocalDate date = LocalDate.from(parsed);
            return parsed.isSupported(ChronoField.NANO_OF_DAY) ? date.atTime(LocalTime.from(parsed))
                    : date.atStartOfDay();
        }
        if (parsed.isSupported(ChronoField.YEAR) && parsed.isSupported(ChronoField.MONTH_OF_YEAR)) {
            return YearMonth.from(parsed).atDay(1).atStartOfDay();
        }
        return parsed.isSupported(ChronoField.YEAR) ? Year.from(parsed).atDay(1).atStartOfDay() : null;
    }
}
