package io.strata.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.sql.Types;

/**
 * How MariaDB Connector/J (3.x, default settings) presents a column of a given MySQL type: its {@link Types} code,
 * type name and the class {@code getObject} returns, so that the embedded driver answers exactly as the backend's
 * own driver against one plain database would.
 *
 * @param sqlType   the {@link Types} code
 * @param typeName  the type's name, "UNSIGNED" included
 * @param className the class of {@code getObject}'s values
 */
record JdbcType(int sqlType, String typeName, String className) {

    private static final int TINY_BLOB = 0xF9;
    private static final int MEDIUM_BLOB = 0xFA;
    private static final int LONG_BLOB = 0xFB;

    static JdbcType of(ColumnMetadata column) {
        boolean unsigned = (column.flags() & ColumnType.FLAG_UNSIGNED) != 0;
        boolean binary = column.collationId() == ColumnType.BINARY_COLLATION;
        return switch (column.type()) {
            case ColumnType.TINY -> column.length() == 1
                    ? new JdbcType(Types.BIT, "TINYINT", Boolean.class.getName())
                    : new JdbcType(unsigned ? Types.SMALLINT : Types.TINYINT, unsigned("TINYINT", unsigned),
                    Integer.class.getName());
            case ColumnType.SHORT -> unsigned ? new JdbcType(Types.INTEGER, "SMALLINT UNSIGNED",
                    Integer.class.getName()) : new JdbcType(Types.SMALLINT, "SMALLINT", Short.class.getName());
            case ColumnType.INT24 -> new JdbcType(Types.INTEGER, unsigned("MEDIUMINT", unsigned),
                    Integer.class.getName());
            case ColumnType.LONG -> unsigned ? new JdbcType(Types.BIGINT, "INTEGER UNSIGNED", Long.class.getName())
                    : new JdbcType(Types.INTEGER, "INTEGER", Integer.class.getName());
            case ColumnType.LONGLONG -> unsigned
                    ? new JdbcType(Types.BIGINT, "BIGINT UNSIGNED", java.math.BigInteger.class.getName())
                    : new JdbcType(Types.BIGINT, "BIGINT", Long.class.getName());
            case ColumnType.FLOAT -> new JdbcType(Types.REAL, unsigned("FLOAT", unsigned), Float.class.getName());
            case ColumnType.DOUBLE -> new JdbcType(Types.DOUBLE, unsigned("DOUBLE", unsigned),
                    Double.class.getName());
            case ColumnType.DECIMAL, ColumnType.NEWDECIMAL -> new JdbcType(Types.DECIMAL,
                    unsigned("DECIMAL", unsigned), java.math.BigDecimal.class.getName());
            case ColumnType.YEAR -> new JdbcType(Types.DATE, "YEAR", java.sql.Date.class.getName());
            case ColumnType.DATE -> new JdbcType(Types.DATE, "DATE", java.sql.Date.class.getName());
            case ColumnType.TIME -> new JdbcType(Types.TIME, "TIME", java.sql.Time.class.getName());
            case ColumnType.DATETIME -> new JdbcType(Types.TIMESTAMP, "DATETIME",
                    java.sql.Timestamp.class.getName());
            case ColumnType.TIMESTAMP -> new JdbcType(Types.TIMESTAMP, "TIMESTAMP",
                    java.sql.Timestamp.class.getName());
            case ColumnType.BIT -> column.length() == 1 ? new JdbcType(Types.BIT, "BIT", Boolean.class.getName())
                    : new JdbcType(Types.VARBINARY, "BIT", "byte[]");
            case ColumnType.NULL -> new JdbcType(Types.NULL, "NULL", String.class.getName());
            case ColumnType.BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB -> blob(column, binary);
            case ColumnType.STRING -> binary ? new JdbcType(Types.BINARY, "BINARY", "byte[]")
                    : new JdbcType(Types.CHAR, "CHAR", String.class.getName());
            default -> binary ? new JdbcType(Types.VARBINARY, "VARBINARY", "byte[]")
                    : column.length() > 65535 * 4L ? new JdbcType(Types.LONGVARCHAR, "LONGTEXT",
                    String.class.getName()) : new JdbcType(Types.VARCHAR, "VARCHAR", String.class.getName());
        };
    }

    /**
     * A BLOB or TEXT column (any of the wire's blob types): named by its size, in bytes for binary values and in
     * characters for text, and a VARCHAR or VARBINARY up to a BLOB's size, as MariaDB Connector/J's BlobColumn says.
     */
    private static JdbcType blob(ColumnMetadata column, boolean binary) {
        long length = column.length();
        long display = binary ? length : length / maxBytesPerChar(column.collationId());
        int sqlType;
        if (length <= 0 || display > 16777215) {
            sqlType = binary ? Types.LONGVARBINARY : Types.LONGVARCHAR;
        } else if (column.type() == TINY_BLOB || column.type() == ColumnType.BLOB) {
            sqlType = binary ? Types.VARBINARY : Types.VARCHAR;
        } else {
            sqlType = binary ? Types.LONGVARBINARY : Types.LONGVARCHAR;
        }
        String size = display <= 255 ? "TINY" : display <= 65535 ? "" : display <= 16777215 ? "MEDIUM" : "LONG";
        return new JdbcType(sqlType, size + (binary ? "BLOB" : "TEXT"), binary ? "byte[]" : String.class.getName());
    }

    /** utf8mb4 (4 bytes a character), utf8mb3 (3), latin1 and other single-byte sets (1), by collation id. */
    static int maxBytesPerChar(int collationId) {
        if (collationId == ColumnType.BINARY_COLLATION || collationId == 8 || collationId == 47 || collationId == 48
                || collationId == 5 || collationId == 11) {
            return 1;
        }
        if (collationId == 33 || collationId == 83 || collationId >= 192 && collationId <= 215) {
            return 3;
        }
        return 4;
    }

    private static String unsigned(String name, boolean unsigned) {
        return unsigned ? name + " UNSIGNED" : name;
    }

    boolean isBoolean() {
        return className.equals(Boolean.class.getName());
    }
}
