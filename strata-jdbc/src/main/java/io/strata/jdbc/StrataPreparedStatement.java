package io.strata.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.BatchUpdateException;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/**
 * A prepared statement of an embedded session: its values are kept as Java values and go through the kernel with
 * the text (the rules route by them; the backends prepare the text on their own connections). Dates and times are
 * kept as java.time values (what a mirror's or a rewritten unit's text writes as literals).
 */
final class StrataPreparedStatement extends StrataStatement implements PreparedStatement {

    private static final Object UNSET = new Object();

    private final String sql;
    private final int placeholders;
    private Object[] values;
    private final List<Object[]> batch = new ArrayList<>();

    StrataPreparedStatement(StrataConnection connection, String sql) {
        super(connection);
        this.sql = sql;
        this.placeholders = Placeholders.count(sql);
        this.values = unset(placeholders);
    }

    private static Object[] unset(int count) {
        Object[] values = new Object[count];
        Arrays.fill(values, UNSET);
        return values;
    }

    private void set(int index, Object value) throws SQLException {
        checkOpen();
        if (index < 1 || index > placeholders) {
            throw new SQLException("wrong parameter index " + index + ": the statement has " + placeholders
                    + " placeholder(s)", "07009");
        }
        values[index - 1] = value;
    }

    private List<Object> bound() throws SQLException {
        List<Object> bound = new ArrayList<>(placeholders);
        for (int i = 0; i < placeholders; i++) {
            if (values[i] == UNSET) {
                throw new SQLException("Parameter at position " + (i + 1) + " is not set", "07004");
            }
            bound.add(values[i]);
        }
        return bound;
    }

    private io.strata.kernel.Statement statement() throws SQLException {
        return io.strata.kernel.Statement.prepared(sql, bound());
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        return run(statement()) ? getResultSet() : empty();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return (int) executeLargeUpdate();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        run(statement());
        return Math.max(getLargeUpdateCount(), 0);
    }

    @Override
    public boolean execute() throws SQLException {
        return run(statement());
    }

    @Override
    public void clearParameters() {
        values = unset(placeholders);
    }

    @Override
    public void addBatch() throws SQLException {
        bound();
        batch.add(values.clone());
    }

    @Override
    public void clearBatch() {
        batch.clear();
    }

    /**
     * Each set of values runs as its own execute, routed by its own values: a batch over several shards reaches each
     * set's node, and the counts are each execute's.
     */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        List<Object[]> sets = new ArrayList<>(batch);
        batch.clear();
        long[] counts = new long[sets.size()];
        for (int i = 0; i < sets.size(); i++) {
            values = sets.get(i);
            try {
                run(statement());
                counts[i] = Math.max(getLargeUpdateCount(), 0);
            } catch (SQLException e) {
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(),
                        Arrays.copyOf(counts, i), e);
            }
        }
        return counts;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return Arrays.stream(executeLargeBatch()).mapToInt(c -> (int) c).toArray();
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw new SQLException("executeQuery(String) cannot be called on a PreparedStatement", "HY000");
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        ResultSet rows = getResultSet();
        return rows != null ? rows.getMetaData() : null;
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        throw Unsupported.method("PreparedStatement.getParameterMetaData");
    }

    @Override
    public void setNull(int index, int sqlType) throws SQLException {
        set(index, null);
    }

    @Override
    public void setNull(int index, int sqlType, String typeName) throws SQLException {
        set(index, null);
    }

    @Override
    public void setBoolean(int index, boolean x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setByte(int index, byte x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setShort(int index, short x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setInt(int index, int x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setLong(int index, long x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setFloat(int index, float x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setDouble(int index, double x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setBigDecimal(int index, BigDecimal x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setString(int index, String x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setNString(int index, String x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setBytes(int index, byte[] x) throws SQLException {
        set(index, x);
    }

    @Override
    public void setDate(int index, Date x) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setDate(int index, Date x, Calendar cal) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setTime(int index, Time x) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setTime(int index, Time x, Calendar cal) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setTimestamp(int index, Timestamp x) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setTimestamp(int index, Timestamp x, Calendar cal) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setObject(int index, Object x) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setObject(int index, Object x, int targetSqlType) throws SQLException {
        set(index, javaTime(x));
    }

    @Override
    public void setObject(int index, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        set(index, javaTime(x));
    }

    /**
     * A date or time as the java.time value the kernel's rules and literals know: java.sql.Date a LocalDate, a
     * Timestamp or java.util.Date a LocalDateTime (in the JVM's zone, as MariaDB Connector/J sends it), a Time or
     * LocalTime a Duration since midnight; anything else as it is.
     */
    static Object javaTime(Object value) {
        return switch (value) {
            case null -> null;
            case Date date -> date.toLocalDate();
            case Time time -> Duration.ofNanos(time.toLocalTime().toNanoOfDay());
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case java.util.Date date -> LocalDateTime.ofInstant(date.toInstant(), ZoneId.systemDefault());
            case LocalTime time -> Duration.ofNanos(time.toNanoOfDay());
            case OffsetDateTime time -> time.atZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime();
            case ZonedDateTime time -> time.withZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime();
            case Instant instant -> LocalDateTime.ofInstant(instant, ZoneId.systemDefault());
            case Character c -> c.toString();
            case Enum<?> e -> e.name();
            default -> value;
        };
    }

    @Override
    public void setAsciiStream(int index, InputStream x, int length) throws SQLException {
        setBinaryStream(index, x, (long) length);
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int index, InputStream x, int length) throws SQLException {
        throw Unsupported.method("PreparedStatement.setUnicodeStream");
    }

    @Override
    public void setBinaryStream(int index, InputStream x, int length) throws SQLException {
        setBinaryStream(index, x, (long) length);
    }

    @Override
    public void setAsciiStream(int index, InputStream x, long length) throws SQLException {
        setBinaryStream(index, x, length);
    }

    @Override
    public void setBinaryStream(int index, InputStream x, long length) throws SQLException {
        set(index, x == null ? null : bytes(x, length));
    }

    @Override
    public void setAsciiStream(int index, InputStream x) throws SQLException {
        setBinaryStream(index, x, -1L);
    }

    @Override
    public void setBinaryStream(int index, InputStream x) throws SQLException {
        setBinaryStream(index, x, -1L);
    }

    @Override
    public void setBlob(int index, InputStream x, long length) throws SQLException {
        setBinaryStream(index, x, length);
    }

    @Override
    public void setBlob(int index, InputStream x) throws SQLException {
        setBinaryStream(index, x, -1L);
    }

    @Override
    public void setBlob(int index, Blob x) throws SQLException {
        set(index, x == null ? null : x.getBytes(1, (int) x.length()));
    }

    @Override
    public void setCharacterStream(int index, Reader x, int length) throws SQLException {
        setCharacterStream(index, x, (long) length);
    }

    @Override
    public void setCharacterStream(int index, Reader x, long length) throws SQLException {
        set(index, x == null ? null : text(x, length));
    }

    @Override
    public void setCharacterStream(int index, Reader x) throws SQLException {
        setCharacterStream(index, x, -1L);
    }

    @Override
    public void setNCharacterStream(int index, Reader x, long length) throws SQLException {
        setCharacterStream(index, x, length);
    }

    @Override
    public void setNCharacterStream(int index, Reader x) throws SQLException {
        setCharacterStream(index, x, -1L);
    }

    @Override
    public void setClob(int index, Clob x) throws SQLException {
        set(index, x == null ? null : x.getSubString(1, (int) x.length()));
    }

    @Override
    public void setClob(int index, Reader x, long length) throws SQLException {
        setCharacterStream(index, x, length);
    }

    @Override
    public void setClob(int index, Reader x) throws SQLException {
        setCharacterStream(index, x, -1L);
    }

    @Override
    public void setNClob(int index, NClob x) throws SQLException {
        setClob(index, x);
    }

    @Override
    public void setNClob(int index, Reader x, long length) throws SQLException {
        setCharacterStream(index, x, length);
    }

    @Override
    public void setNClob(int index, Reader x) throws SQLException {
        setCharacterStream(index, x, -1L);
    }

    @Override
    public void setURL(int index, URL x) throws SQLException {
        set(index, x == null ? null : x.toString());
    }

    @Override
    public void setRef(int index, Ref x) throws SQLException {
        throw Unsupported.method("PreparedStatement.setRef");
    }

    @Override
    public void setArray(int index, Array x) throws SQLException {
        throw Unsupported.method("PreparedStatement.setArray");
    }

    @Override
    public void setRowId(int index, RowId x) throws SQLException {
        throw Unsupported.method("PreparedStatement.setRowId");
    }

    @Override
    public void setSQLXML(int index, SQLXML x) throws SQLException {
        throw Unsupported.method("PreparedStatement.setSQLXML");
    }

    private static byte[] bytes(InputStream in, long length) throws SQLException {
        try {
            return length < 0 ? in.readAllBytes() : in.readNBytes((int) Math.min(length, Integer.MAX_VALUE));
        } catch (IOException e) {
            throw new SQLException("cannot read the stream's bytes: " + e.getMessage(), "HY000", e);
        }
    }

    private static String text(Reader in, long length) throws SQLException {
        try {
            StringBuilder text = new StringBuilder();
            char[] buffer = new char[8192];
            long left = length < 0 ? Long.MAX_VALUE : length;
            int read;
            while (left > 0 && (read = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
                text.append(buffer, 0, read);
                left -= read;
            }
            return text.toString();
        } catch (IOException e) {
            throw new SQLException("cannot read the reader's text: " + e.getMessage(), "HY000", e);
        }
    }
}
