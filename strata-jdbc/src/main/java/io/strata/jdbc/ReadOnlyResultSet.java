package io.strata.jdbc;

import java.sql.SQLException;

/**
 * What a forward-only, read-only result set refuses: changing rows, moving backwards or to a row by number, and
 * reading values as streams, LOBs or SQL objects that the kernel's rows do not hold. Each names itself in a
 * {@link java.sql.SQLFeatureNotSupportedException}, as JDBC asks.
 */
abstract class ReadOnlyResultSet implements java.sql.ResultSet {

    @Override
    public   java.io.InputStream getAsciiStream(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getAsciiStream(int)");
    }

    @Override
    public   java.io.InputStream getUnicodeStream(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getUnicodeStream(int)");
    }

    @Override
    public   java.io.InputStream getBinaryStream(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getBinaryStream(int)");
    }

    @Override
    public   java.io.InputStream getAsciiStream(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getAsciiStream(String)");
    }

    @Override
    public   java.io.InputStream getUnicodeStream(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getUnicodeStream(String)");
    }

    @Override
    public   java.io.InputStream getBinaryStream(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getBinaryStream(String)");
    }

    @Override
    public   java.io.Reader getCharacterStream(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getCharacterStream(int)");
    }

    @Override
    public   java.io.Reader getCharacterStream(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getCharacterStream(String)");
    }

    @Override
    public   void beforeFirst() throws SQLException {
        throw Unsupported.method("ResultSet.beforeFirst()");
    }

    @Override
    public   void afterLast() throws SQLException {
        throw Unsupported.method("ResultSet.afterLast()");
    }

    @Override
    public   boolean first() throws SQLException {
        throw Unsupported.method("ResultSet.first()");
    }

    @Override
    public   boolean last() throws SQLException {
        throw Unsupported.method("ResultSet.last()");
    }

    @Override
    public   boolean absolute(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.absolute(int)");
    }

    @Override
    public   boolean relative(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.relative(int)");
    }

    @Override
    public   boolean previous() throws SQLException {
        throw Unsupported.method("ResultSet.previous()");
    }

    @Override
    public   boolean rowUpdated() throws SQLException {
        throw Unsupported.method("ResultSet.rowUpdated()");
    }

    @Override
    public   boolean rowInserted() throws SQLException {
        throw Unsupported.method("ResultSet.rowInserted()");
    }

    @Override
    public   boolean rowDeleted() throws SQLException {
        throw Unsupported.method("ResultSet.rowDeleted()");
    }

    @Override
    public   void updateNull(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.updateNull(int)");
    }

    @Override
    public   void updateBoolean(int arg0, boolean arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBoolean(int, boolean)");
    }

    @Override
    public   void updateByte(int arg0, byte arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateByte(int, byte)");
    }

    @Override
    public   void updateShort(int arg0, short arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateShort(int, short)");
    }

    @Override
    public   void updateInt(int arg0, int arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateInt(int, int)");
    }

    @Override
    public   void updateLong(int arg0, long arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateLong(int, long)");
    }

    @Override
    public   void updateFloat(int arg0, float arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateFloat(int, float)");
    }

    @Override
    public   void updateDouble(int arg0, double arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateDouble(int, double)");
    }

    @Override
    public   void updateBigDecimal(int arg0, java.math.BigDecimal arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBigDecimal(int, BigDecimal)");
    }

    @Override
    public   void updateString(int arg0, java.lang.String arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateString(int, String)");
    }

    @Override
    public   void updateBytes(int arg0, byte[] arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBytes(int, byte[])");
    }

    @Override
    public   void updateDate(int arg0, java.sql.Date arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateDate(int, Date)");
    }

    @Override
    public   void updateTime(int arg0, java.sql.Time arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateTime(int, Time)");
    }

    @Override
    public   void updateTimestamp(int arg0, java.sql.Timestamp arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateTimestamp(int, Timestamp)");
    }

    @Override
    public   void updateAsciiStream(int arg0, java.io.InputStream arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateAsciiStream(int, InputStream, int)");
    }

    @Override
    public   void updateBinaryStream(int arg0, java.io.InputStream arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateBinaryStream(int, InputStream, int)");
    }

    @Override
    public   void updateCharacterStream(int arg0, java.io.Reader arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateCharacterStream(int, Reader, int)");
    }

    @Override
    public   void updateObject(int arg0, java.lang.Object arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateObject(int, Object, int)");
    }

    @Override
    public   void updateObject(int arg0, java.lang.Object arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateObject(int, Object)");
    }

    @Override
    public   void updateNull(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.updateNull(String)");
    }

    @Override
    public   void updateBoolean(java.lang.String arg0, boolean arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBoolean(String, boolean)");
    }

    @Override
    public   void updateByte(java.lang.String arg0, byte arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateByte(String, byte)");
    }

    @Override
    public   void updateShort(java.lang.String arg0, short arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateShort(String, short)");
    }

    @Override
    public   void updateInt(java.lang.String arg0, int arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateInt(String, int)");
    }

    @Override
    public   void updateLong(java.lang.String arg0, long arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateLong(String, long)");
    }

    @Override
    public   void updateFloat(java.lang.String arg0, float arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateFloat(String, float)");
    }

    @Override
    public   void updateDouble(java.lang.String arg0, double arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateDouble(String, double)");
    }

    @Override
    public   void updateBigDecimal(java.lang.String arg0, java.math.BigDecimal arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBigDecimal(String, BigDecimal)");
    }

    @Override
    public   void updateString(java.lang.String arg0, java.lang.String arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateString(String, String)");
    }

    @Override
    public   void updateBytes(java.lang.String arg0, byte[] arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBytes(String, byte[])");
    }

    @Override
    public   void updateDate(java.lang.String arg0, java.sql.Date arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateDate(String, Date)");
    }

    @Override
    public   void updateTime(java.lang.String arg0, java.sql.Time arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateTime(String, Time)");
    }

    @Override
    public   void updateTimestamp(java.lang.String arg0, java.sql.Timestamp arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateTimestamp(String, Timestamp)");
    }

    @Override
    public   void updateAsciiStream(java.lang.String arg0, java.io.InputStream arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateAsciiStream(String, InputStream, int)");
    }

    @Override
    public   void updateBinaryStream(java.lang.String arg0, java.io.InputStream arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateBinaryStream(String, InputStream, int)");
    }

    @Override
    public   void updateCharacterStream(java.lang.String arg0, java.io.Reader arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateCharacterStream(String, Reader, int)");
    }

    @Override
    public   void updateObject(java.lang.String arg0, java.lang.Object arg1, int arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateObject(String, Object, int)");
    }

    @Override
    public   void updateObject(java.lang.String arg0, java.lang.Object arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateObject(String, Object)");
    }

    @Override
    public   void insertRow() throws SQLException {
        throw Unsupported.method("ResultSet.insertRow()");
    }

    @Override
    public   void updateRow() throws SQLException {
        throw Unsupported.method("ResultSet.updateRow()");
    }

    @Override
    public   void deleteRow() throws SQLException {
        throw Unsupported.method("ResultSet.deleteRow()");
    }

    @Override
    public   void refreshRow() throws SQLException {
        throw Unsupported.method("ResultSet.refreshRow()");
    }

    @Override
    public   void cancelRowUpdates() throws SQLException {
        throw Unsupported.method("ResultSet.cancelRowUpdates()");
    }

    @Override
    public   void moveToInsertRow() throws SQLException {
        throw Unsupported.method("ResultSet.moveToInsertRow()");
    }

    @Override
    public   void moveToCurrentRow() throws SQLException {
        throw Unsupported.method("ResultSet.moveToCurrentRow()");
    }

    @Override
    public   java.sql.Ref getRef(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getRef(int)");
    }

    @Override
    public   java.sql.Blob getBlob(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getBlob(int)");
    }

    @Override
    public   java.sql.Clob getClob(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getClob(int)");
    }

    @Override
    public   java.sql.Array getArray(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getArray(int)");
    }

    @Override
    public   java.sql.Ref getRef(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getRef(String)");
    }

    @Override
    public   java.sql.Blob getBlob(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getBlob(String)");
    }

    @Override
    public   java.sql.Clob getClob(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getClob(String)");
    }

    @Override
    public   java.sql.Array getArray(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getArray(String)");
    }

    @Override
    public   java.net.URL getURL(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getURL(int)");
    }

    @Override
    public   java.net.URL getURL(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getURL(String)");
    }

    @Override
    public   void updateRef(int arg0, java.sql.Ref arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateRef(int, Ref)");
    }

    @Override
    public   void updateRef(java.lang.String arg0, java.sql.Ref arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateRef(String, Ref)");
    }

    @Override
    public   void updateBlob(int arg0, java.sql.Blob arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBlob(int, Blob)");
    }

    @Override
    public   void updateBlob(java.lang.String arg0, java.sql.Blob arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBlob(String, Blob)");
    }

    @Override
    public   void updateClob(int arg0, java.sql.Clob arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateClob(int, Clob)");
    }

    @Override
    public   void updateClob(java.lang.String arg0, java.sql.Clob arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateClob(String, Clob)");
    }

    @Override
    public   void updateArray(int arg0, java.sql.Array arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateArray(int, Array)");
    }

    @Override
    public   void updateArray(java.lang.String arg0, java.sql.Array arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateArray(String, Array)");
    }

    @Override
    public   java.sql.RowId getRowId(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getRowId(int)");
    }

    @Override
    public   java.sql.RowId getRowId(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getRowId(String)");
    }

    @Override
    public   void updateRowId(int arg0, java.sql.RowId arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateRowId(int, RowId)");
    }

    @Override
    public   void updateRowId(java.lang.String arg0, java.sql.RowId arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateRowId(String, RowId)");
    }

    @Override
    public   void updateNString(int arg0, java.lang.String arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNString(int, String)");
    }

    @Override
    public   void updateNString(java.lang.String arg0, java.lang.String arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNString(String, String)");
    }

    @Override
    public   void updateNClob(int arg0, java.sql.NClob arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNClob(int, NClob)");
    }

    @Override
    public   void updateNClob(java.lang.String arg0, java.sql.NClob arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNClob(String, NClob)");
    }

    @Override
    public   java.sql.NClob getNClob(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getNClob(int)");
    }

    @Override
    public   java.sql.NClob getNClob(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getNClob(String)");
    }

    @Override
    public   java.sql.SQLXML getSQLXML(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getSQLXML(int)");
    }

    @Override
    public   java.sql.SQLXML getSQLXML(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getSQLXML(String)");
    }

    @Override
    public   void updateSQLXML(int arg0, java.sql.SQLXML arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateSQLXML(int, SQLXML)");
    }

    @Override
    public   void updateSQLXML(java.lang.String arg0, java.sql.SQLXML arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateSQLXML(String, SQLXML)");
    }

    @Override
    public   java.io.Reader getNCharacterStream(int arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getNCharacterStream(int)");
    }

    @Override
    public   java.io.Reader getNCharacterStream(java.lang.String arg0) throws SQLException {
        throw Unsupported.method("ResultSet.getNCharacterStream(String)");
    }

    @Override
    public   void updateNCharacterStream(int arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateNCharacterStream(int, Reader, long)");
    }

    @Override
    public   void updateNCharacterStream(java.lang.String arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateNCharacterStream(String, Reader, long)");
    }

    @Override
    public   void updateAsciiStream(int arg0, java.io.InputStream arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateAsciiStream(int, InputStream, long)");
    }

    @Override
    public   void updateBinaryStream(int arg0, java.io.InputStream arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateBinaryStream(int, InputStream, long)");
    }

    @Override
    public   void updateCharacterStream(int arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateCharacterStream(int, Reader, long)");
    }

    @Override
    public   void updateAsciiStream(java.lang.String arg0, java.io.InputStream arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateAsciiStream(String, InputStream, long)");
    }

    @Override
    public   void updateBinaryStream(java.lang.String arg0, java.io.InputStream arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateBinaryStream(String, InputStream, long)");
    }

    @Override
    public   void updateCharacterStream(java.lang.String arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateCharacterStream(String, Reader, long)");
    }

    @Override
    public   void updateBlob(int arg0, java.io.InputStream arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateBlob(int, InputStream, long)");
    }

    @Override
    public   void updateBlob(java.lang.String arg0, java.io.InputStream arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateBlob(String, InputStream, long)");
    }

    @Override
    public   void updateClob(int arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateClob(int, Reader, long)");
    }

    @Override
    public   void updateClob(java.lang.String arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateClob(String, Reader, long)");
    }

    @Override
    public   void updateNClob(int arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateNClob(int, Reader, long)");
    }

    @Override
    public   void updateNClob(java.lang.String arg0, java.io.Reader arg1, long arg2) throws SQLException {
        throw Unsupported.method("ResultSet.updateNClob(String, Reader, long)");
    }

    @Override
    public   void updateNCharacterStream(int arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNCharacterStream(int, Reader)");
    }

    @Override
    public   void updateNCharacterStream(java.lang.String arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNCharacterStream(String, Reader)");
    }

    @Override
    public   void updateAsciiStream(int arg0, java.io.InputStream arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateAsciiStream(int, InputStream)");
    }

    @Override
    public   void updateBinaryStream(int arg0, java.io.InputStream arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBinaryStream(int, InputStream)");
    }

    @Override
    public   void updateCharacterStream(int arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateCharacterStream(int, Reader)");
    }

    @Override
    public   void updateAsciiStream(java.lang.String arg0, java.io.InputStream arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateAsciiStream(String, InputStream)");
    }

    @Override
    public   void updateBinaryStream(java.lang.String arg0, java.io.InputStream arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBinaryStream(String, InputStream)");
    }

    @Override
    public   void updateCharacterStream(java.lang.String arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateCharacterStream(String, Reader)");
    }

    @Override
    public   void updateBlob(int arg0, java.io.InputStream arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBlob(int, InputStream)");
    }

    @Override
    public   void updateBlob(java.lang.String arg0, java.io.InputStream arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateBlob(String, InputStream)");
    }

    @Override
    public   void updateClob(int arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateClob(int, Reader)");
    }

    @Override
    public   void updateClob(java.lang.String arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateClob(String, Reader)");
    }

    @Override
    public   void updateNClob(int arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNClob(int, Reader)");
    }

    @Override
    public   void updateNClob(java.lang.String arg0, java.io.Reader arg1) throws SQLException {
        throw Unsupported.method("ResultSet.updateNClob(String, Reader)");
    }
}
