package io.strata.kernel;

import io.strata.rule.RouteResult;
import io.strata.rule.StatementContext;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Runs routed statements for one session, on whatever backends and threads it has, and answers each with an
 * {@link Outcome}. A host's, or a fake in tests.
 */
public interface Executor {

    /**
     * What the executor is given: the statement, what the classifier read in it, its database, its route, and the
     * runtime the statement runs against (its pools), the one its command started with.
     */
    record Routed(Statement statement, SqlStatementInfo info, String database, RouteResult route,
                  StrataRuntime runtime) {
    }

    /**
     * Runs {@code routed} on its units and merges their answers; completes on any thread. An exceptional completion
     * is Strata's own failure, which the session answers as an error.
     */
    CompletionStage<Outcome> execute(Routed routed);

    /** The data sources the session holds connections on, and what for (routing keeps the session there). */
    default Map<String, StatementContext.Hold> held() {
        return Map.of();
    }
}
