package io.strata.rule;

import io.strata.rule.sql.SqlStatementInfo;

/**
 * What a rule may know of a statement: the logical database it runs in, what the classifier found, and the session
 * facts routing depends on.
 */
public record StatementContext(String database, SqlStatementInfo statement, boolean inTransaction) {
}
