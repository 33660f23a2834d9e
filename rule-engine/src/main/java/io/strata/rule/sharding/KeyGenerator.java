package io.strata.rule.sharding;

/** Makes keys for a column the client leaves out of an INSERT. Thread-safe. */
public interface KeyGenerator {

    /** A new key: a Long (SNOWFLAKE) or a String (UUID). */
    Comparable<?> next();
}
