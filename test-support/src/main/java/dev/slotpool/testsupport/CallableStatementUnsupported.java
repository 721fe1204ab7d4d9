package dev.slotpool.testsupport;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The {@link CallableStatement} methods that only make sense with real stored procedures: OUT parameters
 * and parameters bound by name. The stub has no procedures, so {@link StubCallableStatement} inherits these
 * defaults, which all throw {@link java.sql.SQLFeatureNotSupportedException}; preparing, executing and
 * closing a call work like a prepared statement.
 */
interface CallableStatementUnsupported extends CallableStatement {

    default Array getArray(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Array getArray(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default BigDecimal getBigDecimal(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    @Deprecated
    default BigDecimal getBigDecimal(int parameterIndex, int scale) throws SQLException {
        throw StubErrors.unsupported();
    }

    default BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Blob getBlob(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Blob getBlob(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean getBoolean(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean getBoolean(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default byte getByte(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default byte getByte(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default byte[] getBytes(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default byte[] getBytes(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getCharacterStream(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getCharacterStream(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Clob getClob(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Clob getClob(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(String parameterName, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(int parameterIndex, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Date getDate(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default double getDouble(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default double getDouble(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default float getFloat(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default float getFloat(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default int getInt(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default int getInt(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default long getLong(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default long getLong(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getNCharacterStream(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Reader getNCharacterStream(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default NClob getNClob(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default NClob getNClob(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default String getNString(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default String getNString(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default <T> T getObject(String parameterName, Class<T> type) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Object getObject(String parameterName, Map<String, Class<?>> map) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Object getObject(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Object getObject(int parameterIndex, Map<String, Class<?>> map) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Object getObject(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Ref getRef(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Ref getRef(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default RowId getRowId(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default RowId getRowId(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default SQLXML getSQLXML(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default SQLXML getSQLXML(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default short getShort(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default short getShort(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default String getString(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default String getString(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(String parameterName, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(int parameterIndex, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Time getTime(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(String parameterName, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(int parameterIndex, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default Timestamp getTimestamp(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default URL getURL(String parameterName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default URL getURL(int parameterIndex) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void registerOutParameter(String parameterName, int sqlType, String typeName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void registerOutParameter(String parameterName, int sqlType, int scale) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void registerOutParameter(String parameterName, int sqlType) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void registerOutParameter(int parameterIndex, int sqlType, String typeName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void registerOutParameter(int parameterIndex, int sqlType, int scale) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setAsciiStream(String parameterName, InputStream x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setAsciiStream(String parameterName, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setAsciiStream(String parameterName, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBigDecimal(String parameterName, BigDecimal x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBinaryStream(String parameterName, InputStream x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBinaryStream(String parameterName, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBinaryStream(String parameterName, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBlob(String parameterName, InputStream x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBlob(String parameterName, InputStream x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBlob(String parameterName, Blob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBoolean(String parameterName, boolean x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setByte(String parameterName, byte x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setBytes(String parameterName, byte[] x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setCharacterStream(String parameterName, Reader x, int length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setCharacterStream(String parameterName, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setCharacterStream(String parameterName, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setClob(String parameterName, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setClob(String parameterName, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setClob(String parameterName, Clob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setDate(String parameterName, Date x, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setDate(String parameterName, Date x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setDouble(String parameterName, double x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setFloat(String parameterName, float x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setInt(String parameterName, int x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setLong(String parameterName, long x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNCharacterStream(String parameterName, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNCharacterStream(String parameterName, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNClob(String parameterName, Reader x, long length) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNClob(String parameterName, Reader x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNClob(String parameterName, NClob x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNString(String parameterName, String x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNull(String parameterName, int sqlType, String typeName) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setNull(String parameterName, int sqlType) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setObject(String parameterName, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setObject(String parameterName, Object x, int targetSqlType) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setObject(String parameterName, Object x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setRowId(String parameterName, RowId x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setSQLXML(String parameterName, SQLXML x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setShort(String parameterName, short x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setString(String parameterName, String x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setTime(String parameterName, Time x, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setTime(String parameterName, Time x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setTimestamp(String parameterName, Timestamp x, Calendar cal) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setTimestamp(String parameterName, Timestamp x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default void setURL(String parameterName, URL x) throws SQLException {
        throw StubErrors.unsupported();
    }

    default boolean wasNull() throws SQLException {
        throw StubErrors.unsupported();
    }
}
