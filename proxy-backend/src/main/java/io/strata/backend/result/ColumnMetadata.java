package io.strata.backend.result;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.strata.protocol.MySQLBuf;

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

    /**
     * A column as a backend's
     * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset_column_definition.html">
     * ColumnDefinition41</a> payload describes it (text values are UTF-8).
     *
     * @param extendedTypeInfo the connection negotiated MariaDB's extended type info: a block of it follows org_name
     */
    public static ColumnMetadata decode(byte[] definition, boolean extendedTypeInfo) {
        ByteBuf in = Unpooled.wrappedBuffer(definition);
        MySQLBuf.readStringLenenc(in); // catalog, always "def"
        String schema = MySQLBuf.readStringLenenc(in);
        String table = MySQLBuf.readStringLenenc(in);
        String orgTable = MySQLBuf.readStringLenenc(in);
        String name = MySQLBuf.readStringLenenc(in);
        String orgName = MySQLBuf.readStringLenenc(in);
        String extendedType = null;
        String extendedFormat = null;
        if (extendedTypeInfo) {
            ByteBuf block = Unpooled.wrappedBuffer(MySQLBuf.readBytesLenenc(in));
            while (block.isReadable()) {
                int key = MySQLBuf.readInt1(block);
                String value = MySQLBuf.readStringLenenc(block);
                if (key == 0) {
                    extendedType = value;
                } else if (key == 1) {
                    extendedFormat = value;
                }
            }
        }
        MySQLBuf.readIntLenenc(in); // length of the fixed fields, 0x0c
        int collation = MySQLBuf.readInt2(in);
        long length = MySQLBuf.readInt4(in);
        int type = MySQLBuf.readInt1(in);
        int flags = MySQLBuf.readInt2(in);
        int decimals = MySQLBuf.readInt1(in);
        return new ColumnMetadata(schema, table, orgTable, name, orgName, collation, length, type, flags, decimals,
                extendedType, extendedFormat, collation == io.strata.protocol.ColumnType.BINARY_COLLATION);
    }

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
