package io.strata.rule;

import java.util.List;
import java.util.Objects;

/**
 * How the result sets of a route's units become the one the client gets, when concatenating them is not the answer
 * one plain database would give (a sharded SELECT with ORDER BY, GROUP BY, aggregates, DISTINCT, HAVING or LIMIT).
 * Every unit runs a statement whose select list is the client's own items, in the client's order, followed by the
 * derived items the rule added (hidden from the client); column indexes here count from 0 over that whole list.
 *
 * <p>The steps, in order:
 * <ol>
 *   <li>merge the units' rows by {@link #unitOrder} (each unit's rows come sorted by those keys, so the merge
 *       streams), or concatenate them when it is empty;</li>
 *   <li>when {@link #aggregated}: group the rows by {@link #groupBy} and compute {@link #aggregations} (streaming
 *       when {@link #groupsSorted}, else gathering groups in memory, up to the executor's bound, past which the
 *       statement fails with an error saying so);</li>
 *   <li>keep the rows that meet {@link #having};</li>
 *   <li>when {@link #distinct}: drop rows equal to one before them on every key of {@link #unitOrder} (the rule
 *       orders the units by every visible column, so equal rows are adjacent);</li>
 *   <li>sort by {@link #resultOrder} in memory (bounded the same way) when it is not empty: the client's ORDER BY
 *       when the units could not be asked for it (it orders by an aggregate);</li>
 *   <li>skip {@link #offset} rows and keep {@link #limit};</li>
 *   <li>show the first {@link #visibleColumns} columns only.</li>
 * </ol>
 * Values compare as MySQL compares them: numbers by value, strings by their weight columns (exactly the column
 * collation's order and equality) or by their bytes where there is none, NULL before every value in ascending order.
 *
 * @param visibleColumns the client's columns; those after them are derived and never reach the client
 * @param unitOrder      the order of each unit's rows, by which they merge; empty for none
 * @param aggregated     the query groups (GROUP BY, or aggregate functions without it: then one group of every
 *                       row, which exists even over no rows, as {@code SELECT COUNT(*)} gives one row)
 * @param groupBy        the group key (descending is meaningless here); empty for one group of every row
 * @param groupsSorted   {@link #unitOrder} begins with the group key, so each group's rows are adjacent
 * @param aggregations   how each aggregate column of a group's row is computed from its rows; a column not listed
 *                       is taken from the group's first row (group keys, or values MySQL takes from any row)
 * @param having         the condition a merged row must meet, or null
 * @param distinct       duplicates are dropped (SELECT DISTINCT)
 * @param resultOrder    a final order applied in memory after grouping, or empty
 * @param offset         rows skipped after the merge (LIMIT's offset; the units were asked for offset + limit)
 * @param limit          rows kept after the offset, or -1 for all
 */
public record QueryMerge(int visibleColumns, List<SortKey> unitOrder, boolean aggregated, List<SortKey> groupBy,
                         boolean groupsSorted, List<Aggregation> aggregations, Having having, boolean distinct,
                         List<SortKey> resultOrder, long offset, long limit) {

    public QueryMerge {
        unitOrder = List.copyOf(unitOrder);
        groupBy = List.copyOf(groupBy);
        aggregations = List.copyOf(aggregations);
        resultOrder = List.copyOf(resultOrder);
        if (visibleColumns < 1 || offset < 0 || limit < -1) {
            throw new IllegalArgumentException("visible " + visibleColumns + ", offset " + offset + ", limit "
                    + limit);
        }
    }

    /**
     * One key of an order: a column, and how its values compare.
     *
     * @param column       the column whose values are ordered
     * @param descending   DESC
     * @param weightColumn the derived column holding the server's sort weight of {@code column}'s value
     *                     ({@code WEIGHT_STRING(...)}: bytes compared unsigned, exactly the collation's order and
     *                     equality), used when {@code column} is a string; -1 when there is none
     */
    public record SortKey(int column, boolean descending, int weightColumn) {
    }

    /** An aggregate function as the merge combines it. */
    public enum Function {
        /** Summed over the units' counts. */
        COUNT,
        /** Summed; NULL when every unit's is NULL. */
        SUM,
        MIN,
        MAX,
        /** {@code SUM / COUNT} of the derived columns, at the scale of the AVG column itself; NULL over no rows. */
        AVG,
        /**
         * The units return one row per distinct value (the rule groups by it): the merged count of distinct values
         * (by their weights, {@link Aggregation#weightColumn}, where they are strings).
         */
        COUNT_DISTINCT,
        /** As {@link #COUNT_DISTINCT}, the sum of the distinct values. */
        SUM_DISTINCT,
        /** As {@link #COUNT_DISTINCT}, the average of the distinct values. */
        AVG_DISTINCT,
        /**
         * GROUP_CONCAT: the units return one row per distinct tuple of its arguments and order keys (the rule groups
         * by them), with the tuple's text and how many rows it stands for; the merge orders, de-duplicates, repeats,
         * joins and truncates them as the server would ({@link Concat}).
         */
        GROUP_CONCAT
    }

    /**
     * How one column of the merged rows is computed.
     *
     * @param column       the column (visible, or derived for HAVING)
     * @param function     the combination
     * @param argument     for AVG: the derived SUM column; for the DISTINCT functions: the column holding each
     *                     unit row's distinct value; else -1
     * @param count        for AVG: the derived COUNT column; else -1
     * @param weightColumn where the values compared are strings (MIN, MAX, the DISTINCT functions): the derived
     *                     column of the value's sort weight; else -1
     */
    public record Aggregation(int column, Function function, int argument, int count, int weightColumn,
                              Concat concat) {

        public Aggregation {
            Objects.requireNonNull(function, "function");
            if (function == Function.GROUP_CONCAT && concat == null) {
                throw new IllegalArgumentException("GROUP_CONCAT needs its Concat");
            }
        }

        public Aggregation(int column, Function function, int argument, int count, int weightColumn) {
            this(column, function, argument, count, weightColumn, null);
        }

        /** COUNT, SUM, MIN or MAX of the column itself. */
        public static Aggregation of(int column, Function function) {
            return new Aggregation(column, function, -1, -1, -1);
        }
    }

    /**
     * How a GROUP_CONCAT's unit rows become its value. Each unit row of a group stands for the group's rows with one
     * tuple of arguments and order keys.
     *
     * @param value     the derived column of the tuple's text, {@code CONCAT(arguments...)}: NULL when an argument
     *                  is, and then skipped, as GROUP_CONCAT skips such rows
     * @param count     the derived {@code COUNT(*)} of the rows the unit row stands for (each repeats its text), or
     *                  -1 under DISTINCT
     * @param order     the ORDER BY inside GROUP_CONCAT, over derived columns; empty for none (any order is then the
     *                  server's too)
     * @param distinct  under DISTINCT, the columns telling two tuples apart (each argument's weight, or the argument
     *                  itself where it is no string); empty otherwise
     * @param separator the SEPARATOR, as the client wrote it (UTF-8 here)
     * @param maxLength the derived {@code @@group_concat_max_len} of the unit's session: where the result is cut
     */
    public record Concat(int value, int count, List<SortKey> order, List<Integer> distinct, String separator,
                         int maxLength) {

        public Concat {
            order = List.copyOf(order);
            distinct = List.copyOf(distinct);
            Objects.requireNonNull(separator, "separator");
        }

        /** The same with every column moved by {@code at}. */
        public Concat moved(java.util.function.IntUnaryOperator at) {
            return new Concat(at.applyAsInt(value), count < 0 ? count : at.applyAsInt(count), order.stream()
                    .map(k -> new SortKey(at.applyAsInt(k.column()), k.descending(),
                            k.weightColumn() < 0 ? k.weightColumn() : at.applyAsInt(k.weightColumn()))).toList(),
                    distinct.stream().map(at::applyAsInt).toList(), separator, at.applyAsInt(maxLength));
        }
    }

    /**
     * A HAVING condition over the merged row's columns, as MySQL evaluates it: comparisons of a column with a
     * literal or another column, combined with AND, OR and NOT; a comparison with NULL is unknown, and an unknown
     * condition drops the group.
     */
    public sealed interface Having {

        record And(List<Having> parts) implements Having {
            public And {
                parts = List.copyOf(parts);
            }
        }

        record Or(List<Having> parts) implements Having {
            public Or {
                parts = List.copyOf(parts);
            }
        }

        record Not(Having part) implements Having {
        }

        /**
         * {@code column op right}.
         *
         * @param op one of {@code = <> < <= > >=}
         */
        record Compare(int column, String op, Operand right) implements Having {
        }
    }

    /** The right side of a HAVING comparison. */
    public sealed interface Operand {

        /** Another column of the merged row. */
        record Column(int column) implements Operand {
        }

        /** A literal: a Long, BigInteger, BigDecimal, Double or String; null for NULL. */
        record Literal(Object value) implements Operand {
        }
    }

    /**
     * What the merge does, in its order, for SHOW STRATA ROUTE: e.g. {@code ordered merge by #2 DESC, #1; LIMIT 5}
     * or {@code grouped by #1 (streamed): COUNT #2, AVG #3; HAVING; sorted by #2 DESC}. Columns count from 1 over the
     * units' rows, derived columns included.
     */
    public String describe() {
        List<String> steps = new java.util.ArrayList<>();
        if (!unitOrder.isEmpty()) {
            steps.add("ordered merge by " + keys(unitOrder));
        }
        if (aggregated) {
            StringBuilder step = new StringBuilder(groupBy.isEmpty() ? "aggregate"
                    : "grouped by " + keys(groupBy) + (groupsSorted ? " (streamed)" : " (in memory)"));
            for (int i = 0; i < aggregations.size(); i++) {
                Aggregation a = aggregations.get(i);
                step.append(i == 0 ? ": " : ", ").append(a.function()).append(" #").append(a.column() + 1);
            }
            steps.add(step.toString());
        }
        if (having != null) {
            steps.add("HAVING");
        }
        if (distinct) {
            steps.add("DISTINCT");
        }
        if (!resultOrder.isEmpty()) {
            steps.add("sorted in memory by " + keys(resultOrder));
        }
        if (offset > 0 || limit >= 0) {
            steps.add("LIMIT " + (offset > 0 ? offset + ", " : "") + (limit < 0 ? "all" : String.valueOf(limit)));
        }
        return steps.isEmpty() ? "CONCATENATE" : String.join("; ", steps);
    }

    private static String keys(List<SortKey> keys) {
        List<String> named = new java.util.ArrayList<>(keys.size());
        keys.forEach(k -> named.add("#" + (k.column() + 1) + (k.descending() ? " DESC" : "")));
        return String.join(", ", named);
    }
}
