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
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * A thin proxy of a driver's {@link ResultSet}: {@link #getStatement()} answers the proxy statement (or
 * {@code null} for a metadata result set) instead of the driver's, and fatal errors evict the connection.
 *
 * <p>Moving the cursor records activity, so a holder streaming a long result is not taken for abandoned;
 * reading columns does not, to keep the per-value path to one owner check. Once its statement (or, for
 * metadata, its connection) is closed, calls go to the closed sentinel, so a result set kept past the return
 * cannot read from a connection lent to someone else (S1).
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 */
final class ProxyResultSet implements ResultSet {

    private final ProxyConnection connection;
    /** The proxy statement that produced this result set, or {@code null} for one from {@code DatabaseMetaData}. */
    private final AbstractProxyStatement<?> statement;
    private final ResultSet delegate;

    ProxyResultSet(ProxyConnection connection, AbstractProxyStatement<?> statement, ResultSet delegate) {
        this.connection = connection;
        this.statement = statement;
        this.delegate = delegate;
    }

    /** The driver's result set while its owner is open, else the sentinel: the owner's state is the truth. */
    private ResultSet live() {
        boolean open = statement != null ? statement.isOpen() : connection.open();
        return open ? delegate : ClosedSentinel.RESULT_SET;
    }

    /** As {@link #live()}, for moving the cursor or writing rows: activity for the abandoned timer. A metadata
     * result may fetch its rows as the cursor moves, which with auto-commit off may open a transaction (a
     * statement's result is fetched inside the transaction its execution opened). */
    private ResultSet active() throws SQLException {
        ResultSet rs = live();
        if (rs == ClosedSentinel.RESULT_SET) {
            return rs;
        }
        boolean open = statement != null ? connection.enter() : connection.enterReaching();
        return open ? rs : ClosedSentinel.RESULT_SET;
    }

    /** As {@link #active()}, for writing rows: with auto-commit off that may open a transaction. */
    private ResultSet running() throws SQLException {
        ResultSet rs = active();
        if (rs != ClosedSentinel.RESULT_SET) {
            connection.ranSql();
        }
        return rs;
    }

    @Override
    public Statement getStatement() throws SQLException {
        if (live() == ClosedSentinel.RESULT_SET) {
            throw ClosedSentinel.resultSetClosed();
        }
        return statement;
    }

    @Override
    public boolean isClosed() throws SQLException {
        ResultSet rs = live();
        try {
            return rs == ClosedSentinel.RESULT_SET || rs.isClosed();
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    /** Idempotent; after its owner closed there is nothing left to close. */
    @Override
    public void close() throws SQLException {
        ResultSet rs = live();
        if (rs != ClosedSentinel.RESULT_SET) {
            try {
                rs.close();
            } catch (SQLException e) {
                throw connection.failed(e);
            }
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        ResultSet rs = live();
        if (rs != ClosedSentinel.RESULT_SET && iface.isInstance(this)) {
            return iface.cast(this);
        }
        try {
            T unwrapped = rs.unwrap(iface);
            connection.driverInHand();
            return unwrapped;
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        ResultSet rs = live();
        if (rs != ClosedSentinel.RESULT_SET && iface.isInstance(this)) {
            return true;
        }
        try {
            return rs.isWrapperFor(iface);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public boolean next() throws SQLException {
        try { return active().next(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean wasNull() throws SQLException {
        try { return live().wasNull(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        try { return live().getString(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        try { return live().getBoolean(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        try { return live().getByte(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        try { return live().getShort(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        try { return live().getInt(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        try { return live().getLong(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        try { return live().getFloat(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        try { return live().getDouble(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        try { return live().getBigDecimal(columnIndex, scale); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        try { return live().getBytes(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Date getDate(int columnIndex) throws SQLException {
        try { return live().getDate(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Time getTime(int columnIndex) throws SQLException {
        try { return live().getTime(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(int columnIndex) throws SQLException {
        try { return live().getTimestamp(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        try { return live().getAsciiStream(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Deprecated
    @Override
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        try { return live().getUnicodeStream(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        try { return live().getBinaryStream(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        try { return live().getString(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        try { return live().getBoolean(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        try { return live().getByte(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        try { return live().getShort(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        try { return live().getInt(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        try { return live().getLong(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        try { return live().getFloat(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        try { return live().getDouble(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        try { return live().getBigDecimal(columnLabel, scale); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        try { return live().getBytes(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Date getDate(String columnLabel) throws SQLException {
        try { return live().getDate(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Time getTime(String columnLabel) throws SQLException {
        try { return live().getTime(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(String columnLabel) throws SQLException {
        try { return live().getTimestamp(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        try { return live().getAsciiStream(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Deprecated
    @Override
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        try { return live().getUnicodeStream(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        try { return live().getBinaryStream(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        try { return live().getWarnings(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void clearWarnings() throws SQLException {
        try { live().clearWarnings(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getCursorName() throws SQLException {
        try { return live().getCursorName(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        try { return live().getMetaData(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        try { return live().getObject(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        try { return live().getObject(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        try { return live().findColumn(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        try { return live().getCharacterStream(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        try { return live().getCharacterStream(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        try { return live().getBigDecimal(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        try { return live().getBigDecimal(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        try { return live().isBeforeFirst(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        try { return live().isAfterLast(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean isFirst() throws SQLException {
        try { return live().isFirst(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean isLast() throws SQLException {
        try { return live().isLast(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void beforeFirst() throws SQLException {
        try { active().beforeFirst(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void afterLast() throws SQLException {
        try { active().afterLast(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean first() throws SQLException {
        try { return active().first(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean last() throws SQLException {
        try { return active().last(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getRow() throws SQLException {
        try { return live().getRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        try { return active().absolute(row); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        try { return active().relative(rows); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean previous() throws SQLException {
        try { return active().previous(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        try { live().setFetchDirection(direction); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        try { return live().getFetchDirection(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        try { live().setFetchSize(rows); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getFetchSize() throws SQLException {
        try { return live().getFetchSize(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getType() throws SQLException {
        try { return live().getType(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getConcurrency() throws SQLException {
        try { return live().getConcurrency(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean rowUpdated() throws SQLException {
        try { return live().rowUpdated(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean rowInserted() throws SQLException {
        try { return live().rowInserted(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        try { return live().rowDeleted(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNull(int columnIndex) throws SQLException {
        try { live().updateNull(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBoolean(int columnIndex, boolean x) throws SQLException {
        try { live().updateBoolean(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateByte(int columnIndex, byte x) throws SQLException {
        try { live().updateByte(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateShort(int columnIndex, short x) throws SQLException {
        try { live().updateShort(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateInt(int columnIndex, int x) throws SQLException {
        try { live().updateInt(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateLong(int columnIndex, long x) throws SQLException {
        try { live().updateLong(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateFloat(int columnIndex, float x) throws SQLException {
        try { live().updateFloat(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateDouble(int columnIndex, double x) throws SQLException {
        try { live().updateDouble(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        try { live().updateBigDecimal(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateString(int columnIndex, String x) throws SQLException {
        try { live().updateString(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBytes(int columnIndex, byte[] x) throws SQLException {
        try { live().updateBytes(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateDate(int columnIndex, java.sql.Date x) throws SQLException {
        try { live().updateDate(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateTime(int columnIndex, java.sql.Time x) throws SQLException {
        try { live().updateTime(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateTimestamp(int columnIndex, java.sql.Timestamp x) throws SQLException {
        try { live().updateTimestamp(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
        try { live().updateAsciiStream(columnIndex, x, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
        try {
            live().updateBinaryStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
        try {
            live().updateCharacterStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
        try {
            live().updateObject(columnIndex, x, scaleOrLength);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(int columnIndex, Object x) throws SQLException {
        try { live().updateObject(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNull(String columnLabel) throws SQLException {
        try { live().updateNull(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBoolean(String columnLabel, boolean x) throws SQLException {
        try { live().updateBoolean(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateByte(String columnLabel, byte x) throws SQLException {
        try { live().updateByte(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateShort(String columnLabel, short x) throws SQLException {
        try { live().updateShort(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateInt(String columnLabel, int x) throws SQLException {
        try { live().updateInt(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateLong(String columnLabel, long x) throws SQLException {
        try { live().updateLong(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateFloat(String columnLabel, float x) throws SQLException {
        try { live().updateFloat(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateDouble(String columnLabel, double x) throws SQLException {
        try { live().updateDouble(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        try { live().updateBigDecimal(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateString(String columnLabel, String x) throws SQLException {
        try { live().updateString(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBytes(String columnLabel, byte[] x) throws SQLException {
        try { live().updateBytes(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateDate(String columnLabel, java.sql.Date x) throws SQLException {
        try { live().updateDate(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateTime(String columnLabel, java.sql.Time x) throws SQLException {
        try { live().updateTime(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateTimestamp(String columnLabel, java.sql.Timestamp x) throws SQLException {
        try { live().updateTimestamp(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException {
        try { live().updateAsciiStream(columnLabel, x, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException {
        try {
            live().updateBinaryStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader reader, int length) throws SQLException {
        try {
            live().updateCharacterStream(columnLabel, reader, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
        try {
            live().updateObject(columnLabel, x, scaleOrLength);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x) throws SQLException {
        try { live().updateObject(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void insertRow() throws SQLException {
        try { running().insertRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateRow() throws SQLException {
        try { running().updateRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void deleteRow() throws SQLException {
        try { running().deleteRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void refreshRow() throws SQLException {
        try { active().refreshRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        try { live().cancelRowUpdates(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        try { live().moveToInsertRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        try { live().moveToCurrentRow(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        try { return live().getObject(columnIndex, map); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        try { return live().getRef(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        try { return live().getBlob(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        try { return live().getClob(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        try { return live().getArray(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        try { return live().getObject(columnLabel, map); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        try { return live().getRef(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        try { return live().getBlob(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        try { return live().getClob(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        try { return live().getArray(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Date getDate(int columnIndex, Calendar cal) throws SQLException {
        try { return live().getDate(columnIndex, cal); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Date getDate(String columnLabel, Calendar cal) throws SQLException {
        try { return live().getDate(columnLabel, cal); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Time getTime(int columnIndex, Calendar cal) throws SQLException {
        try { return live().getTime(columnIndex, cal); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Time getTime(String columnLabel, Calendar cal) throws SQLException {
        try { return live().getTime(columnLabel, cal); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        try { return live().getTimestamp(columnIndex, cal); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public java.sql.Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        try { return live().getTimestamp(columnLabel, cal); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        try { return live().getURL(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        try { return live().getURL(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateRef(int columnIndex, java.sql.Ref x) throws SQLException {
        try { live().updateRef(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateRef(String columnLabel, java.sql.Ref x) throws SQLException {
        try { live().updateRef(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBlob(int columnIndex, java.sql.Blob x) throws SQLException {
        try { live().updateBlob(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBlob(String columnLabel, java.sql.Blob x) throws SQLException {
        try { live().updateBlob(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateClob(int columnIndex, java.sql.Clob x) throws SQLException {
        try { live().updateClob(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateClob(String columnLabel, java.sql.Clob x) throws SQLException {
        try { live().updateClob(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateArray(int columnIndex, java.sql.Array x) throws SQLException {
        try { live().updateArray(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateArray(String columnLabel, java.sql.Array x) throws SQLException {
        try { live().updateArray(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        try { return live().getRowId(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        try { return live().getRowId(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateRowId(int columnIndex, RowId x) throws SQLException {
        try { live().updateRowId(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateRowId(String columnLabel, RowId x) throws SQLException {
        try { live().updateRowId(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public int getHoldability() throws SQLException {
        try { return live().getHoldability(); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNString(int columnIndex, String nString) throws SQLException {
        try { live().updateNString(columnIndex, nString); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNString(String columnLabel, String nString) throws SQLException {
        try { live().updateNString(columnLabel, nString); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNClob(int columnIndex, NClob nClob) throws SQLException {
        try { live().updateNClob(columnIndex, nClob); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNClob(String columnLabel, NClob nClob) throws SQLException {
        try { live().updateNClob(columnLabel, nClob); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        try { return live().getNClob(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        try { return live().getNClob(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        try { return live().getSQLXML(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        try { return live().getSQLXML(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateSQLXML(int columnIndex, SQLXML xmlObject) throws SQLException {
        try { live().updateSQLXML(columnIndex, xmlObject); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateSQLXML(String columnLabel, SQLXML xmlObject) throws SQLException {
        try { live().updateSQLXML(columnLabel, xmlObject); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        try { return live().getNString(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        try { return live().getNString(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        try { return live().getNCharacterStream(columnIndex); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        try { return live().getNCharacterStream(columnLabel); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        try {
            live().updateNCharacterStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader reader, long length) throws SQLException {
        try {
            live().updateNCharacterStream(columnLabel, reader, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
        try { live().updateAsciiStream(columnIndex, x, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException {
        try {
            live().updateBinaryStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        try {
            live().updateCharacterStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException {
        try { live().updateAsciiStream(columnLabel, x, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException {
        try {
            live().updateBinaryStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader reader, long length) throws SQLException {
        try {
            live().updateCharacterStream(columnLabel, reader, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateBlob(int columnIndex, InputStream inputStream, long length) throws SQLException {
        try {
            live().updateBlob(columnIndex, inputStream, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateBlob(String columnLabel, InputStream inputStream, long length) throws SQLException {
        try {
            live().updateBlob(columnLabel, inputStream, length);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateClob(int columnIndex, Reader reader, long length) throws SQLException {
        try { live().updateClob(columnIndex, reader, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateClob(String columnLabel, Reader reader, long length) throws SQLException {
        try { live().updateClob(columnLabel, reader, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNClob(int columnIndex, Reader reader, long length) throws SQLException {
        try { live().updateNClob(columnIndex, reader, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNClob(String columnLabel, Reader reader, long length) throws SQLException {
        try { live().updateNClob(columnLabel, reader, length); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        try { live().updateNCharacterStream(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader reader) throws SQLException {
        try {
            live().updateNCharacterStream(columnLabel, reader);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        try { live().updateAsciiStream(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        try { live().updateBinaryStream(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        try { live().updateCharacterStream(columnIndex, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        try { live().updateAsciiStream(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        try { live().updateBinaryStream(columnLabel, x); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader reader) throws SQLException {
        try {
            live().updateCharacterStream(columnLabel, reader);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateBlob(int columnIndex, InputStream inputStream) throws SQLException {
        try { live().updateBlob(columnIndex, inputStream); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateBlob(String columnLabel, InputStream inputStream) throws SQLException {
        try { live().updateBlob(columnLabel, inputStream); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateClob(int columnIndex, Reader reader) throws SQLException {
        try { live().updateClob(columnIndex, reader); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateClob(String columnLabel, Reader reader) throws SQLException {
        try { live().updateClob(columnLabel, reader); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNClob(int columnIndex, Reader reader) throws SQLException {
        try { live().updateNClob(columnIndex, reader); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateNClob(String columnLabel, Reader reader) throws SQLException {
        try { live().updateNClob(columnLabel, reader); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        try { return live().getObject(columnIndex, type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        try { return live().getObject(columnLabel, type); } catch (SQLException e) { throw connection.failed(e); }
    }

    @Override
    public void updateObject(int columnIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        try {
            live().updateObject(columnIndex, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        try {
            live().updateObject(columnLabel, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(int columnIndex, Object x, SQLType targetSqlType) throws SQLException {
        try {
            live().updateObject(columnIndex, x, targetSqlType);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x, SQLType targetSqlType) throws SQLException {
        try {
            live().updateObject(columnLabel, x, targetSqlType);
        } catch (SQLException e) {
            throw connection.failed(e);
        }
    }
}
