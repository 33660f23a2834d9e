package io.strata.backend.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Describes JDBC result columns as MySQL column definitions, as faithfully as the standard JDBC metadata of
 * MariaDB Connector/J allows. The type comes from the driver's type name (which keeps UNSIGNED, JSON, YEAR...), the
 * length from precision and the character set's width, the flags from nullability, signedness and binary-ness.
 */
public final class JdbcColumns {

    private static final int UTF8MB4_GENERAL_CI = 45;

    private JdbcColumns() {
    }

    /**
     * The backend's own column definitions when the driver lets Strata read them ({@link DriverColumns}), else a
     * reconstruction from standard metadata; in the client's character set either way.
     *
     * @param textCollationId the collation id of the client's character set, for text columns
     */
    public static List<ColumnMetadata> describe(ResultSetMetaData md, int textCollationId, int maxBytesPerChar)
            throws SQLException {
        List<ColumnMetadata> exact = DriverColumns.describe(md).orElse(null);
        if (exact != null) {
            return exact.stream().map(c -> c.inCharset(textCollationId, maxBytesPerChar)).toList();
        }
        List<ColumnMetadata> columns = new ArrayList<>(md.getColumnCount());
        for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(describe(md, i, textCollationId, maxBytesPerChar));
        }
        return columns;
    }

    /**
     * The backend's own column definitions, in the collations it sent (an in-process host reads them as they are),
     * or a reconstruction in utf8mb4 from standard metadata when the driver's are out of reach.
     */
    public static List<ColumnMetadata> describe(ResultSetMetaData md) throws SQLException {
        List<ColumnMetadata> exact = DriverColumns.describe(md).orElse(null);
        return exact != null ? exact : describe(md, UTF8MB4_GENERAL_CI, 4);
    }

    private static ColumnMetadata describe(ResultSetMetaData md, int i, int textCollationId, int maxBytesPerChar)
            throws SQLException {
        String typeName = md.getColumnTypeName(i).toUpperCase(Locale.ROOT);
        boolean unsigned = typeName.endsWith(" UNSIGNED") || !md.isSigned(i);
        String base = typeName.endsWith(" UNSIGNED")
                ? typeName.substring(0, typeName.length() - " UNSIGNED".length()) : typeName;
        int jdbcType = md.getColumnType(i);
        boolean bytes = isBinary(base, jdbcType);
        boolean text = !bytes && isText(base);
        int type = type(base);
        int flags = 0;
        if (md.isNullable(i) == ResultSetMetaData.columnNoNulls) {
            flags |= ColumnType.FLAG_NOT_NULL;
        }
        if (unsigned) {
            flags |= ColumnType.FLAG_UNSIGNED;
        }
        if (md.isAutoIncrement(i)) {
            flags |= ColumnType.FLAG_AUTO_INCREMENT;
        }
        if (type == ColumnType.BLOB) {
            flags |= ColumnType.FLAG_BLOB;
        }
        if (!text) {
            flags |= ColumnType.FLAG_BINARY;
        }
        long precision = Math.max(0, md.getPrecision(i));
        long length = text ? precision * maxBytesPerChar : precision;
        if (type == ColumnType.LONGLONG || type == ColumnType.LONG || type == ColumnType.INT24
                || type == ColumnType.SHORT || type == ColumnType.TINY) {
            length = unsigned ? precision : precision + 1;
        } else if (type == ColumnType.NEWDECIMAL) {
            length = precision + (md.getScale(i) > 0 ? 1 : 0) + (unsigned ? 0 : 1); // digits, point, sign
        } else if (base.equals("JSON")) {
            length = 0xFFFFFFFFL; // LONGTEXT
        }
        String table = md.getTableName(i);
        return new ColumnMetadata(md.getCatalogName(i), table, table, md.getColumnLabel(i), md.getColumnName(i),
                text ? textCollationId : ColumnType.BINARY_COLLATION, length, type, flags,
                Math.max(0, md.getScale(i)), null, base.equals("JSON") ? "json" : null, bytes);
    }

    /** Whether a column's values are bytes to pass as they are (read with getBytes) rather than text. */
    static boolean bytesValue(int collationId, int type) {
        if (collationId != ColumnType.BINARY_COLLATION) {
            return false;
        }
        return switch (type) {
            case ColumnType.BLOB, ColumnType.STRING, ColumnType.VAR_STRING, ColumnType.VARCHAR, ColumnType.BIT,
                 ColumnType.GEOMETRY, 0xF9, 0xFA, 0xFB -> true;
            default -> false;
        };
    }

    private static boolean isBinary(String base, int jdbcType) {
        return base.contains("BLOB") || base.equals("BINARY") || base.equals("VARBINARY") || base.equals("BIT")
                || base.equals("GEOMETRY") || jdbcType == Types.BINARY || jdbcType == Types.VARBINARY
                || jdbcType == Types.LONGVARBINARY;
    }

    private static boolean isText(String base) {
        return base.contains("CHAR") || base.contains("TEXT") || base.equals("JSON") || base.equals("ENUM")
                || base.equals("SET");
    }

    private static int type(String base) {
        return switch (base) {
            case "TINYINT", "BOOLEAN", "BOOL" -> ColumnType.TINY;
            case "SMALLINT" -> ColumnType.SHORT;
            case "MEDIUMINT" -> ColumnType.INT24;
            case "INT", "INTEGER" -> ColumnType.LONG;
            case "BIGINT" -> ColumnType.LONGLONG;
            case "FLOAT" -> ColumnType.FLOAT;
            case "DOUBLE" -> ColumnType.DOUBLE;
            case "DECIMAL" -> ColumnType.NEWDECIMAL;
            case "DATE" -> ColumnType.DATE;
            case "TIME" -> ColumnType.TIME;
            case "DATETIME" -> ColumnType.DATETIME;
            case "TIMESTAMP" -> ColumnType.TIMESTAMP;
            case "YEAR" -> ColumnType.YEAR;
            case "BIT" -> ColumnType.BIT;
            case "NULL" -> ColumnType.NULL;
            case "GEOMETRY" -> ColumnType.GEOMETRY;
            case "CHAR", "BINARY", "ENUM", "SET" -> ColumnType.STRING;
            case "VARCHAR", "VARBINARY" -> ColumnType.VAR_STRING;
            default -> ColumnType.BLOB; // TEXT and BLOB of every size, JSON (as MariaDB sends it)
        };
    }
}
