package io.strata.rule;

/**
 * An actual table a statement's answer names, which the client is shown by its logical name: SHOW INDEX and SHOW
 * CREATE TABLE of a sharded table are answered by its first actual table, and their first column (and the CREATE
 * TABLE statement) must speak of the table the client asked about.
 *
 * @param actual  the actual table's name, as its data source answers it
 * @param logical the name the client knows
 */
public record RenamedTable(String actual, String logical) {
}
