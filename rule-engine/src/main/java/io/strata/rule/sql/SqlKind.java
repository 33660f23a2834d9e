package io.strata.rule.sql;

/** What a statement does, by its first keyword(s). */
public enum SqlKind {
    SELECT, INSERT, UPDATE, DELETE, REPLACE, DDL, USE, SET, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, SHOW, KILL, CALL,
    LOCK, EMPTY, OTHER
}
