package dev.slotpool.jdbc;

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
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The proxy of a {@link CallableStatement}: the prepared statement's delegation plus out parameters.
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 */
final class ProxyCallableStatement extends ProxyPreparedStatement<CallableStatement> implements CallableStatement {

    ProxyCallableStatement(ProxyConnection connection, CallableStatement delegate) {
        super(connection, delegate, null);
    }

    /** A proxy of a statement from the connection's cache; {@code cached} is its entry there. */
    ProxyCallableStatement(ProxyConnection connection, CallableStatement delegate, CachedStatement cached) {
        super(connection, delegate, cached);
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
        try { live().registerOutParameter(parameterIndex, sqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType, int scale) throws SQLException {
        try { live().registerOutParameter(parameterIndex, sqlType, scale); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean wasNull() throws SQLException {
        try { return live().wasNull(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String getString(int parameterIndex) throws SQLException {
        try { return live().getString(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean getBoolean(int parameterIndex) throws SQLException {
        try { return live().getBoolean(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public byte getByte(int parameterIndex) throws SQLException {
        try { return live().getByte(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public short getShort(int parameterIndex) throws SQLException {
        try { return live().getShort(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getInt(int parameterIndex) throws SQLException {
        try { return live().getInt(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long getLong(int parameterIndex) throws SQLException {
        try { return live().getLong(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public float getFloat(int parameterIndex) throws SQLException {
        try { return live().getFloat(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public double getDouble(int parameterIndex) throws SQLException {
        try { return live().getDouble(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(int parameterIndex, int scale) throws SQLException {
        try { return live().getBigDecimal(parameterIndex, scale); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public byte[] getBytes(int parameterIndex) throws SQLException {
        try { return live().getBytes(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Date getDate(int parameterIndex) throws SQLException {
        try { return live().getDate(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Time getTime(int parameterIndex) throws SQLException {
        try { return live().getTime(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(int parameterIndex) throws SQLException {
        try { return live().getTimestamp(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Object getObject(int parameterIndex) throws SQLException {
        try { return live().getObject(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
        try { return live().getBigDecimal(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Object getObject(int parameterIndex, Map<String, Class<?>> map) throws SQLException {
        try { return live().getObject(parameterIndex, map); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Ref getRef(int parameterIndex) throws SQLException {
        try { return live().getRef(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Blob getBlob(int parameterIndex) throws SQLException {
        try { return live().getBlob(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Clob getClob(int parameterIndex) throws SQLException {
        try { return live().getClob(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Array getArray(int parameterIndex) throws SQLException {
        try { return live().getArray(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Date getDate(int parameterIndex, Calendar cal) throws SQLException {
        try { return live().getDate(parameterIndex, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Time getTime(int parameterIndex, Calendar cal) throws SQLException {
        try { return live().getTime(parameterIndex, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(int parameterIndex, Calendar cal) throws SQLException {
        try { return live().getTimestamp(parameterIndex, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType, String typeName) throws SQLException {
        try {
            live().registerOutParameter(parameterIndex, sqlType, typeName);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void registerOutParameter(String parameterName, int sqlType) throws SQLException {
        try { live().registerOutParameter(parameterName, sqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(String parameterName, int sqlType, int scale) throws SQLException {
        try { live().registerOutParameter(parameterName, sqlType, scale); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(String parameterName, int sqlType, String typeName) throws SQLException {
        try {
            live().registerOutParameter(parameterName, sqlType, typeName);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public URL getURL(int parameterIndex) throws SQLException {
        try { return live().getURL(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setURL(String parameterName, URL val) throws SQLException {
        try { live().setURL(parameterName, val); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNull(String parameterName, int sqlType) throws SQLException {
        try { live().setNull(parameterName, sqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBoolean(String parameterName, boolean x) throws SQLException {
        try { live().setBoolean(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setByte(String parameterName, byte x) throws SQLException {
        try { live().setByte(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setShort(String parameterName, short x) throws SQLException {
        try { live().setShort(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setInt(String parameterName, int x) throws SQLException {
        try { live().setInt(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setLong(String parameterName, long x) throws SQLException {
        try { live().setLong(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setFloat(String parameterName, float x) throws SQLException {
        try { live().setFloat(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setDouble(String parameterName, double x) throws SQLException {
        try { live().setDouble(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBigDecimal(String parameterName, BigDecimal x) throws SQLException {
        try { live().setBigDecimal(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setString(String parameterName, String x) throws SQLException {
        try { live().setString(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBytes(String parameterName, byte[] x) throws SQLException {
        try { live().setBytes(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setDate(String parameterName, java.sql.Date x) throws SQLException {
        try { live().setDate(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTime(String parameterName, java.sql.Time x) throws SQLException {
        try { live().setTime(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTimestamp(String parameterName, java.sql.Timestamp x) throws SQLException {
        try { live().setTimestamp(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream x, int length) throws SQLException {
        try { live().setAsciiStream(parameterName, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream x, int length) throws SQLException {
        try { live().setBinaryStream(parameterName, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(String parameterName, Object x, int targetSqlType, int scale) throws SQLException {
        try { live().setObject(parameterName, x, targetSqlType, scale); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(String parameterName, Object x, int targetSqlType) throws SQLException {
        try { live().setObject(parameterName, x, targetSqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(String parameterName, Object x) throws SQLException {
        try { live().setObject(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setCharacterStream(String parameterName, Reader reader, int length) throws SQLException {
        try { live().setCharacterStream(parameterName, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setDate(String parameterName, java.sql.Date x, Calendar cal) throws SQLException {
        try { live().setDate(parameterName, x, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTime(String parameterName, java.sql.Time x, Calendar cal) throws SQLException {
        try { live().setTime(parameterName, x, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTimestamp(String parameterName, java.sql.Timestamp x, Calendar cal) throws SQLException {
        try { live().setTimestamp(parameterName, x, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNull(String parameterName, int sqlType, String typeName) throws SQLException {
        try { live().setNull(parameterName, sqlType, typeName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String getString(String parameterName) throws SQLException {
        try { return live().getString(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean getBoolean(String parameterName) throws SQLException {
        try { return live().getBoolean(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public byte getByte(String parameterName) throws SQLException {
        try { return live().getByte(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public short getShort(String parameterName) throws SQLException {
        try { return live().getShort(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int getInt(String parameterName) throws SQLException {
        try { return live().getInt(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long getLong(String parameterName) throws SQLException {
        try { return live().getLong(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public float getFloat(String parameterName) throws SQLException {
        try { return live().getFloat(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public double getDouble(String parameterName) throws SQLException {
        try { return live().getDouble(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public byte[] getBytes(String parameterName) throws SQLException {
        try { return live().getBytes(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Date getDate(String parameterName) throws SQLException {
        try { return live().getDate(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Time getTime(String parameterName) throws SQLException {
        try { return live().getTime(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(String parameterName) throws SQLException {
        try { return live().getTimestamp(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Object getObject(String parameterName) throws SQLException {
        try { return live().getObject(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public BigDecimal getBigDecimal(String parameterName) throws SQLException {
        try { return live().getBigDecimal(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Object getObject(String parameterName, Map<String, Class<?>> map) throws SQLException {
        try { return live().getObject(parameterName, map); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Ref getRef(String parameterName) throws SQLException {
        try { return live().getRef(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Blob getBlob(String parameterName) throws SQLException {
        try { return live().getBlob(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Clob getClob(String parameterName) throws SQLException {
        try { return live().getClob(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Array getArray(String parameterName) throws SQLException {
        try { return live().getArray(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Date getDate(String parameterName, Calendar cal) throws SQLException {
        try { return live().getDate(parameterName, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Time getTime(String parameterName, Calendar cal) throws SQLException {
        try { return live().getTime(parameterName, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(String parameterName, Calendar cal) throws SQLException {
        try { return live().getTimestamp(parameterName, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public URL getURL(String parameterName) throws SQLException {
        try { return live().getURL(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public RowId getRowId(int parameterIndex) throws SQLException {
        try { return live().getRowId(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public RowId getRowId(String parameterName) throws SQLException {
        try { return live().getRowId(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setRowId(String parameterName, RowId x) throws SQLException {
        try { live().setRowId(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNString(String parameterName, String value) throws SQLException {
        try { live().setNString(parameterName, value); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNCharacterStream(String parameterName, Reader value, long length) throws SQLException {
        try { live().setNCharacterStream(parameterName, value, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNClob(String parameterName, NClob value) throws SQLException {
        try { live().setNClob(parameterName, value); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setClob(String parameterName, Reader reader, long length) throws SQLException {
        try { live().setClob(parameterName, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBlob(String parameterName, InputStream inputStream, long length) throws SQLException {
        try { live().setBlob(parameterName, inputStream, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNClob(String parameterName, Reader reader, long length) throws SQLException {
        try { live().setNClob(parameterName, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public NClob getNClob(int parameterIndex) throws SQLException {
        try { return live().getNClob(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public NClob getNClob(String parameterName) throws SQLException {
        try { return live().getNClob(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setSQLXML(String parameterName, SQLXML xmlObject) throws SQLException {
        try { live().setSQLXML(parameterName, xmlObject); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public SQLXML getSQLXML(int parameterIndex) throws SQLException {
        try { return live().getSQLXML(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public SQLXML getSQLXML(String parameterName) throws SQLException {
        try { return live().getSQLXML(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String getNString(int parameterIndex) throws SQLException {
        try { return live().getNString(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public String getNString(String parameterName) throws SQLException {
        try { return live().getNString(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Reader getNCharacterStream(int parameterIndex) throws SQLException {
        try { return live().getNCharacterStream(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Reader getNCharacterStream(String parameterName) throws SQLException {
        try { return live().getNCharacterStream(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Reader getCharacterStream(int parameterIndex) throws SQLException {
        try { return live().getCharacterStream(parameterIndex); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public Reader getCharacterStream(String parameterName) throws SQLException {
        try { return live().getCharacterStream(parameterName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBlob(String parameterName, Blob x) throws SQLException {
        try { live().setBlob(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setClob(String parameterName, Clob x) throws SQLException {
        try { live().setClob(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream x, long length) throws SQLException {
        try { live().setAsciiStream(parameterName, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream x, long length) throws SQLException {
        try { live().setBinaryStream(parameterName, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setCharacterStream(String parameterName, Reader reader, long length) throws SQLException {
        try { live().setCharacterStream(parameterName, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream x) throws SQLException {
        try { live().setAsciiStream(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream x) throws SQLException {
        try { live().setBinaryStream(parameterName, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setCharacterStream(String parameterName, Reader reader) throws SQLException {
        try { live().setCharacterStream(parameterName, reader); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNCharacterStream(String parameterName, Reader value) throws SQLException {
        try { live().setNCharacterStream(parameterName, value); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setClob(String parameterName, Reader reader) throws SQLException {
        try { live().setClob(parameterName, reader); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBlob(String parameterName, InputStream inputStream) throws SQLException {
        try { live().setBlob(parameterName, inputStream); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNClob(String parameterName, Reader reader) throws SQLException {
        try { live().setNClob(parameterName, reader); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
        try { return live().getObject(parameterIndex, type); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public <T> T getObject(String parameterName, Class<T> type) throws SQLException {
        try { return live().getObject(parameterName, type); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(String parameterName, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        try {
            live().setObject(parameterName, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setObject(String parameterName, Object x, SQLType targetSqlType) throws SQLException {
        try { live().setObject(parameterName, x, targetSqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType) throws SQLException {
        try { live().registerOutParameter(parameterIndex, sqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType, int scale) throws SQLException {
        try { live().registerOutParameter(parameterIndex, sqlType, scale); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType, String typeName) throws SQLException {
        try {
            live().registerOutParameter(parameterIndex, sqlType, typeName);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType sqlType) throws SQLException {
        try { live().registerOutParameter(parameterName, sqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType sqlType, int scale) throws SQLException {
        try { live().registerOutParameter(parameterName, sqlType, scale); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType sqlType, String typeName) throws SQLException {
        try {
            live().registerOutParameter(parameterName, sqlType, typeName);
        } catch (SQLException e) {
            throw failed(e);
        }
    }
}
