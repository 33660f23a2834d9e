/**
 * The merge engine: combines the protocol-neutral answers of a route's units into the client's one answer
 * (concatenated result sets, summed or single-copy update counts, errors that say where a change was applied), and
 * merges the result sets of a sharded SELECT as its {@link io.strata.rule.QueryMerge} says ({@link
 * io.strata.backend.merge.MergedQueryResult}): a streaming k-way merge of the units' sorted rows, groups and their
 * aggregates, HAVING, DISTINCT, a bounded in-memory sort, LIMIT, and the derived columns hidden again. Rows are read
 * in place as the backends sent them; only the values the merge compares or aggregates are decoded.
 */
package io.strata.backend.merge;
