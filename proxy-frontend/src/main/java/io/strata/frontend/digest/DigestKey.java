package io.strata.frontend.digest;

/**
 * What a digest row counts under: the statement's digest text and who ran it where.
 *
 * @param dataSource where it ran: a data source, several joined by commas (a merged route), or "strata" for an
 *                   answer of Strata's own
 */
public record DigestKey(String digest, String user, String database, String dataSource) {
}
