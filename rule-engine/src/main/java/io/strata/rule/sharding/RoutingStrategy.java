package io.strata.rule.sharding;

import io.strata.rule.sharding.ColumnCondition.Exact;
import io.strata.rule.sharding.ColumnCondition.InRange;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A strategy with its algorithm, choosing among targets (data sources, or the tables on one data source). Several
 * conditions on one column each narrow the targets, and the result is what all of them allow; a column the
 * statement says nothing about lets every target through. Results keep the targets' order.
 */
sealed interface RoutingStrategy {

    /**
     * @param targets    to choose from, in node order
     * @param hintValues this level's hint values (used by {@code hint} strategies only)
     */
    List<String> route(List<String> targets, String table, ShardingConditions conditions,
                       List<Comparable<?>> hintValues);

    static RoutingStrategy of(StrategyConfig config, Map<String, AlgorithmConfig> algorithms) {
        return switch (config) {
            case StrategyConfig.Standard s -> new Standard(s.column(), s.algorithmName(),
                    (StandardShardingAlgorithm) algorithms.get(s.algorithmName()).algorithm());
            case StrategyConfig.Complex c -> new Complex(c.columns(), c.algorithmName(),
                    (ComplexShardingAlgorithm) algorithms.get(c.algorithmName()).algorithm());
            case StrategyConfig.Hint h -> new Hint(h.algorithmName(),
                    (HintShardingAlgorithm) algorithms.get(h.algorithmName()).algorithm());
            case StrategyConfig.None n -> new None();
        };
    }

    record None() implements RoutingStrategy {

        @Override
        public List<String> route(List<String> targets, String table, ShardingConditions conditions,
                                  List<Comparable<?>> hintValues) {
            return targets;
        }
    }

    record Standard(String column, String algorithmName, StandardShardingAlgorithm algorithm)
            implements RoutingStrategy {

        @Override
        public List<String> route(List<String> targets, String table, ShardingConditions conditions,
                                  List<Comparable<?>> hintValues) {
            List<ColumnCondition> given = conditions.of(column);
            if (given.size() == 1 && given.get(0) instanceof Exact exact && exact.values().size() == 1) {
                return List.of(point(targets, table, exact.values().get(0))); // a point: no set to build
            }
            Set<String> allowed = null;
            for (ColumnCondition condition : given) {
                Set<String> chosen = switch (condition) {
                    case Exact exact -> exact(targets, table, exact);
                    case InRange range -> checked(targets, table, algorithmName, call(algorithmName, table,
                            () -> algorithm.targets(targets, new RangeShardingValue(table, column, range.range()))));
                };
                allowed = allowed == null ? chosen : retain(allowed, chosen);
            }
            return allowed == null ? targets : inOrder(targets, allowed);
        }

        private Set<String> exact(List<String> targets, String table, Exact exact) {
            Set<String> chosen = new LinkedHashSet<>();
            for (Comparable<?> value : exact.values()) {
                chosen.add(point(targets, table, value));
            }
            return chosen;
        }

        /** The one target of a value. */
        private String point(List<String> targets, String table, Comparable<?> value) {
            String target = call(algorithmName, table,
                    () -> algorithm.target(targets, new ShardingValue(table, column, value)));
            checked(targets, table, algorithmName, target == null ? null : List.of(target));
            return target;
        }
    }

    record Complex(List<String> columns, String algorithmName, ComplexShardingAlgorithm algorithm)
            implements RoutingStrategy {

        @Override
        public List<String> route(List<String> targets, String table, ShardingConditions conditions,
                                  List<Comparable<?>> hintValues) {
            Map<String, List<ColumnCondition>> given = new LinkedHashMap<>();
            columns.forEach(column -> {
                if (!conditions.of(column).isEmpty()) {
                    given.put(column, conditions.of(column));
                }
            });
            if (given.isEmpty()) {
                return targets;
            }
            // One call with each column's first condition, then one for each further condition of a column: each
            // call allows a superset of the rows all conditions allow, so what every call allows is right.
            Map<String, ColumnCondition> first = new LinkedHashMap<>();
            given.forEach((column, list) -> first.put(column, list.get(0)));
            Set<String> allowed = choose(targets, table, first);
            for (Map.Entry<String, List<ColumnCondition>> entry : given.entrySet()) {
                for (ColumnCondition further : entry.getValue().subList(1, entry.getValue().size())) {
                    Map<String, ColumnCondition> variant = new LinkedHashMap<>(first);
                    variant.put(entry.getKey(), further);
                    allowed = retain(allowed, choose(targets, table, variant));
                }
            }
            return inOrder(targets, allowed);
        }

        private Set<String> choose(List<String> targets, String table, Map<String, ColumnCondition> conditions) {
            return checked(targets, table, algorithmName, call(algorithmName, table,
                    () -> algorithm.targets(targets, new ComplexShardingValues(table, conditions))));
        }
    }

    record Hint(String algorithmName, HintShardingAlgorithm algorithm) implements RoutingStrategy {

        @Override
        public List<String> route(List<String> targets, String table, ShardingConditions conditions,
                                  List<Comparable<?>> hintValues) {
            if (hintValues.isEmpty()) {
                return targets;
            }
            return inOrder(targets, checked(targets, table, algorithmName, call(algorithmName, table,
                    () -> algorithm.targets(targets, new HintShardingValues(table, hintValues)))));
        }
    }

    /** Runs an algorithm; what a user's class throws becomes a routing error that names the algorithm. */
    private static <T> T call(String algorithmName, String table, Supplier<T> algorithm) {
        try {
            return algorithm.get();
        } catch (ShardingRouteException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ShardingRouteException("sharding algorithm " + algorithmName + " failed for " + table + ": "
                    + e, e);
        }
    }

    /** The names, which must all be targets. */
    private static Set<String> checked(List<String> targets, String table, String algorithmName,
                                       Collection<String> chosen) {
        if (chosen == null) {
            throw new ShardingRouteException("sharding algorithm " + algorithmName + " returned nothing for "
                    + table);
        }
        for (String name : chosen) {
            if (!targets.contains(name)) {
                throw new ShardingRouteException("sharding algorithm " + algorithmName + " chose " + name + " for "
                        + table + ", which is not one of " + targets);
            }
        }
        return new LinkedHashSet<>(chosen);
    }

    private static Set<String> retain(Set<String> allowed, Set<String> chosen) {
        Set<String> both = new LinkedHashSet<>(allowed);
        both.retainAll(chosen);
        return both;
    }

    private static List<String> inOrder(List<String> targets, Set<String> allowed) {
        List<String> ordered = new ArrayList<>(allowed.size());
        for (String target : targets) {
            if (allowed.contains(target)) {
                ordered.add(target);
            }
        }
        return ordered;
    }
}
