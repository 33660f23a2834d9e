package io.strata.backend.result;

/**
 * One statement's answer, protocol-neutral: rows with their columns, a count of changed rows, or an error. The
 * frontend makes packets of it; the merge combines the answers of several route units into one.
 */
public sealed interface Result permits QueryResult, UpdateResult, ErrorResult {
}
