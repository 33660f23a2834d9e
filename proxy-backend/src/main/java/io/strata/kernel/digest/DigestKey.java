package io.strata.kernel.digest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a digest row counts under: the statement's digest text and who ran it where.
 *
 * @param dataSource where it ran: a data source, several joined by commas (a merged route), or "strata" for an
 *                   answer of Strata's own
 */
public record DigestKey(String digest, String user, String database, String dataSource) {

    /**
     * The digest's id, as MySQL's DIGEST column: the SHA-256 of the digest text, its first 16 hex digits here. Made
     * when shown, not per statement.
     */
    public String id() {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(digest.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
