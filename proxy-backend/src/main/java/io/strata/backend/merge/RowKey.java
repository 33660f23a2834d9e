package io.strata.backend.merge;

import java.util.Arrays;

/** The values of a row's keys ({@link RowOrder#key}): a group's identity, or what DISTINCT compares. */
record RowKey(Object[] values) {

    @Override
    public boolean equals(Object other) {
        return other instanceof RowKey key && Arrays.equals(values, key.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
