package io.strata.rule.sharding;

import java.util.List;
import java.util.Optional;

/**
 * Finds targets by the shard number at the end of their names, as ShardingSphere's MOD, HASH_MOD, range and
 * AUTO_INTERVAL algorithms do. The trailing digits are read as a number, so {@code t_order_1} and
 * {@code t_order_01} are both shard 1, and {@code t_order_11} is not shard 1 (ShardingSphere 5.1 matched it by
 * "ends with 1").
 */
final class TargetNames {

    private TargetNames() {
    }

    /** The first target whose trailing number is {@code index}. */
    static Optional<String> withIndex(List<String> targets, long index) {
        String wanted = Long.toString(index);
        for (String target : targets) {
            if (trailingNumber(target).equals(wanted)) {
                return Optional.of(target);
            }
        }
        return Optional.empty();
    }

    /** The trailing digits without leading zeros ("0" for "00"), or "" when the name ends in no digit. */
    static String trailingNumber(String name) {
        int start = name.length();
        while (start > 0 && Character.isDigit(name.charAt(start - 1))) {
            start--;
        }
        String digits = name.substring(start);
        int firstNonZero = 0;
        while (firstNonZero < digits.length() - 1 && digits.charAt(firstNonZero) == '0') {
            firstNonZero++;
        }
        return digits.substring(firstNonZero);
    }

    /** The error for a shard number no target carries, told with the targets there are. */
    static ShardingRouteException noTarget(String algorithm, ShardingValue value, long index,
                                           List<String> targets) {
        return new ShardingRouteException(algorithm + " sends " + value.column() + " = "
                + Values.describe(value.value()) + " of " + value.logicalTable() + " to shard " + index
                + ", but none of " + targets + " ends in " + index);
    }
}
