package io.strata.rule.sharding;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * INTERVAL: time is cut into intervals of {@code datetime-interval-amount} {@code datetime-interval-unit}s from
 * {@code datetime-lower} up to {@code datetime-upper} (default: the time of start, as ShardingSphere); a row goes to
 * the target whose name ends in its interval's start printed with {@code sharding-suffix-pattern}
 * ({@code t_order_202401}). A value outside the intervals is refused; a range goes to the intervals it overlaps.
 * The intervals are computed once at start, so a missing datetime-upper means "until the proxy started".
 *
 * @param starts   each interval's start, ascending
 * @param suffixes each interval's suffix
 */
record IntervalShardingAlgorithm(String name, String patternText, DateTimeFormatter pattern,
                                 List<LocalDateTime> starts, List<String> suffixes, int amount, ChronoUnit unit)
        implements StandardShardingAlgorithm {

    static final String TYPE = "INTERVAL";

    IntervalShardingAlgorithm {
        starts = List.copyOf(starts);
        suffixes = List.copyOf(suffixes);
    }

    static IntervalShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of("datetime-pattern", "datetime-lower", "datetime-upper", "sharding-suffix-pattern",
                "datetime-interval-amount", "datetime-interval-unit"));
        String patternText = props.string("datetime-pattern", "a date/time pattern like yyyy-MM-dd HH:mm:ss");
        DateTimeFormatter pattern = formatter(props, "datetime-pattern", patternText);
        LocalDateTime lower = dateTime(props, "datetime-lower", pattern, patternText);
        LocalDateTime upper = props.has("datetime-upper") ? dateTime(props, "datetime-upper", pattern, patternText)
                : LocalDateTime.now();
        if (upper.isBefore(lower)) {
            throw props.error("datetime-upper", "a time not before datetime-lower", upper);
        }
        String suffixText = props.string("sharding-suffix-pattern", "a date/time pattern like yyyyMM");
        DateTimeFormatter suffix = formatter(props, "sharding-suffix-pattern", suffixText);
        int amount = (int) props.wholeNumber("datetime-interval-amount", 1, 1, Integer.MAX_VALUE);
        ChronoUnit unit = unit(props);
        List<LocalDateTime> starts = new ArrayList<>();
        List<String> suffixes = new ArrayList<>();
        try {
            for (LocalDateTime start = lower; !start.isAfter(upper); start = start.plus(amount, unit)) {
                if (starts.size() == RangeShardingAlgorithm.MAX_PARTITIONS) {
                    throw props.error("datetime-interval-unit", "intervals that cut datetime-lower..datetime-upper "
                            + "into at most " + RangeShardingAlgorithm.MAX_PARTITIONS + " tables", unit);
                }
                starts.add(start);
                suffixes.add(suffix.format(start));
            }
        } catch (DateTimeException e) {
            throw props.error("sharding-suffix-pattern", "a pattern that prints a date and time ("
                    + e.getMessage() + ")", suffixText, e);
        }
        return new IntervalShardingAlgorithm(name, patternText, pattern, starts, suffixes, amount, unit);
    }

    private static DateTimeFormatter formatter(AlgorithmProps props, String key, String text) {
        try {
            return DateTimeFormatter.ofPattern(text);
        } catch (IllegalArgumentException e) {
            throw props.error(key, "a java.time DateTimeFormatter pattern (" + e.getMessage() + ")", text, e);
        }
    }

    private static LocalDateTime dateTime(AlgorithmProps props, String key, DateTimeFormatter pattern,
                                          String patternText) {
        LocalDateTime timestamp = props.yamlTimestamp(key);
        if (timestamp != null) {
            return timestamp;
        }
        String text = props.string(key, "a time in datetime-pattern " + patternText);
        LocalDateTime parsed = DateTimes.parse(text, pattern);
        if (parsed == null) {
            throw props.error(key, "a time in datetime-pattern " + patternText + " (with at least a year)", text);
        }
        return parsed;
    }

    private static ChronoUnit unit(AlgorithmProps props) {
        if (!props.has("datetime-interval-unit")) {
            return ChronoUnit.DAYS;
        }
        String text = props.string("datetime-interval-unit", "a java.time ChronoUnit like DAYS or MONTHS");
        List<ChronoUnit> units = Arrays.stream(ChronoUnit.values()).filter(u -> u.compareTo(ChronoUnit.MILLENNIA) <= 0)
                .toList();
        return units.stream().filter(u -> u.name().equalsIgnoreCase(text)).findFirst()
                .orElseThrow(() -> props.error("datetime-interval-unit", "one of " + units, text.toUpperCase(
                        Locale.ROOT)));
    }

    @Override
    public String target(List<String> targets, ShardingValue value) {
        LocalDateTime time = read(value.value());
        if (time == null) {
            throw new ShardingRouteException(describe() + " needs a date/time for " + value.column() + " of "
                    + value.logicalTable() + " (datetime-pattern " + patternText + "), got "
                    + Values.describe(value.value()));
        }
        int interval = intervalOf(time);
        if (interval < 0 || !time.isBefore(end(interval))) {
            throw new ShardingRouteException(describe() + " has no table for " + value.column() + " = "
                    + Values.describe(value.value()) + ": its intervals run from " + starts.get(0) + " to before "
                    + end(starts.size() - 1) + " (datetime-lower, datetime-upper)");
        }
        return matching(targets, interval).stream().findFirst().orElseThrow(() -> new ShardingRouteException(
                describe() + " sends " + value.column() + " = " + Values.describe(value.value()) + " of "
                        + value.logicalTable() + " to the table ending in " + suffixes.get(interval) + ", but none of "
                        + targets + " does"));
    }

    @Override
    public Collection<String> targets(List<String> targets, RangeShardingValue value) {
        ShardingRange range = value.range();
        LocalDateTime lower = range.hasLower() ? read(range.lower()) : null;
        LocalDateTime upper = range.hasUpper() ? read(range.upper()) : null;
        int first = lower == null ? 0 : Math.max(0, intervalOf(lower));
        List<String> result = new ArrayList<>();
        for (int i = first; i < starts.size(); i++) {
            LocalDateTime start = starts.get(i);
            boolean beyond = upper != null && (range.upperInclusive() ? start.isAfter(upper) : !start.isBefore(upper));
            if (beyond) {
                break;
            }
            if (lower == null || end(i).isAfter(lower)) {
                matching(targets, i).stream().filter(t -> !result.contains(t)).forEach(result::add);
            }
        }
        return result;
    }

    private LocalDateTime read(Object value) {
        return DateTimes.read(value, pattern, patternText);
    }

    /** The last interval starting at or before the time, or -1 when the time is before all. */
    private int intervalOf(LocalDateTime time) {
        int low = 0;
        int high = starts.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (starts.get(middle).isAfter(time)) {
                high = middle - 1;
            } else {
                low = middle + 1;
            }
        }
        return high;
    }

    private LocalDateTime end(int interval) {
        return starts.get(interval).plus(amount, unit);
    }

    private List<String> matching(List<String> targets, int interval) {
        String suffix = suffixes.get(interval);
        return targets.stream().filter(target -> target.endsWith(suffix)).toList();
    }

    private String describe() {
        return TYPE + " algorithm " + name;
    }
}
