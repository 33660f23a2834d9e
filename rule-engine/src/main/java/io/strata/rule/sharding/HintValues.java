package io.strata.rule.sharding;

import io.strata.rule.sql.LeadingHint;

import java.math.BigInteger;
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

    /**
     * The values a leading hint comment gives {@code table} (lower case), as ShardingSphere's SQL hint writes them:
     * {@code /* SHARDINGSPHERE_HINT: t_order.SHARDING_DATABASE_VALUE=1, t_order.SHARDING_TABLE_VALUE=2 *}{@code /}
     * (or Strata's {@code /* strata: ... *}{@code /}); a key without a table serves every table. A whole number is
     * read as a number, anything else as text (quotes taken off).
     */
    public static HintValues of(LeadingHint hint, String table) {
        if (hint.isEmpty()) {
            return NONE;
        }
        HintValues values = NONE;
        String database = value(hint, table, "sharding_database_value");
        if (database != null) {
            values = values.withDatabaseValue(parse(database));
        }
        String tableValue = value(hint, table, "sharding_table_value");
        if (tableValue != null) {
            values = values.withTableValue(parse(tableValue));
        }
        return values;
    }

    private static String value(LeadingHint hint, String table, String key) {
        String own = hint.value(table + "." + key);
        return own != null ? own : hint.value(key);
    }

    private static Comparable<?> parse(String text) {
        if (text.length() >= 2 && (text.charAt(0) == '\'' || text.charAt(0) == '"')
                && text.charAt(text.length() - 1) == text.charAt(0)) {
            return text.substring(1, text.length() - 1);
        }
        if (text.matches("-?\\d{1,18}")) {
            return Long.parseLong(text);
        }
        return text.matches("-?\\d+") ? new BigInteger(text) : text;
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
