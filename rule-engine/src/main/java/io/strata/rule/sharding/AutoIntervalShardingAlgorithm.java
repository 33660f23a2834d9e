package io.strata.rule.sharding;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * AUTO_INTERVAL, computed as ShardingSphere does: a row {@code s} seconds after {@code datetime-lower} goes to
 * shard {@code ceil(round2(s / sharding-seconds))}, kept between 0 and the last shard, where round2 rounds to two
 * decimals. So shard 0 holds rows up to datetime-lower, shard k those in the k-th period after it, and the last
 * shard everything from datetime-upper on; there are {@code (upper - lower) / sharding-seconds + 2} shards (whole
 * division). A range goes to the shards from its lower end's to its upper end's.
 *
 * @param shards how many shards there are
 */
record AutoIntervalShardingAlgorithm(String name, LocalDateTime lower, long shardingSeconds, int shards)
        implements StandardShardingAlgorithm, AutoTableAlgorithm {

    static final String TYPE = "AUTO_INTERVAL";
    static final String PATTERN = "yyyy-MM-dd HH:mm:ss";
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern(PATTERN);

    static AutoIntervalShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of("datetime-lower", "datetime-upper", "sharding-seconds"));
        LocalDateTime lower = dateTime(props, "datetime-lower");
        LocalDateTime upper = dateTime(props, "datetime-upper");
        long seconds = props.wholeNumber("sharding-seconds", 1, Long.MAX_VALUE);
        if (!upper.isAfter(lower)) {
            throw props.error("datetime-upper", "a time after datetime-lower", FORMAT.format(upper));
        }
        long shards = Duration.between(lower, upper).getSeconds() / seconds + 2;
        if (shards > RangeShardingAlgorithm.MAX_PARTITIONS) {
            throw props.error("sharding-seconds", "a period that cuts datetime-lower..datetime-upper into at most "
                    + RangeShardingAlgorithm.MAX_PARTITIONS + " shards", seconds);
        }
        return new AutoIntervalShardingAlgorithm(name, lower, seconds, (int) shards);
    }

    private static LocalDateTime dateTime(AlgorithmProps props, String key) {
        LocalDateTime timestamp = props.yamlTimestamp(key);
        if (timestamp != null) {
            return timestamp;
        }
        String text = props.string(key, "a time like 2024-01-01 00:00:00");
        LocalDateTime parsed = DateTimes.parse(text, FORMAT);
        if (parsed == null) {
            throw props.error(key, "a time like 2024-01-01 00:00:00 (" + PATTERN + ")", text);
        }
        return parsed;
    }

    @Override
    public String target(List<String> targets, ShardingValue value) {
        LocalDateTime time = DateTimes.read(value.value(), FORMAT, PATTERN);
        if (time == null) {
            throw new ShardingRouteException(describe() + " needs a date/time for " + value.column() + " of "
                    + value.logicalTable() + ", got " + Values.describe(value.value()));
        }
        int shard = shardOf(time);
        return TargetNames.withIndex(targets, shard)
                .orElseThrow(() -> TargetNames.noTarget(describe(), value, shard, targets));
    }

    @Override
    public Collection<String> targets(List<String> targets, RangeShardingValue value) {
        ShardingRange range = value.range();
        LocalDateTime from = range.hasLower() ? DateTimes.read(range.lower(), FORMAT, PATTERN) : null;
        LocalDateTime to = range.hasUpper() ? DateTimes.read(range.upper(), FORMAT, PATTERN) : null;
        int first = from == null ? 0 : shardOf(from);
        int last = to == null ? shards - 1 : shardOf(to);
        List<String> result = new ArrayList<>();
        for (int shard = first; shard <= last; shard++) {
            TargetNames.withIndex(targets, shard).filter(t -> !result.contains(t)).ifPresent(result::add);
        }
        return result;
    }

    private int shardOf(LocalDateTime time) {
        long seconds = secondsAfterLower(time);
        // Rounded to two decimals before the ceiling, as ShardingSphere does: 1.004 periods is still shard 1.
        String position = new DecimalFormat("0.00", DecimalFormatSymbols.getInstance(Locale.ROOT))
                .format((double) seconds / shardingSeconds);
        return (int) Math.min(Math.max(0, (long) Math.ceil(Double.parseDouble(position))), shards - 1L);
    }

    /** Whole seconds, cut toward zero from milliseconds as ShardingSphere. */
    private long secondsAfterLower(LocalDateTime time) {
        Duration duration = Duration.between(lower, time);
        try {
            return duration.toMillis() / 1000;
        } catch (ArithmeticException farAway) {
            return duration.getSeconds();
        }
    }

    private String describe() {
        return TYPE + " algorithm " + name;
    }

    @Override
    public int autoTablesAmount() {
        return shards;
    }
}
