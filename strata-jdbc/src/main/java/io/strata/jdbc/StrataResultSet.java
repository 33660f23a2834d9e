package io.strata.jdbc;

import io.strata.backend.result.ColumnMetadata;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.ResultException;
import io.strata.backend.result.Row;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of a statement, read forward as the kernel streams them (from one unit's backend, or merged from
 * several), with the getters of MariaDB Connector/J. Closing it, or reading its last row, ends the statement in the
 * kernel: its digest, the slow log and the process list see it then. A one-unit answer is read in place, in the
 * backend driver's own result set ({@link QueryResult#driverRows()}): its values are Connector/J's as they are; a
 * merged one from the kernel's cells ({@link CellValues}), converted as Connector/J converts.
 */
final class StrataResultSet extends ReadOnlyResultSet {

    private final Statement statement;
    private final QueryResult rows;
    private final List<ColumnMetadata> columns;
    private final JdbcType[] types;
    /** The backend driver's result set when the values are read there, else null. */
    private final java.sql.ResultSet driver;
    private Map<String, Integer> byLabel;
    private Object[] current;
    private boolean wasNull;
    private boolean ended;
    private boolean closed;
    private int rowNumber;

    StrataResultSet(Statement statement, QueryResult rows) {
        this.statement = statement;
        this.rows = rows;
        this.columns = rows.columns();
        this.driver = rows.driverRows();
        this.types = new JdbcType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = JdbcType.of(columns.get(i));
        }
    }

    List<ColumnMetadata> columns() {
        return columns;
    }

    JdbcType type(int index) {
        return types[index];
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (ended) {
            return false;
        }
        Row row;
        try {
            row = rows.next();
        } catch (ResultException e) {
            close();
            throw StrataConnection.exception(e.error());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new SQLException("interrupted while reading rows", "70100", e);
        }
        if (row == null) {
            ended = true;
            current = null;
            rows.close(); // the statement ends in the kernel with its last row, not when the application gets round
            return false;
        }
        current = ((Row.Cells) row).values();
        rowNumber++;
        return true;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            rows.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("Operation not permit on a closed resultSet", "HY000");
        }
    }

    private Object cell(int index) throws SQLException {
        checkOpen();
        if (current == null) {
            throw new SQLException("Current position is before the first row or after the last", "22023");
        }
        if (index < 1 || index > current.length) {
            throw new SQLException("Wrong index position. Is " + index + " but must be in 1-" + current.length
                    + " range", "22023");
        }
        Object cell = current[index - 1];
        wasNull = cell == null;
        return cell;
    }

    /** The driver's result set, positioned on the current row, when the values are read there; else null. */
    private java.sql.ResultSet inPlace(int index) throws SQLException {
        if (driver == null) {
            return null;
        }
        checkOpen();
        if (current == null) {
            throw new SQLException("Current position is before the first row or after the last", "22023");
        }
        return driver;
    }

    @Override
    public boolean wasNull() throws SQLException {
        return driver != null ? driver.wasNull() : wasNull;
    }

    @Override
    public String getString(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getString(index);
        }
        Object cell = cell(index);
        JdbcType type = types[index - 1];
        if (cell instanceof byte[] && type.className().equals("byte[]")
                && columns.get(index - 1).type() == io.strata.protocol.ColumnType.BIT) {
            return Long.toString(new java.math.BigInteger(1, (byte[]) cell).longValue());
        }
        return CellValues.text(cell);
    }

    @Override
    public boolean getBoolean(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getBoolean(index);
        }
        Object cell = cell(index);
        return cell != null && CellValues.bool(cell);
    }

    @Override
    public byte getByte(int index) throws SQLException {
        return (byte) getLong(index);
    }

    @Override
    public short getShort(int index) throws SQLException {
        return (short) getLong(index);
    }

    @Override
    public int getInt(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getInt(index);
        }
        return (int) getLong(index);
    }

    @Override
    public long getLong(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getLong(index);
        }
        Object cell = cell(index);
        return cell == null ? 0 : CellValues.longValue(cell);
    }

    @Override
    public float getFloat(int index) throws SQLException {
        return (float) getDouble(index);
    }

    @Override
    public double getDouble(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getDouble(index);
        }
        Object cell = cell(index);
        return cell == null ? 0 : CellValues.doubleValue(cell);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int index, int scale) throws SQLException {
        BigDecimal value = getBigDecimal(index);
        return value == null ? null : value.setScale(scale, java.math.RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getBytes(index);
        }
        return CellValues.bytes(cell(index));
    }

    @Override
    public Date getDate(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getDate(index);
        }
        Object cell = cell(index);
        return cell == null ? null : columns.get(index - 1).type() == io.strata.protocol.ColumnType.YEAR
                ? CellValues.year(cell) : CellValues.date(cell);
    }

    @Override
    public Time getTime(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getTime(index);
        }
        Object cell = cell(index);
        if (cell == null) {
            return null;
        }
        String text = CellValues.text(cell);
        return text.length() > 10 ? new Time(CellValues.timestamp(cell).getTime()) : CellValues.time(cell);
    }

    @Override
    public Timestamp getTimestamp(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getTimestamp(index);
        }
        Object cell = cell(index);
        return cell == null ? null : CellValues.timestamp(cell);
    }

    @Override
    public InputStream getAsciiStream(int index) throws SQLException {
        byte[] bytes = getBytes(index);
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    @Override
    public InputStream getBinaryStream(int index) throws SQLException {
        return getAsciiStream(index);
    }

    @Override
    public Reader getCharacterStream(int index) throws SQLException {
        String text = getString(index);
        return text == null ? null : new StringReader(text);
    }

    @Override
    public Reader getNCharacterStream(int index) throws SQLException {
        return getCharacterStream(index);
    }

    @Override
    public Blob getBlob(int index) throws SQLException {
        byte[] bytes = getBytes(index);
        return bytes == null ? null : new javax.sql.rowset.serial.SerialBlob(bytes);
    }

    @Override
    public Clob getClob(int index) throws SQLException {
        String text = getString(index);
        return text == null ? null : new javax.sql.rowset.serial.SerialClob(text.toCharArray());
    }

    @Override
    public NClob getNClob(int index) throws SQLException {
        throw Unsupported.method("ResultSet.getNClob(int)");
    }

    @Override
    public String getNString(int index) throws SQLException {
        return getString(index);
    }

    @Override
    public Object getObject(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getObject(index);
        }
        return CellValues.object(cell(index), columns.get(index - 1), types[index - 1]);
    }

    @Override
    public <T> T getObject(int index, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("Class type cannot be null", "HY000");
        }
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getObject(index, type);
        }
        return CellValues.object(cell(index), columns.get(index - 1), types[index - 1], type);
    }

    @Override
    public Object getObject(int index, Map<String, Class<?>> map) throws SQLException {
        return getObject(index);
    }

    @Override
    public BigDecimal getBigDecimal(int index) throws SQLException {
        java.sql.ResultSet rs = inPlace(index);
        if (rs != null) {
            return rs.getBigDecimal(index);
        }
        return CellValues.decimal(cell(index));
    }

    @Override
    public Date getDate(int index, Calendar cal) throws SQLException {
        return getDate(index);
    }

    @Override
    public Time getTime(int index, Calendar cal) throws SQLException {
        return getTime(index);
    }

    @Override
    public Timestamp getTimestamp(int index, Calendar cal) throws SQLException {
        return getTimestamp(index);
    }

    @Override
    public int findColumn(String label) throws SQLException {
        checkOpen();
        if (label == null) {
            throw new SQLException("null is not a column label", "42S22");
        }
        if (byLabel == null) {
            byLabel = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) { // the first of equal labels wins
                ColumnMetadata column = columns.get(i);
                byLabel.put(column.name().toLowerCase(Locale.ROOT), i + 1);
                if (column.table() != null && !column.table().isEmpty()) {
                    byLabel.put((column.table() + "." + column.name()).toLowerCase(Locale.ROOT), i + 1);
                }
            }
        }
        Integer index = byLabel.get(label.toLowerCase(Locale.ROOT));
        if (index == null) {
            throw new SQLException("Unknown label '" + label + "'. Possible value " + columns.stream()
                    .map(ColumnMetadata::name).toList(), "42S22");
        }
        return index;
    }

    // The getters by label: each finds the column, then reads it as by index.

    @Override
    public String getString(String label) throws SQLException {
        return getString(findColumn(label));
    }

    @Override
    public boolean getBoolean(String label) throws SQLException {
        return getBoolean(findColumn(label));
    }

    @Override
    public byte getByte(String label) throws SQLException {
        return getByte(findColumn(label));
    }

    @Override
    public short getShort(String label) throws SQLException {
        return getShort(findColumn(label));
    }

    @Override
    public int getInt(String label) throws SQLException {
        return getInt(findColumn(label));
    }

    @Override
    public long getLong(String label) throws SQLException {
        return getLong(findColumn(label));
    }

    @Override
    public float getFloat(String label) throws SQLException {
        return getFloat(findColumn(label));
    }

    @Override
    public double getDouble(String label) throws SQLException {
        return getDouble(findColumn(label));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
        return getBigDecimal(findColumn(label), scale);
    }

    @Override
    public byte[] getBytes(String label) throws SQLException {
        return getBytes(findColumn(label));
    }

    @Override
    public Date getDate(String label) throws SQLException {
        return getDate(findColumn(label));
    }

    @Override
    public Time getTime(String label) throws SQLException {
        return getTime(findColumn(label));
    }

    @Override
    public Timestamp getTimestamp(String label) throws SQLException {
        return getTimestamp(findColumn(label));
    }

    @Override
    public InputStream getAsciiStream(String label) throws SQLException {
        return getAsciiStream(findColumn(label));
    }

    @Override
    public InputStream getBinaryStream(String label) throws SQLException {
        return getBinaryStream(findColumn(label));
    }

    @Override
    public Reader getCharacterStream(String label) throws SQLException {
        return getCharacterStream(findColumn(label));
    }

    @Override
    public Reader getNCharacterStream(String label) throws SQLException {
        return getNCharacterStream(findColumn(label));
    }

    @Override
    public Blob getBlob(String label) throws SQLException {
        return getBlob(findColumn(label));
    }

    @Override
    public Clob getClob(String label) throws SQLException {
        return getClob(findColumn(label));
    }

    @Override
    public NClob getNClob(String label) throws SQLException {
        return getNClob(findColumn(label));
    }

    @Override
    public String getNString(String label) throws SQLException {
        return getNString(findColumn(label));
    }

    @Override
    public Object getObject(String label) throws SQLException {
        return getObject(findColumn(label));
    }

    @Override
    public <T> T getObject(String label, Class<T> type) throws SQLException {
        return getObject(findColumn(label), type);
    }

    @Override
    public Object getObject(String label, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(label));
    }

    @Override
    public BigDecimal getBigDecimal(String label) throws SQLException {
        return getBigDecimal(findColumn(label));
    }

    @Override
    public Date getDate(String label, Calendar cal) throws SQLException {
        return getDate(findColumn(label));
    }

    @Override
    public Time getTime(String label, Calendar cal) throws SQLException {
        return getTime(findColumn(label));
    }

    @Override
    public Timestamp getTimestamp(String label, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(label));
    }

    @Override
    public SQLWarning getWarnings() {
        return null; // warnings of reading rows: none arise in Strata
    }

    /** The warnings of the statement that answered, when one data source did: its driver's; else null. */
    SQLWarning statementWarnings() throws SQLException {
        if (driver == null || driver.isClosed() || driver.getStatement() == null) {
            return null;
        }
        return driver.getStatement().getWarnings();
    }

    @Override
    public void clearWarnings() {
    }

    @Override
    public String getCursorName() throws SQLException {
        throw Unsupported.method("ResultSet.getCursorName");
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new StrataResultSetMetaData(columns, types);
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return rowNumber == 0 && !ended;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return ended && rowNumber > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return rowNumber == 1 && current != null;
    }

    @Override
    public boolean isLast() throws SQLException {
        throw Unsupported.method("ResultSet.isLast on a streaming result set");
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return current == null ? 0 : rowNumber;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        if (direction != FETCH_FORWARD) {
            throw Unsupported.method("ResultSet.setFetchDirection other than FETCH_FORWARD");
        }
    }

    @Override
    public int getFetchDirection() {
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) {
        // rows stream as the backend sends them
    }

    @Override
    public int getFetchSize() {
        return 0;
    }

    @Override
    public int getType() {
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() {
        return CONCUR_READ_ONLY;
    }

    @Override
    public Statement getStatement() {
        return statement;
    }

    @Override
    public int getHoldability() {
        return HOLD_CURSORS_OVER_COMMIT;
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
