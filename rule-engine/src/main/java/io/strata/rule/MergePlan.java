package io.strata.rule;

import java.util.List;

/**
 * A sharded SELECT's merge as the rule planned it, before the units' columns are known: the units' select lists end
 * with {@code derivedColumns} columns the rule added, and a {@code *} among the client's items stands for as many
 * columns as its tables have. {@link #forColumns} places the planned column indexes once the units answered.
 *
 * @param merge          the merge as planned: the client's items counted one each ({@code *} as one), derived
 *                       columns after them; a key or aggregate of the client's own columns is never after a star
 * @param derivedColumns how many columns at the end of each unit's rows the client never sees
 * @param keyColumns     told what the merge learns of the keys' columns (types), for later plans
 */
public record MergePlan(QueryMerge merge, int derivedColumns, KeyColumns keyColumns, StarColumns star) {

    public MergePlan {
        keyColumns = keyColumns == null ? KeyColumns.NONE : keyColumns;
    }

    public MergePlan(QueryMerge merge, int derivedColumns, KeyColumns keyColumns) {
        this(merge, derivedColumns, keyColumns, null);
    }

    public MergePlan(QueryMerge merge, int derivedColumns) {
        this(merge, derivedColumns, KeyColumns.NONE, null);
    }

    /** The same plan, telling {@code learner} what its merges learn of the keys. */
    public MergePlan learningWith(KeyColumns learner) {
        return new MergePlan(merge, derivedColumns, learner, star);
    }

    /**
     * The columns a plan took a {@code *} to stand for (the merge was planned over them one by one): the units'
     * answer must have exactly these, else the table changed since its columns were read, and the statement is
     * refused rather than merged by the wrong columns.
     *
     * @param expected each visible column's name where a {@code *} gave it, null for the client's other items
     * @param changed  forgets the tables' columns (read again) and the plan (made again)
     */
    public record StarColumns(List<String> expected, Runnable changed) {

        public StarColumns {
            expected = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(expected));
        }
    }

    /** Whether the planned column indexes are the units' (no {@code *} widened the select list). */
    public boolean placedAsPlanned(int total) {
        return total - derivedColumns == merge.visibleColumns();
    }

    /** The merge for units whose rows have {@code total} columns. */
    public QueryMerge forColumns(int total) {
        int visible = total - derivedColumns;
        int shift = visible - merge.visibleColumns();
        if (shift == 0) {
            return merge;
        }
        int planned = merge.visibleColumns();
        java.util.function.IntUnaryOperator at = i -> i >= planned ? i + shift : i;
        return new QueryMerge(visible, keys(merge.unitOrder(), at), merge.aggregated(), keys(merge.groupBy(), at),
                merge.groupsSorted(), merge.aggregations().stream().map(a -> new QueryMerge.Aggregation(
                        at.applyAsInt(a.column()), a.function(), moved(a.argument(), at), moved(a.count(), at),
                        moved(a.weightColumn(), at), a.concat() == null ? null : a.concat().moved(at))).toList(),
                having(merge.having(), at), merge.distinct(), keys(merge.resultOrder(), at), merge.offset(),
                merge.limit());
    }

    private static List<QueryMerge.SortKey> keys(List<QueryMerge.SortKey> keys, java.util.function.IntUnaryOperator at) {
        return keys.stream().map(k -> new QueryMerge.SortKey(at.applyAsInt(k.column()), k.descending(),
                moved(k.weightColumn(), at))).toList();
    }

    private static int moved(int column, java.util.function.IntUnaryOperator at) {
        return column < 0 ? column : at.applyAsInt(column);
    }

    private static QueryMerge.Having having(QueryMerge.Having having, java.util.function.IntUnaryOperator at) {
        return switch (having) {
            case null -> null;
            case QueryMerge.Having.And and -> new QueryMerge.Having.And(and.parts().stream()
                    .map(p -> having(p, at)).toList());
            case QueryMerge.Having.Or or -> new QueryMerge.Having.Or(or.parts().stream()
                    .map(p -> having(p, at)).toList());
            case QueryMerge.Having.Not not -> new QueryMerge.Having.Not(having(not.part(), at));
            case QueryMerge.Having.Compare c -> new QueryMerge.Having.Compare(at.applyAsInt(c.column()), c.op(),
                    c.right() instanceof QueryMerge.Operand.Column col
                            ? new QueryMerge.Operand.Column(at.applyAsInt(col.column())) : c.right());
        };
    }
}
