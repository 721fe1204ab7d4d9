package dev.slotpool.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
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
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * The proxy of a {@link PreparedStatement}: {@link AbstractProxyStatement}'s delegation plus the parameter
 * setters. Generic so that {@link ProxyCallableStatement} inherits these methods on its callable delegate.
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 *
 * @param <S> the driver's statement type
 */
class ProxyPreparedStatement<S extends PreparedStatement> extends AbstractProxyStatement<S>
        implements PreparedStatement {

    ProxyPreparedStatement(ProxyConnection connection, S delegate) {
        super(connection, delegate, null);
    }

    /** A proxy of a statement from the connection's cache; {@code cached} is its entry there. */
    ProxyPreparedStatement(ProxyConnection connection, S delegate, CachedStatement cached) {
        super(connection, delegate, cached);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        try { return wrap(running().executeQuery()); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public int executeUpdate() throws SQLException {
        try { return running().executeUpdate(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        try { binding().setNull(parameterIndex, sqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        try { binding().setBoolean(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        try { binding().setByte(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        try { binding().setShort(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        try { binding().setInt(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        try { binding().setLong(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        try { binding().setFloat(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        try { binding().setDouble(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        try { binding().setBigDecimal(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        try { binding().setString(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        try { binding().setBytes(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setDate(int parameterIndex, java.sql.Date x) throws SQLException {
        try { binding().setDate(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTime(int parameterIndex, java.sql.Time x) throws SQLException {
        try { binding().setTime(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTimestamp(int parameterIndex, java.sql.Timestamp x) throws SQLException {
        try { binding().setTimestamp(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        try { binding().setAsciiStream(parameterIndex, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Deprecated
    @Override
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        try { binding().setUnicodeStream(parameterIndex, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        try { binding().setBinaryStream(parameterIndex, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void clearParameters() throws SQLException {
        try { live().clearParameters(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        try { binding().setObject(parameterIndex, x, targetSqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        try { binding().setObject(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public boolean execute() throws SQLException {
        try { return running().execute(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void addBatch() throws SQLException {
        try { batching().addBatch(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        try { binding().setCharacterStream(parameterIndex, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        try { binding().setRef(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        try { binding().setBlob(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        try { binding().setClob(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        try { binding().setArray(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        try { return active().getMetaData(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setDate(int parameterIndex, java.sql.Date x, Calendar cal) throws SQLException {
        try { binding().setDate(parameterIndex, x, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTime(int parameterIndex, java.sql.Time x, Calendar cal) throws SQLException {
        try { binding().setTime(parameterIndex, x, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setTimestamp(int parameterIndex, java.sql.Timestamp x, Calendar cal) throws SQLException {
        try { binding().setTimestamp(parameterIndex, x, cal); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        try { binding().setNull(parameterIndex, sqlType, typeName); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        try { binding().setURL(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        try { return active().getParameterMetaData(); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        try { binding().setRowId(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        try { binding().setNString(parameterIndex, value); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        try { binding().setNCharacterStream(parameterIndex, value, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        try { binding().setNClob(parameterIndex, value); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        try { binding().setClob(parameterIndex, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        try { binding().setBlob(parameterIndex, inputStream, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        try { binding().setNClob(parameterIndex, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        try { binding().setSQLXML(parameterIndex, xmlObject); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        try {
            binding().setObject(parameterIndex, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        try { binding().setAsciiStream(parameterIndex, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        try { binding().setBinaryStream(parameterIndex, x, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        try { binding().setCharacterStream(parameterIndex, reader, length); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        try { binding().setAsciiStream(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        try { binding().setBinaryStream(parameterIndex, x); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        try { binding().setCharacterStream(parameterIndex, reader); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        try { binding().setNCharacterStream(parameterIndex, value); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        try { binding().setClob(parameterIndex, reader); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        try { binding().setBlob(parameterIndex, inputStream); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        try { binding().setNClob(parameterIndex, reader); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        try {
            binding().setObject(parameterIndex, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        try { binding().setObject(parameterIndex, x, targetSqlType); } catch (SQLException e) { throw failed(e); }
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        try { return running().executeLargeUpdate(); } catch (SQLException e) { throw failed(e); }
    }
}
