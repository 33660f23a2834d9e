package io.strata.backend.result;

/**
 * A statement's answer without rows: an OK packet's contents.
 *
 * @param info the server's message ("Rows matched: 1 Changed: 1 Warnings: 0"), or "" when none
 */
public record UpdateResult(long affectedRows, long lastInsertId, int statusFlags, int warnings, String info)
        implements Result {
}
