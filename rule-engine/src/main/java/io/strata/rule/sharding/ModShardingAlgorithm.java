package io.strata.rule.sharding;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * MOD: a row goes to the target whose name ends in {@code value mod sharding-count} (never negative: -3 mod 2 is
 * 1, as ShardingSphere's BigInteger.mod). With {@code start-offset}/{@code stop-offset} only the digits between
 * them count ({@code 20240117_0042} with start-offset 9 is 42). A range goes to the shards of the whole numbers in
 * it, or everywhere when it spans at least sharding-count of them, is open on a side, or offsets cut the value.
 *
 * @param startOffset characters cut from the start of the value's text
 * @param stopOffset  characters cut from its end
 */
record ModShardingAlgorithm(String name, int shardingCount, int startOffset, int stopOffset)
        implements StandardShardingAlgorithm, AutoTableAlgorithm {

    static final String TYPE = "MOD";

    static ModShardingAlgorithm read(String name, AlgorithmProps props) {
        props.allowOnly(List.of("sharding-count", "start-offset", "stop-offset", "zero-padding"));
        // zero-padding changes nothing here: shard numbers are matched by value, so t_order_01 is shard 1 anyway.
        props.bool("zero-padding", false);
        return new ModShardingAlgorithm(name, (int) props.wholeNumber("sharding-count", 1, Integer.MAX_VALUE),
                (int) props.wholeNumber("start-offset", 0, 0, Integer.MAX_VALUE),
                (int) props.wholeNumber("stop-offset", 0, 0, Integer.MAX_VALUE));
    }

    @Override
    public String target(List<String> targets, ShardingValue value) {
        long index = value.value() instanceof Long whole && startOffset == 0 && stopOffset == 0
                ? Math.floorMod(whole, (long) shardingCount) // the usual key: no BigInteger made
                : number(value).mod(BigInteger.valueOf(shardingCount)).longValue();
        return TargetNames.withIndex(targets, index)
                .orElseThrow(() -> TargetNames.noTarget(describe(), value, index, targets));
    }

    @Override
    public Collection<String> targets(List<String> targets, RangeShardingValue value) {
        BigInteger low = lowestWhole(value.range());
        BigInteger high = highestWhole(value.range());
        if (startOffset != 0 || stopOffset != 0 || low == null || high == null) {
            return targets;
        }
        if (low.compareTo(high) > 0) {
            return List.of();
        }
        if (high.subtract(low).compareTo(BigInteger.valueOf(shardingCount - 1L)) >= 0) {
            return targets;
        }
        Set<String> result = new LinkedHashSet<>();
        BigInteger count = BigInteger.valueOf(shardingCount);
        for (BigInteger i = low; i.compareTo(high) <= 0; i = i.add(BigInteger.ONE)) {
            TargetNames.withIndex(targets, i.mod(count).longValue()).ifPresent(result::add);
        }
        return new ArrayList<>(result);
    }

    private BigInteger number(ShardingValue value) {
        Object raw = value.value();
        if (startOffset == 0 && stopOffset == 0) {
            BigInteger number = Values.wholeNumber(raw);
            if (number == null) {
                throw notWhole(value, Values.describe(raw));
            }
            return number;
        }
        String text = raw instanceof String s ? s.strip() : String.valueOf(Values.canonical(raw));
        if (text.length() - stopOffset <= startOffset) {
            throw new ShardingRouteException(describe() + " cuts " + startOffset + " characters from the start and "
                    + stopOffset + " from the end of " + value.column() + ", but " + Values.describe(raw)
                    + " has only " + text.length());
        }
        String cut = text.substring(startOffset, text.length() - stopOffset);
        BigInteger number = Values.wholeNumber(cut);
        if (number == null) {
            throw notWhole(value, "'" + cut + "' (cut from " + Values.describe(raw) + ")");
        }
        return number;
    }

    private ShardingRouteException notWhole(ShardingValue value, String shown) {
        return new ShardingRouteException(describe() + " needs a whole number for " + value.column() + " of "
                + value.logicalTable() + ", got " + shown);
    }

    /** The smallest whole number in the range, or null when it is open below or its bound is no number. */
    private static BigInteger lowestWhole(ShardingRange range) {
        BigDecimal bound = range.hasLower() ? Values.number(range.lower()) : null;
        if (bound == null) {
            return null;
        }
        BigInteger ceiling = bound.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        boolean whole = bound.compareTo(new BigDecimal(ceiling)) == 0;
        return whole && !range.lowerInclusive() ? ceiling.add(BigInteger.ONE) : ceiling;
    }

    private static BigInteger highestWhole(ShardingRange range) {
        BigDecimal bound = range.hasUpper() ? Values.number(range.upper()) : null;
        if (bound == null) {
            return null;
        }
        BigInteger floor = bound.setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
        boolean whole = bound.compareTo(new BigDecimal(floor)) == 0;
        return whole && !range.upperInclusive() ? floor.subtract(BigInteger.ONE) : floor;
    }

    private String describe() {
        return TYPE + " algorithm " + name;
    }

    @Override
    public int autoTablesAmount() {
        return shardingCount;
    }
}
