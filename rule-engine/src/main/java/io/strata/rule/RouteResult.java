package io.strata.rule;

import java.util.List;

/**
 * Where a statement runs: one unit for pass-through and single-shard routes, several when their answers are merged.
 *
 * @param merge     how the units' answers combine
 * @param retryable the statement has no effect (a read), so when its data source proves unreachable before it
 *                  starts, it may be routed again (a single unit only)
 * @param notes     why, where a rule says (which algorithm decided): what SHOW STRATA ROUTE shows
 * @param query     how the units' result sets merge when concatenating them is not the answer (a sharded SELECT
 *                  with ORDER BY, GROUP BY, aggregates, DISTINCT or LIMIT), or null
 * @param insertId  the first key a rule generated for an INSERT's rows, which the client's OK packet (and so
 *                  LAST_INSERT_ID()) reports as a plain database reports its first AUTO_INCREMENT value; 0 for none
 * @param steering  what a query rule asked besides the route (a time limit, mirrors), {@link Steering#NONE} else
 * @param renamed   the actual table the answer names, which the client is shown by its logical name (SHOW CREATE
 *                  TABLE, SHOW INDEX of a sharded table), or null
 */
public record RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable, List<String> notes,
                          MergePlan query, long insertId, Steering steering, RenamedTable renamed) {

    public RouteResult {
        units = List.copyOf(units);
        notes = List.copyOf(notes);
        steering = steering == null ? Steering.NONE : steering;
        if (units.isEmpty()) {
            throw new IllegalArgumentException("a route needs at least one unit");
        }
    }

    public RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable, List<String> notes,
                       MergePlan query, long insertId, Steering steering) {
        this(units, merge, retryable, notes, query, insertId, steering, null);
    }

    public RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable, List<String> notes,
                       MergePlan query, long insertId) {
        this(units, merge, retryable, notes, query, insertId, Steering.NONE);
    }

    public RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable, List<String> notes,
                       MergePlan query) {
        this(units, merge, retryable, notes, query, 0);
    }

    public RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable, List<String> notes) {
        this(units, merge, retryable, notes, null);
    }

    public RouteResult(List<RouteUnit> units, ResultMerge merge, boolean retryable) {
        this(units, merge, retryable, List.of());
    }

    public static RouteResult single(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)), ResultMerge.CONCATENATE, false);
    }

    /** A read that another data source of the same data may answer instead. */
    public static RouteResult read(String dataSource) {
        return new RouteResult(List.of(new RouteUnit(dataSource)), ResultMerge.CONCATENATE, true);
    }

    public boolean isSingle() {
        return units.size() == 1;
    }

    public RouteUnit first() {
        return units.get(0);
    }

    /** One unit running the client's own statement: its bytes and its answer can pass through untouched. */
    public boolean passThrough() {
        return units.size() == 1 && !units.get(0).rewritten();
    }

    /** The same route over other units (the decorated ones), with more notes. */
    public RouteResult withUnits(List<RouteUnit> others, boolean stillRetryable, List<String> moreNotes) {
        if (moreNotes.isEmpty()) {
            return new RouteResult(others, merge, stillRetryable, notes, query, insertId, steering, renamed);
        }
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(moreNotes);
        return new RouteResult(others, merge, stillRetryable, all, query, insertId, steering, renamed);
    }

    /** The same route with a note of why. */
    public RouteResult withNote(String note) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.add(note);
        return new RouteResult(units, merge, retryable, all, query, insertId, steering, renamed);
    }

    /** The same route with what a query rule asked besides it. */
    public RouteResult withSteering(Steering other) {
        return other == steering ? this
                : new RouteResult(units, merge, retryable, notes, query, insertId, other, renamed);
    }

    /** The same route, its answer naming {@code table}'s actual name by its logical one. */
    public RouteResult withRenamed(RenamedTable table) {
        return new RouteResult(units, merge, retryable, notes, query, insertId, steering, table);
    }
}
