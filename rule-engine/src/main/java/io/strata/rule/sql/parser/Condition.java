package io.strata.rule.sql.parser;

import java.util.List;

/**
 * A WHERE clause as rules read it: ANDs and ORs of comparisons of a column with values Strata can read, and
 * whatever else as {@link Opaque}. Built by {@link StatementValues#where}; rules decide from it which data sources
 * a statement can touch (sharding) or whether it is test traffic (shadow).
 */
public sealed interface Condition {

    /** Every part holds. */
    record And(List<Condition> parts) implements Condition {
        public And {
            parts = List.copyOf(parts);
        }
    }

    /** At least one part holds. */
    record Or(List<Condition> parts) implements Condition {
        public Or {
            parts = List.copyOf(parts);
        }
    }

    /**
     * {@code column op values}: for EQ, LIKE, LT, LE, GT and GE one value; for IN the list; for BETWEEN the two
     * bounds, lower first.
     *
     * @param table the table or alias the column is qualified with, or null
     */
    record Compare(String table, String column, Op op, List<Value> values) implements Condition {
        public Compare {
            values = List.copyOf(values);
        }
    }

    /** A condition on no single column with values (a function, a join condition, NOT, a subquery...). */
    record Opaque(String text) implements Condition {
    }

    /** How a column is compared. */
    enum Op { EQ, IN, LIKE, LT, LE, GT, GE, BETWEEN }
}
