package io.strata.backend.jdbc;

/**
 * A result column as the MySQL protocol describes it, without any packet: the frontend encodes it.
 *
 * @param extendedType   MariaDB's extended type name (e.g. "point" for geometry), or null
 * @param extendedFormat MariaDB's extended type format (e.g. "json" for JSON columns), or null
 * @param binaryValue    whether cell values are raw bytes (read with getBytes) rather than text
 */
public record ColumnMetadata(String schema, String table, String orgTable, String name, String orgName,
                             int collationId, long length, int type, int flags, int decimals, String extendedType,
                             String extendedFormat, boolean binaryValue) {

    /** The same column with other flags. */
    public ColumnMetadata withFlags(int otherFlags) {
        return new ColumnMetadata(schema, table, orgTable, name, orgName, collationId, length, type, otherFlags,
                decimals, extendedType, extendedFormat, binaryValue);
    }

    /**
     * The same column as a client with another character set sees it: text columns carry that set's collation and
     * a length in its bytes per character (the JDBC side always reads utf8mb4).
     */
    public ColumnMetadata inCharset(int textCollationId, int maxBytesPerChar) {
        if (collationId == io.strata.protocol.ColumnType.BINARY_COLLATION || collationId == textCollationId) {
            return this;
        }
        long chars = length / 4;
        return new ColumnMetadata(schema, table, orgTable, name, orgName, textCollationId, chars * maxBytesPerChar,
                type, flags, decimals, extendedType, extendedFormat, binaryValue);
    }
}
