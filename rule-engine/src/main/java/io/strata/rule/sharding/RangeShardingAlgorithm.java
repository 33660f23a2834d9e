package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * BOUNDARY_RANGE and VOLUME_RANGE: ascending boundaries cut the numbers into partitions, and a row goes to the
 * target whose name ends in its partition's number. With boundaries b0 &lt; b1 &lt; ... &lt; bn, partition 0 holds
 * values below b0, partition i values in [b(i-1), bi), and partition n+1 values from bn up. A range goes to the
 * partitions it overlaps, precisely (open ends respected); an end that is no number leaves that side open.
 *
 * @param type       BOUNDARY_RANGE or VOLUME_RANGE, for messages
 * @param boundaries ascending, without repeats
 */
record RangeShardingAlgorithm(String name, String type, List<Long> boundaries) implements StandardShardingAlgorithm,
        AutoTableAlgorithm {

    static final String BOUNDARY_RANGE = "BOUNDARY_RANGE";
    static final String VOLUME_RANGE = "VOLUME_RANGE";
    /** More partitions than this are surely a typo: each one is a table. */
    static final int MAX_PARTITIONS = 100_000;

    RangeShardingAlgorithm {
        boundaries = List.copyOf(boundaries);
    }

    /** {@code sharding-ranges: "1,5,10"}: partitions &lt;1, [1,5), [5,10), &gt;=10; sorted as ShardingSphere does. */
    static RangeShardingAlgorithm boundary(String name, AlgorithmProps props) {
        props.allowOnly(List.of("sharding-ranges"));
        String expected = "comma-separated whole numbers like \"1,5,10\"";
        String text = props.string("sharding-ranges", expected);
        List<Long> boundaries = new ArrayList<>();
        for (String item : text.split(",")) {
            try {
                boundaries.add(Long.parseLong(item.strip()));
            } catch (NumberFormatException e) {
                throw props.error("sharding-ranges", expected + " ('" + item.strip() + "' is none)", text);
            }
        }
        Collections.sort(boundaries);
        for (int i = 1; i < boundaries.size(); i++) {
            if (boundaries.get(i).equals(boundaries.get(i - 1))) {
                throw props.error("sharding-ranges", expected + ", each once (" + boundaries.get(i) + " is twice)",
                        text);
            }
        }
        if (boundaries.size() >= MAX_PARTITIONS) {
            throw props.error("sharding-ranges", "fewer than " + MAX_PARTITIONS + " boundaries", text);
        }
        return new RangeShardingAlgorithm(name, BOUNDARY_RANGE, boundaries);
    }

    /**
     * {@code range-lower: 10, range-upper: 45, sharding-volume: 10}: partitions &lt;10, [10,20), [20,30), [30,40),
     * [40,45), &gt;=45, as ShardingSphere.
     */
    static RangeShardingAlgorithm volume(String name, AlgorithmProps props) {
        props.allowOnly(List.of("range-lower", "range-upper", "sharding-volume"));
        long lower = props.wholeNumber("range-lower", Long.MIN_VALUE, Long.MAX_VALUE);
        long upper = props.wholeNumber("range-upper", Long.MIN_VALUE, Long.MAX_VALUE);
        long volume = props.wholeNumber("sharding-volume", 1, Long.MAX_VALUE);
        if (upper - lower < volume || upper <= lower) {
            throw props.error("range-upper", "at least range-lower + sharding-volume (" + lower + " + " + volume
                    + ")", upper);
        }
        if ((upper - lower) / volume >= MAX_PARTITIONS) {
            throw props.error("sharding-volume", "a volume that cuts range-lower..range-upper into fewer than "
                    + MAX_PARTITIONS + " partitions", volume);
        }
        List<Long> boundaries = new ArrayList<>();
        for (long boundary = lower; boundary < upper; boundary += volume) {
            boundaries.add(boundary);
        }
        boundaries.add(upper);
        return new RangeShardingAlgorithm(name, VOLUME_RANGE, boundaries);
    }

    @Override
    public String target(List<String> targets, ShardingValue value) {
        BigDecimal number = Values.number(value.value());
        if (number == null) {
            throw new ShardingRouteException(describe() + " needs a number for " + value.column() + " of "
                    + value.logicalTable() + ", got " + Values.describe(value.value()));
        }
        long partition = boundariesBelow(number, true);
        return TargetNames.withIndex(targets, partition)
                .orElseThrow(() -> TargetNames.noTarget(describe(), value, partition, targets));
    }

    @Override
    public Collection<String> targets(List<String> targets, RangeShardingValue value) {
        ShardingRange range = value.range();
        BigDecimal lower = range.hasLower() ? Values.number(range.lower()) : null;
        BigDecimal upper = range.hasUpper() ? Values.number(range.upper()) : null;
        int first = lower == null ? 0 : boundariesBelow(lower, true);
        int last = upper == null ? boundaries.size() : boundariesBelow(upper, range.upperInclusive());
        List<String> result = new ArrayList<>();
        for (int partition = first; partition <= last; partition++) {
            TargetNames.withIndex(targets, partition).filter(t -> !result.contains(t)).ifPresent(result::add);
        }
        return result;
    }

    /**
     * How many boundaries lie at or below the value ({@code inclusive}) or strictly below it: the partition of the
     * value, or of the values just below it.
     */
    private int boundariesBelow(BigDecimal value, boolean inclusive) {
        int count = 0;
        for (long boundary : boundaries) {
            int order = BigDecimal.valueOf(boundary).compareTo(value);
            if (order < 0 || order == 0 && inclusive) {
                count++;
            } else {
                break;
            }
        }
        return count;
    }

    private String describe() {
        return type + " algorithm " + name;
    }

    @Override
    public int autoTablesAmount() {
        return boundaries.size() + 1;
    }
}
