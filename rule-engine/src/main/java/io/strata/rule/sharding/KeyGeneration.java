package io.strata.rule.sharding;

import java.util.Objects;

/**
 * The key a sharded table makes for its {@code keyGenerateStrategy} column when an INSERT leaves the column out.
 * Thread-safe.
 */
public final class KeyGeneration {

    private final String column;
    private final String generatorName;
    private final KeyGenerator generator;

    KeyGeneration(String column, String generatorName, KeyGenerator generator) {
        this.column = Objects.requireNonNull(column, "column");
        this.generatorName = Objects.requireNonNull(generatorName, "generatorName");
        this.generator = Objects.requireNonNull(generator, "generator");
    }

    /** The column as configured; compare it with a statement's columns ignoring case, as MySQL does. */
    public String column() {
        return column;
    }

    /** The {@code keyGenerators} entry it uses. */
    public String generatorName() {
        return generatorName;
    }

    /**
     * A new key: a Long (SNOWFLAKE) or a String (UUID).
     *
     * @throws ShardingRouteException when no key can be made (a snowflake clock gone back too far)
     */
    public Object next() {
        return generator.next();
    }
}
