package io.strata.backend.merge;

import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.ErrPacket;
import io.strata.protocol.ServerStatus;
import io.strata.rule.QueryMerge;
import io.strata.rule.ResultMerge;
import io.strata.rule.RouteResult;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Combines the answers of a route's units into the one answer the client gets, as the route says
 * ({@link ResultMerge}; for result sets that concatenating does not make one server's answer, a {@link QueryMerge}).
 * Any unit's error is the client's, with its own code and SQLSTATE and a message that names
 * the data source and says which data sources the statement was applied on: a client must know when a change
 * reached some copies and not others.
 */
public final class ResultMerger {

    private ResultMerger() {
    }

    /**
     * The answers of a route's units as the client gets them: merged as the route says (its merge plan placed over
     * the first result set's columns), an INSERT's OK with the key the rule generated, and a result set that names an
     * actual table with the logical name. Every executor's fan-out ends here.
     *
     * @param answers in the route's unit order
     */
    public static Result merge(List<UnitAnswer> answers, RouteResult route) {
        QueryMerge query = route.query() != null && answers.get(0).result() instanceof QueryResult first
                ? MergeColumns.resolve(route.query(), first.columns()) : null;
        return asRouted(merge(answers, route.merge(), query, MemoryBound.DEFAULT), route);
    }

    /**
     * An answer (merged, or a one-unit route's own) as the client gets it: an INSERT's OK with the key the rule
     * generated, and a result set that names an actual table with the logical name.
     */
    public static Result asRouted(Result combined, RouteResult route) {
        if (combined instanceof UpdateResult update && route.insertId() != 0) {
            combined = new UpdateResult(update.affectedRows(), route.insertId(), update.statusFlags(),
                    update.warnings(), update.info());
        }
        if (combined instanceof QueryResult rows && route.renamed() != null) {
            combined = new RenamedTableResult(rows, route.renamed());
        }
        return combined;
    }

    /** @param answers in the route's unit order */
    public static Result merge(List<UnitAnswer> answers, ResultMerge merge) {
        return merge(answers, merge, null, MemoryBound.DEFAULT);
    }

    /**
     * As {@link #merge(List, ResultMerge)}, and result sets are merged as {@code query} says ({@link
     * MergedQueryResult}) rather than concatenated.
     *
     * @param answers in the route's unit order
     * @param query   how the units' result sets become the client's, or null to concatenate them
     * @param bound   the most rows the merge may hold in memory
     */
    public static Result merge(List<UnitAnswer> answers, ResultMerge merge, QueryMerge query, MemoryBound bound) {
        List<UnitAnswer> failed = new ArrayList<>();
        for (UnitAnswer answer : answers) {
            if (answer.result() instanceof ErrorResult) {
                failed.add(answer);
            }
        }
        if (!failed.isEmpty()) {
            closeQueries(answers);
            return partly(answers, failed);
        }
        if (query != null && answers.stream().allMatch(a -> a.result() instanceof QueryResult)) {
            return new MergedQueryResult(answers.stream().map(a -> (QueryResult) a.result()).toList(), query, bound);
        }
        if (answers.size() == 1) {
            return answers.get(0).result();
        }
        if (answers.stream().allMatch(a -> a.result() instanceof UpdateResult)) {
            return merge == ResultMerge.ONE_COPY ? oneCopy(answers) : summed(answers);
        }
        if (answers.stream().allMatch(a -> a.result() instanceof QueryResult)) {
            return new ConcatenatedResult(answers.stream().map(a -> (QueryResult) a.result()).toList());
        }
        closeQueries(answers);
        return new ErrorResult(new ErrPacket(1105, "HY000", "The data sources answered this statement differently "
                + "(some with rows, some without): " + names(answers)));
    }

    /** One copy's answer: the first unit's, with the others' transaction state in its status. */
    private static UpdateResult oneCopy(List<UnitAnswer> answers) {
        UpdateResult first = (UpdateResult) answers.get(0).result();
        return new UpdateResult(first.affectedRows(), first.lastInsertId(), status(answers), first.warnings(),
                first.info());
    }

    /** Rows changed on every unit, summed; the first last insert id any of them made. */
    private static UpdateResult summed(List<UnitAnswer> answers) {
        long affected = 0;
        long lastInsertId = 0;
        int warnings = 0;
        for (UnitAnswer answer : answers) {
            UpdateResult update = (UpdateResult) answer.result();
            affected += update.affectedRows();
            lastInsertId = lastInsertId != 0 ? lastInsertId : update.lastInsertId();
            warnings += update.warnings();
        }
        return new UpdateResult(affected, lastInsertId, status(answers), Math.min(warnings, 0xFFFF), "");
    }

    /** The first unit's status, in a transaction when any unit's data source is. */
    private static int status(List<UnitAnswer> answers) {
        int status = ((UpdateResult) answers.get(0).result()).statusFlags();
        for (UnitAnswer answer : answers) {
            status |= ((UpdateResult) answer.result()).statusFlags() & ServerStatus.IN_TRANS;
        }
        return status;
    }

    /**
     * The first failure, saying where it happened and where the statement was applied: "Duplicate entry '1' for key
     * 'PRIMARY' (data source ds_1; applied on ds_0, not on ds_1)".
     */
    private static ErrorResult partly(List<UnitAnswer> answers, List<UnitAnswer> failed) {
        ErrPacket first = ((ErrorResult) failed.get(0).result()).error();
        if (answers.size() == 1) {
            return (ErrorResult) failed.get(0).result();
        }
        List<UnitAnswer> applied = answers.stream().filter(a -> !failed.contains(a)).toList();
        String message = first.message() + " (data source " + failed.get(0).dataSource() + "; applied on "
                + (applied.isEmpty() ? "none" : names(applied)) + ", not on " + names(failed) + ")";
        return new ErrorResult(new ErrPacket(first.errorCode(), first.sqlState(), message));
    }

    private static String names(List<UnitAnswer> answers) {
        StringJoiner names = new StringJoiner(", ");
        answers.forEach(a -> names.add(a.dataSource()));
        return names.toString();
    }

    private static void closeQueries(List<UnitAnswer> answers) {
        for (UnitAnswer answer : answers) {
            if (answer.result() instanceof QueryResult query) {
                query.close();
            }
        }
    }
}
