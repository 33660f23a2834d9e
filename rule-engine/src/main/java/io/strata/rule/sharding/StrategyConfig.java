package io.strata.rule.sharding;

import java.util.List;
import java.util.Objects;

/** A {@code databaseStrategy} or {@code tableStrategy} as configured (a table's own, else the default). */
public sealed interface StrategyConfig {

    StrategyConfig NONE = new None();

    /** The columns it reads, as configured; none for {@code hint} and {@code none}. */
    List<String> columns();

    /** As a person reads it: "standard on user_id by database_mod". */
    String describe();

    /** {@code standard: { shardingColumn, shardingAlgorithmName }}. */
    record Standard(String column, String algorithmName) implements StrategyConfig {

        public Standard {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(algorithmName, "algorithmName");
        }

        @Override
        public List<String> columns() {
            return List.of(column);
        }

        @Override
        public String describe() {
            return "standard on " + column + " by " + algorithmName;
        }
    }

    /** {@code complex: { shardingColumns: "a,b", shardingAlgorithmName }}. */
    record Complex(List<String> columns, String algorithmName) implements StrategyConfig {

        public Complex {
            columns = List.copyOf(columns);
            Objects.requireNonNull(algorithmName, "algorithmName");
        }

        @Override
        public String describe() {
            return "complex on " + String.join(",", columns) + " by " + algorithmName;
        }
    }

    /** {@code hint: { shardingAlgorithmName }}: values come from {@link HintValues}. */
    record Hint(String algorithmName) implements StrategyConfig {

        public Hint {
            Objects.requireNonNull(algorithmName, "algorithmName");
        }

        @Override
        public List<String> columns() {
            return List.of();
        }

        @Override
        public String describe() {
            return "hint by " + algorithmName;
        }
    }

    /** {@code none: {}}: every target. */
    record None() implements StrategyConfig {

        @Override
        public List<String> columns() {
            return List.of();
        }

        @Override
        public String describe() {
            return "none";
        }
    }
}
