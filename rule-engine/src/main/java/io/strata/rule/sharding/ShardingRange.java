package io.strata.rule.sharding;

/**
 * The values a range condition lets through ({@code BETWEEN}, {@code <}, {@code >=}, ...). A missing end is
 * {@code null}: unbounded on that side.
 *
 * @param lowerInclusive whether {@code lower} itself is in the range (meaningless when {@code lower} is null)
 * @param upperInclusive whether {@code upper} itself is in the range (meaningless when {@code upper} is null)
 */
public record ShardingRange(Comparable<?> lower, boolean lowerInclusive, Comparable<?> upper,
                            boolean upperInclusive) {

    private static final ShardingRange ALL = new ShardingRange(null, false, null, false);

    /** {@code BETWEEN lower AND upper}: both ends included. */
    public static ShardingRange between(Comparable<?> lower, Comparable<?> upper) {
        return new ShardingRange(required(lower), true, required(upper), true);
    }

    /** {@code >= lower}. */
    public static ShardingRange atLeast(Comparable<?> lower) {
        return new ShardingRange(required(lower), true, null, false);
    }

    /** {@code > lower}. */
    public static ShardingRange greaterThan(Comparable<?> lower) {
        return new ShardingRange(required(lower), false, null, false);
    }

    /** {@code <= upper}. */
    public static ShardingRange atMost(Comparable<?> upper) {
        return new ShardingRange(null, false, required(upper), true);
    }

    /** {@code < upper}. */
    public static ShardingRange lessThan(Comparable<?> upper) {
        return new ShardingRange(null, false, required(upper), false);
    }

    /** No bound at all: every value. */
    public static ShardingRange all() {
        return ALL;
    }

    public boolean hasLower() {
        return lower != null;
    }

    public boolean hasUpper() {
        return upper != null;
    }

    /** In interval notation, values as the client wrote them: {@code [5, 10)}, {@code (-inf, '2024-01-01']}. */
    @Override
    public String toString() {
        String from = hasLower() ? (lowerInclusive ? "[" : "(") + Values.describe(lower) : "(-inf";
        String to = hasUpper() ? Values.describe(upper) + (upperInclusive ? "]" : ")") : "+inf)";
        return from + ", " + to;
    }

    private static Comparable<?> required(Comparable<?> bound) {
        if (bound == null) {
            throw new NullPointerException("a range bound is a value; SQL NULL matches no row");
        }
        return bound;
    }
}
