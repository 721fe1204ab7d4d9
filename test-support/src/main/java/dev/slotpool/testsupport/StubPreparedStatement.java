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
import java.util.Calendar;

/**
 * A prepared statement: executions behave as in {@link StubStatement}; parameters are checked (statement
 * open, index at least 1) and then ignored, because no SQL is ever run. Poolable by default, as JDBC
 * specifies, so pools with statement caches cache it.
 */
public class StubPreparedStatement extends StubStatement implements PreparedStatement {

    private final String sql;

    StubPreparedStatement(StubConnection connection, int holdability, String sql) {
        super(connection, holdability, true);
        this.sql = sql;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        return runQuery(sql);
    }

    @Override
    public int executeUpdate() throws SQLException {
        return runUpdate();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return runUpdate();
    }

    @Override
    public boolean execute() throws SQLException {
        return runExecute(sql);
    }

    @Override
    public void addBatch() throws SQLException {
        addToBatch();
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        throw StubErrors.unsupported();
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        throw StubErrors.unsupported();
    }

    private void bind(int parameterIndex) throws SQLException {
        checkOpen();
        if (parameterIndex < 1) {
            throw new SQLException("parameter index out of range: " + parameterIndex, "07009");
        }
    }

    // ---- parameter setters: checked, then ignored ----------------------------------------------------

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader x, int length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setClob(int parameterIndex, Reader x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setClob(int parameterIndex, Reader x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNClob(int parameterIndex, Reader x, long length) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNClob(int parameterIndex, Reader x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNClob(int parameterIndex, NClob x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNString(int parameterIndex, String x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        bind(parameterIndex);
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        bind(parameterIndex);
    }

    @Deprecated
    @Override
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        bind(parameterIndex);
    }
}
