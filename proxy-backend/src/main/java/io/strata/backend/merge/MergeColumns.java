package io.strata.backend.merge;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.MySQLException;
import io.strata.rule.MergePlan;
import io.strata.rule.QueryMerge;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Places a rule's {@link MergePlan} over the columns the units answered with: a {@code *} then has its width, and a
 * key's weight column (the {@code WEIGHT_STRING} the rule asked for, not knowing the key's type) is used only where
 * the key is a string in a collation: a number's weight is the weight of its text, which orders 10 before 9.
 */
public final class MergeColumns {

    private MergeColumns() {
    }

    public static QueryMerge resolve(MergePlan plan, List<ColumnMetadata> columns) {
        if (plan.star() != null) {
            checkStar(plan, columns);
        }
        QueryMerge merge = plan.forColumns(columns.size());
        learn(plan, merge, columns);
        return new QueryMerge(merge.visibleColumns(), keys(merge.unitOrder(), columns), merge.aggregated(),
                keys(merge.groupBy(), columns), merge.groupsSorted(), merge.aggregations().stream()
                .map(a -> new QueryMerge.Aggregation(a.column(), a.function(), a.argument(), a.count(),
                        a.weightColumn() >= 0 && collated(columns.get(valueColumn(a))) ? a.weightColumn() : -1,
                        a.concat() == null ? null : concat(a.concat(), columns)))
                .toList(), merge.having(), merge.distinct(), keys(merge.resultOrder(), columns), merge.offset(),
                merge.limit());
    }

    /**
     * Tells the plan's shape which weighed keys are no strings (their weights need not be asked again), or that a
     * key planned as no string is one now: this statement cannot be merged exactly (its strings would compare by
     * their bytes, not their collation), and the shape is planned afresh for the next.
     */
    private static void learn(MergePlan plan, QueryMerge merge, List<ColumnMetadata> columns) {
        if (!plan.placedAsPlanned(columns.size())) {
            return;
        }
        Set<Integer> plain = new HashSet<>();
        List<QueryMerge.SortKey> keys = new ArrayList<>(merge.unitOrder());
        keys.addAll(merge.groupBy());
        keys.addAll(merge.resultOrder());
        merge.aggregations().stream().filter(a -> a.concat() != null).forEach(a -> keys.addAll(a.concat().order()));
        for (QueryMerge.SortKey key : keys) {
            boolean string = collated(columns.get(key.column()));
            if (key.weightColumn() >= 0 && !string) {
                plain.add(key.weightColumn());
            } else if (key.weightColumn() < 0 && string) {
                stale(plan);
            }
        }
        for (QueryMerge.Aggregation a : merge.aggregations()) {
            boolean compares = switch (a.function()) {
                case MIN, MAX, COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT -> true;
                case COUNT, SUM, AVG, GROUP_CONCAT -> false; // GROUP_CONCAT's keys are its Concat's
            };
            boolean string = collated(columns.get(valueColumn(a)));
            if (a.weightColumn() >= 0 && !string) {
                plain.add(a.weightColumn());
            } else if (compares && a.weightColumn() < 0 && string) {
                stale(plan);
            }
        }
        if (!plain.isEmpty()) {
            plan.keyColumns().notStrings(plain);
        }
    }

    /**
     * A plan made over the columns a * stood for merges only units whose columns are those: else the table changed
     * since Strata read its columns (DDL that did not go through Strata, or went through it a moment ago), and
     * merging by the planned columns could answer wrong. The columns are read again; the statement is refused.
     */
    private static void checkStar(MergePlan plan, List<ColumnMetadata> columns) {
        List<String> expected = plan.star().expected();
        boolean same = columns.size() == expected.size() + plan.derivedColumns();
        for (int i = 0; same && i < expected.size(); i++) {
            same = expected.get(i) == null || expected.get(i).equalsIgnoreCase(columns.get(i).name());
        }
        if (!same) {
            plan.star().changed().run();
            throw new MySQLException(new ErrPacket(1105, "HY000", "The columns behind * in this statement are not "
                    + "the ones Strata read for its tables (a table changed): Strata reads them again; run the "
                    + "statement again"));
        }
    }

    private static void stale(MergePlan plan) {
        plan.keyColumns().changed();
        throw new MySQLException(new ErrPacket(1105, "HY000", "A sort or group key of this statement is a string "
                + "now (a column's type changed since Strata planned the statement): run it again"));
    }

    /** The column whose values an aggregation compares: a DISTINCT function's argument, else its own. */
    private static int valueColumn(QueryMerge.Aggregation a) {
        return switch (a.function()) {
            case COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT -> a.argument();
            default -> a.column();
        };
    }

    /** A GROUP_CONCAT's ORDER BY keys weighed only where they are strings, as the query's own keys. */
    private static QueryMerge.Concat concat(QueryMerge.Concat concat, List<ColumnMetadata> columns) {
        return new QueryMerge.Concat(concat.value(), concat.count(), keys(concat.order(), columns),
                concat.distinct(), concat.separator(), concat.maxLength());
    }

    private static List<QueryMerge.SortKey> keys(List<QueryMerge.SortKey> keys, List<ColumnMetadata> columns) {
        return keys.stream().map(k -> k.weightColumn() >= 0 && !collated(columns.get(k.column()))
                ? new QueryMerge.SortKey(k.column(), k.descending(), -1) : k).toList();
    }

    /** A text column in a collation other than binary: its values compare by their weights. */
    static boolean collated(ColumnMetadata column) {
        if (column.collationId() == ColumnType.BINARY_COLLATION) {
            return false;
        }
        return switch (column.type()) {
            case ColumnType.VARCHAR, ColumnType.VAR_STRING, ColumnType.STRING, ColumnType.ENUM, ColumnType.SET,
                 0xF9, 0xFA, 0xFB, ColumnType.BLOB -> true; // TINY, MEDIUM and LONG BLOB (TEXT in a collation)
            default -> false;
        };
    }
}
