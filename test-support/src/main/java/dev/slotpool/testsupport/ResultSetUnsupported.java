package dev.slotpool.testsupport;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The parts of {@link ResultSet} a forward-only, read-only, one-row result of one integer column cannot
 * honour: scrolling, updates, metadata, and conversions to date, stream, LOB and other non-numeric types.
 * Kept apart so {@link StubResultSet} shows only what it really does; every method here throws
 * {@link java.sql.SQLFeatureNotSupportedException}.
 */
interface ResultSetUnsupported extends ResultSet {

    default boolean absolute(int row) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void afterLast() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void beforeFirst() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void cancelRowUpdates() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void deleteRow() throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean first() throws SQLException {
        throw StubErrors.unsupported();
    }

    default Array getArray(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Array getArray(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default InputStream getAsciiStream(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default InputStream getAsciiStream(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default InputStream getBinaryStream(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default InputStream getBinaryStream(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Blob getBlob(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Blob getBlob(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default byte[] getBytes(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default byte[] getBytes(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getCharacterStream(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getCharacterStream(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Clob getClob(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Clob getClob(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default String getCursorName() throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(String columnLabel, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(int columnIndex, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default ResultSetMetaData getMetaData() throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getNCharacterStream(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getNCharacterStream(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default NClob getNClob(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default NClob getNClob(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Ref getRef(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Ref getRef(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default RowId getRowId(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default RowId getRowId(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default SQLXML getSQLXML(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(String columnLabel, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(int columnIndex, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default URL getURL(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default URL getURL(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    @Deprecated
    default InputStream getUnicodeStream(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    @Deprecated
    default InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void insertRow() throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean last() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void moveToCurrentRow() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void moveToInsertRow() throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean previous() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void refreshRow() throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean relative(int rows) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateArray(String columnLabel, Array x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateArray(int columnIndex, Array x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBlob(String columnLabel, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBlob(String columnLabel, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBlob(String columnLabel, Blob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBlob(int columnIndex, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBlob(int columnIndex, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBlob(int columnIndex, Blob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBoolean(String columnLabel, boolean x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBoolean(int columnIndex, boolean x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateByte(String columnLabel, byte x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateByte(int columnIndex, byte x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBytes(String columnLabel, byte[] x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateBytes(int columnIndex, byte[] x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateCharacterStream(String columnLabel, Reader x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateCharacterStream(String columnLabel, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateClob(String columnLabel, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateClob(String columnLabel, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateClob(String columnLabel, Clob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateClob(int columnIndex, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateClob(int columnIndex, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateClob(int columnIndex, Clob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateDate(String columnLabel, Date x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateDate(int columnIndex, Date x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateDouble(String columnLabel, double x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateDouble(int columnIndex, double x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateFloat(String columnLabel, float x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateFloat(int columnIndex, float x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateInt(String columnLabel, int x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateInt(int columnIndex, int x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateLong(String columnLabel, long x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateLong(int columnIndex, long x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNCharacterStream(String columnLabel, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNClob(String columnLabel, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNClob(String columnLabel, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNClob(String columnLabel, NClob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNClob(int columnIndex, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNClob(int columnIndex, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNClob(int columnIndex, NClob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNString(String columnLabel, String x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNString(int columnIndex, String x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNull(String columnLabel) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateNull(int columnIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateObject(String columnLabel, Object x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateObject(int columnIndex, Object x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateRef(String columnLabel, Ref x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateRef(int columnIndex, Ref x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateRow() throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateRowId(String columnLabel, RowId x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateRowId(int columnIndex, RowId x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateSQLXML(String columnLabel, SQLXML x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateSQLXML(int columnIndex, SQLXML x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateShort(String columnLabel, short x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateShort(int columnIndex, short x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateString(String columnLabel, String x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateString(int columnIndex, String x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateTime(String columnLabel, Time x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateTime(int columnIndex, Time x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
        throw StubErrors.unsupported();
    }
}
