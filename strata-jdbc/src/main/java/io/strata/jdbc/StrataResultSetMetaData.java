package io.strata.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.protocol.ColumnType;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** A result's columns as MariaDB Connector/J describes them: names, tables, types, sizes and flags. */
final class StrataResultSetMetaData implements ResultSetMetaData {

    private final List<ColumnMetadata> columns;
    private final JdbcType[] types;

    StrataResultSetMetaData(List<ColumnMetadata> columns, JdbcType[] types) {
        this.columns = columns;
        this.types = types;
    }

    private ColumnMetadata column(int index) throws SQLException {
        if (index < 1 || index > columns.size()) {
            throw new SQLException("wrong column index " + index + ": must be in 1-" + columns.size(), "22023");
        }
        return columns.get(index - 1);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        return (column(column).flags() & ColumnType.FLAG_AUTO_INCREMENT) != 0;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return (column(column).flags() & ColumnType.FLAG_BINARY) != 0;
    }

    @Override
    public boolean isSearchable(int column) {
        return true;
    }

    @Override
    public boolean isCurrency(int column) {
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return (column(column).flags() & ColumnType.FLAG_NOT_NULL) != 0 ? columnNoNulls : columnNullable;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return (column(column).flags() & ColumnType.FLAG_UNSIGNED) == 0;
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return (int) Math.min(Integer.MAX_VALUE, c.length() / JdbcType.maxBytesPerChar(c.collationId()));
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return c.orgName() == null || c.orgName().isEmpty() ? c.name() : c.orgName();
    }

    @Override
    public String getSchemaName(int column) {
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return switch (types[column - 1].sqlType()) {
            case Types.DECIMAL -> (int) c.length() - (c.decimals() > 0 ? 1 : 0)
                    - ((c.flags() & ColumnType.FLAG_UNSIGNED) == 0 ? 1 : 0);
            default -> getColumnDisplaySize(column);
        };
    }

    @Override
    public int getScale(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return c.decimals();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return c.table() == null ? "" : c.table();
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return c.schema() == null ? "" : c.schema();
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        column(column);
        return types[column - 1].sqlType();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        column(column);
        return types[column - 1].typeName();
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        ColumnMetadata c = column(column);
        return c.orgTable() == null || c.orgTable().isEmpty();
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        return !isReadOnly(column);
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        return !isReadOnly(column);
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        column(column);
        return types[column - 1].className();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
