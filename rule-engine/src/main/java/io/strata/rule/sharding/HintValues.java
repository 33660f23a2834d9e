package io.strata.rule.sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The sharding values a statement carries outside its SQL, for tables whose strategy is {@code hint}: the router
 * takes them from a hint (ShardingSphere's HintManager, or a comment) and passes them with the conditions. A
 * strategy that is not {@code hint} ignores them; a {@code hint} strategy ignores the SQL's conditions and, with no
 * value for its level, lets every target through.
 *
 * @param databaseValues for {@code databaseStrategy: { hint: ... }}
 * @param tableValues    for {@code tableStrategy: { hint: ... }}
 */
public record HintValues(List<Comparable<?>> databaseValues, List<Comparable<?>> tableValues) {

    private static final HintValues NONE = new HintValues(List.of(), List.of());

    public HintValues {
        databaseValues = List.copyOf(databaseValues);
        tableValues = List.copyOf(tableValues);
    }

    public static HintValues none() {
        return NONE;
    }

    public HintValues withDatabaseValue(Comparable<?> value) {
        return new HintValues(plus(databaseValues, value), tableValues);
    }

    public HintValues withTableValue(Comparable<?> value) {
        return new HintValues(databaseValues, plus(tableValues, value));
    }

    private static List<Comparable<?>> plus(List<Comparable<?>> values, Comparable<?> value) {
        List<Comparable<?>> copy = new ArrayList<>(values);
        copy.add(Objects.requireNonNull(value, "a hint value"));
        return copy;
    }
}
