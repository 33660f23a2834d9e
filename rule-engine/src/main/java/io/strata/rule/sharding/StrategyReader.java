package io.strata.rule.sharding;

import io.strata.config.YamlMap;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@code databaseStrategy}, {@code tableStrategy} or their defaults: exactly one of {@code standard},
 * {@code complex}, {@code hint}, {@code none}, naming an algorithm of the right kind. An INLINE expression must read
 * only its strategy's column (ShardingSphere finds out at the first statement; Strata at start).
 */
final class StrategyReader {

    private static final List<String> KINDS = List.of("standard", "complex", "hint", "none");
    private static final String EXPECTED = "one of { standard: {...} }, { complex: {...} }, { hint: {...} }, "
            + "{ none: {} }";

    private final Map<String, AlgorithmConfig> algorithms;
    private final String defaultColumn;

    /** @param defaultColumn {@code defaultShardingColumn}, or null */
    StrategyReader(Map<String, AlgorithmConfig> algorithms, String defaultColumn) {
        this.algorithms = algorithms;
        this.defaultColumn = defaultColumn;
    }

    /** The strategy at {@code key} of {@code owner}, or null when it is absent. */
    StrategyConfig read(YamlMap owner, String key) {
        if (owner.value(key) == null) {
            return null;
        }
        YamlMap strategy = owner.map(key, EXPECTED);
        strategy.allowOnly(KINDS);
        if (strategy.keys().size() != 1) {
            throw owner.error(key, EXPECTED + ", exactly one", strategy.keys());
        }
        String kind = strategy.keys().iterator().next();
        return switch (kind) {
            case "standard" -> standard(strategy.optionalMap(kind, "{ shardingColumn, shardingAlgorithmName }"));
            case "complex" -> complex(strategy.optionalMap(kind, "{ shardingColumns, shardingAlgorithmName }"));
            case "hint" -> hint(strategy.optionalMap(kind, "{ shardingAlgorithmName }"));
            default -> none(strategy);
        };
    }

    private StrategyConfig standard(YamlMap standard) {
        standard.allowOnly(List.of("shardingColumn", "shardingAlgorithmName"));
        String column = standard.value("shardingColumn") != null ? standard.string("shardingColumn") : defaultColumn;
        if (column == null) {
            throw standard.error("shardingColumn", "a column name (or a defaultShardingColumn of the rule)", null);
        }
        AlgorithmConfig algorithm = algorithm(standard, StandardShardingAlgorithm.class, "a standard algorithm "
                + "(MOD, HASH_MOD, INLINE, BOUNDARY_RANGE, VOLUME_RANGE, INTERVAL, AUTO_INTERVAL, or CLASS_BASED with "
                + "strategy STANDARD)");
        if (algorithm.algorithm() instanceof InlineShardingAlgorithm inline
                && !inline.expression().readsOnly(Set.of(column))) {
            throw standard.error("shardingAlgorithmName", "an INLINE algorithm whose expression reads only "
                    + column + " (" + algorithm.name() + " reads " + inline.expression().variables() + ")",
                    algorithm.name());
        }
        return new StrategyConfig.Standard(column, algorithm.name());
    }

    private StrategyConfig complex(YamlMap complex) {
        complex.allowOnly(List.of("shardingColumns", "shardingAlgorithmName"));
        String text = complex.string("shardingColumns");
        Set<String> columns = new LinkedHashSet<>();
        for (String column : text.split(",")) {
            if (column.isBlank() || !columns.add(column.strip())) {
                throw complex.error("shardingColumns", "distinct column names like user_id,order_id", text);
            }
        }
        AlgorithmConfig algorithm = algorithm(complex, ComplexShardingAlgorithm.class, "a complex algorithm "
                + "(COMPLEX_INLINE, or CLASS_BASED with strategy COMPLEX)");
        if (algorithm.algorithm() instanceof ComplexInlineShardingAlgorithm inline) {
            checkComplexInline(complex, algorithm.name(), inline, columns);
        }
        return new StrategyConfig.Complex(new ArrayList<>(columns), algorithm.name());
    }

    private static void checkComplexInline(YamlMap complex, String name, ComplexInlineShardingAlgorithm inline,
                                           Set<String> columns) {
        if (!inline.expression().readsOnly(columns)) {
            throw complex.error("shardingAlgorithmName", "a COMPLEX_INLINE algorithm whose expression reads only "
                    + columns + " (" + name + " reads " + inline.expression().variables() + ")", name);
        }
        if (!inline.shardingColumns().isEmpty() && !lower(inline.shardingColumns()).equals(lower(columns))) {
            throw complex.error("shardingAlgorithmName", "a COMPLEX_INLINE algorithm whose sharding-columns are "
                    + columns + " (" + name + " has " + inline.shardingColumns() + ")", name);
        }
    }

    private StrategyConfig hint(YamlMap hint) {
        hint.allowOnly(List.of("shardingAlgorithmName"));
        AlgorithmConfig algorithm = algorithm(hint, HintShardingAlgorithm.class, "a hint algorithm (HINT_INLINE, "
                + "or CLASS_BASED with strategy HINT)");
        return new StrategyConfig.Hint(algorithm.name());
    }

    private static StrategyConfig none(YamlMap strategy) {
        Object value = strategy.value("none");
        if (value != null && !(value instanceof Map<?, ?> map && map.isEmpty())) {
            throw strategy.error("none", "{} (none takes no settings)", value);
        }
        return StrategyConfig.NONE;
    }

    private AlgorithmConfig algorithm(YamlMap strategy, Class<? extends ShardingAlgorithm> kind, String expected) {
        String name = strategy.string("shardingAlgorithmName");
        AlgorithmConfig algorithm = algorithms.get(name);
        if (algorithm == null) {
            throw strategy.error("shardingAlgorithmName", "one of shardingAlgorithms " + algorithms.keySet(), name);
        }
        if (!kind.isInstance(algorithm.algorithm())) {
            throw strategy.error("shardingAlgorithmName", "the name of " + expected + "; " + name + " is "
                    + algorithm.type(), name);
        }
        return algorithm;
    }

    private static Set<String> lower(Iterable<String> columns) {
        Set<String> lower = new LinkedHashSet<>();
        columns.forEach(column -> lower.add(column.toLowerCase(Locale.ROOT)));
        return lower;
    }
}
