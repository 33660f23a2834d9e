package io.strata.rule.sql.parser;

import java.util.Objects;

/**
 * A table a statement names, as the server reads the name: quotes removed ({@code `a``b`} is {@code a`b}), case as
 * written.
 *
 * @param schema  the database the name is qualified with, or null when unqualified (the session's database)
 * @param name    the table's name
 * @param written the statement changes the table's rows or definition: the target of an INSERT, REPLACE, UPDATE,
 *                DELETE or LOAD DATA, or of DDL. False for a table only read: joined, in a subquery, the source of
 *                an INSERT ... SELECT or of CREATE TABLE ... LIKE
 */
public record TableName(String schema, String name, boolean written) {

    public TableName {
        Objects.requireNonNull(name, "name");
    }

    /** An unqualified table that is only read. */
    public static TableName read(String name) {
        return new TableName(null, name, false);
    }

    /** An unqualified table that is written. */
    public static TableName written(String name) {
        return new TableName(null, name, true);
    }

    /** The same name, qualified with {@code schema}. */
    public TableName in(String schema) {
        return new TableName(schema, name, written);
    }
}
