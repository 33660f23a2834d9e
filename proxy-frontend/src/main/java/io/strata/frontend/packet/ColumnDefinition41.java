package io.strata.frontend.packet;

import io.netty.buffer.ByteBuf;
import io.strata.protocol.ColumnType;
import io.strata.protocol.MySQLBuf;

/**
 * <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset_column_definition.html">
 * Protocol::ColumnDefinition41</a>, for result sets Strata answers itself.
 */
public record ColumnDefinition41(String schema, String table, String orgTable, String name, String orgName,
                                 int characterSet, long columnLength, int type, int flags, int decimals,
                                 String extendedType, String extendedFormat) {

    public ColumnDefinition41(String schema, String table, String orgTable, String name, String orgName,
                              int characterSet, long columnLength, int type, int flags, int decimals) {
        this(schema, table, orgTable, name, orgName, characterSet, columnLength, type, flags, decimals, null, null);
    }

    private static final int UTF8MB4_GENERAL_CI = 45;

    public static ColumnDefinition41 varchar(String name) {
        return new ColumnDefinition41("", "", "", name, "", UTF8MB4_GENERAL_CI, 256 * 4, ColumnType.VAR_STRING, 0,
                0x27);
    }

    /**
     * DATABASE()'s column as the server describes it: a name of 64 characters on MariaDB, 34 on MySQL, in the
     * client's character set, with each server's "not fixed" decimals.
     */
    public static ColumnDefinition41 databaseFunction(String name, boolean mariaDb, int collation,
                                                      int maxBytesPerChar) {
        return new ColumnDefinition41("", "", "", name, "", collation, (long) (mariaDb ? 64 : 34) * maxBytesPerChar,
                ColumnType.VAR_STRING, 0, mariaDb ? 0x27 : 0x1f);
    }

    public static ColumnDefinition41 bigint(String name) {
        return new ColumnDefinition41("", "", "", name, "", ColumnType.BINARY_COLLATION, 21, ColumnType.LONGLONG,
                ColumnType.FLAG_BINARY, 0);
    }

    /** The column of an integer function's result, as the server describes it (BIGINT NOT NULL). */
    public static ColumnDefinition41 integerFunction(String name, boolean unsigned) {
        // no NUM_FLAG: neither MariaDB nor MySQL 8 sends one for these (MySql8IT compares the bytes)
        int flags = ColumnType.FLAG_NOT_NULL | ColumnType.FLAG_BINARY | (unsigned ? ColumnType.FLAG_UNSIGNED : 0);
        return new ColumnDefinition41("", "", "", name, "", ColumnType.BINARY_COLLATION, 21, ColumnType.LONGLONG,
                flags, 0);
    }

    /**
     * @param extendedTypeInfo the client negotiated MariaDB's extended type info: an (empty) extended metadata
     *                         field follows org_name
     */
    /** MariaDB's extended metadata: a lenenc block of (key, lenenc value) pairs; key 0 the type, 1 the format. */
    private void writeExtendedMetadata(ByteBuf out) {
        ByteBuf block = out.alloc().buffer(32);
        try {
            if (extendedType != null) {
                MySQLBuf.writeInt1(block, 0);
                MySQLBuf.writeStringLenenc(block, extendedType);
            }
            if (extendedFormat != null) {
                MySQLBuf.writeInt1(block, 1);
                MySQLBuf.writeStringLenenc(block, extendedFormat);
            }
            MySQLBuf.writeIntLenenc(out, block.readableBytes());
            out.writeBytes(block);
        } finally {
            block.release();
        }
    }

    public void encode(ByteBuf out, boolean extendedTypeInfo) {
        MySQLBuf.writeStringLenenc(out, "def");
        MySQLBuf.writeStringLenenc(out, schema);
        MySQLBuf.writeStringLenenc(out, table);
        MySQLBuf.writeStringLenenc(out, orgTable);
        MySQLBuf.writeStringLenenc(out, name);
        MySQLBuf.writeStringLenenc(out, orgName);
        if (extendedTypeInfo) {
            writeExtendedMetadata(out);
        }
        MySQLBuf.writeIntLenenc(out, 0x0C);
        MySQLBuf.writeInt2(out, characterSet);
        MySQLBuf.writeInt4(out, columnLength);
        MySQLBuf.writeInt1(out, type);
        MySQLBuf.writeInt2(out, flags);
        MySQLBuf.writeInt1(out, decimals);
        MySQLBuf.writeInt2(out, 0);
    }
}
