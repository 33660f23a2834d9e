package io.strata.kernel;

import io.strata.rule.sql.SqlKind;

/** What hears how long each statement took, from its start to its answer (the latency histograms). */
@FunctionalInterface
public interface StatementTimer {

    /**
     * @param database   the logical database it ran in, or {@link StatementLife#STRATA} for none
     * @param dataSource the one data source it ran on, "several" for a route of several, {@link StatementLife#STRATA}
     *                   for an answer of Strata's own
     */
    void ended(String database, String dataSource, SqlKind kind, boolean failed, long nanos);
}
