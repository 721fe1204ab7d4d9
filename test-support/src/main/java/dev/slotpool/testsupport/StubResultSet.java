package dev.slotpool.testsupport;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * The result of every stub query: one row with the integer {@code 1} in its single column, as a
 * {@code SELECT 1} validation query returns. {@code next()} is true once; the column answers to index 1 and
 * to any label, and reads as any numeric type, boolean or string. Forward-only and read-only; what that
 * excludes lives in {@link ResultSetUnsupported}.
 */
public final class StubResultSet implements ResultSet, ResultSetUnsupported {

    private static final int BEFORE_FIRST = 0;
    private static final int ON_ROW = 1;
    private static final int AFTER_LAST = 2;
    private static final Integer VALUE = 1;

    private final StubStatement statement;
    private int position = BEFORE_FIRST;
    private boolean closed;
    private int fetchSize;

    StubResultSet(StubStatement statement) {
        this.statement = statement;
    }

    // ---- cursor --------------------------------------------------------------------------------------

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (position != AFTER_LAST) {
            position++;
        }
        return position == ON_ROW;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return position == BEFORE_FIRST;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return position == AFTER_LAST;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return position == ON_ROW;
    }

    @Override
    public boolean isLast() throws SQLException {
        return isFirst();
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return position == ON_ROW ? 1 : 0;
    }

    // ---- column values -------------------------------------------------------------------------------

    /** Checks that a row is current and the index names the only column. */
    private void column(int columnIndex) throws SQLException {
        checkOpen();
        if (position != ON_ROW) {
            throw new SQLException("no current row", "24000");
        }
        if (columnIndex != 1) {
            throw new SQLException("column index out of range: " + columnIndex, "07009");
        }
    }

    /** The single column answers to any label. */
    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        return 1;
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        column(columnIndex);
        return 1;
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return getInt(columnIndex);
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return (short) getInt(columnIndex);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return (byte) getInt(columnIndex);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        return getInt(columnIndex);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return getInt(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        return getInt(columnIndex) != 0;
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        column(columnIndex);
        return BigDecimal.ONE;
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        return getBigDecimal(columnIndex).setScale(scale);
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        column(columnIndex);
        return "1";
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        column(columnIndex);
        return VALUE;
    }

    /** Converts to Integer, Long, Short, Byte, Double, Float, BigDecimal, Boolean, String or Object. */
    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        column(columnIndex);
        Object value;
        if (type == Integer.class || type == Object.class || type == Number.class) {
            value = VALUE;
        } else if (type == Long.class) {
            value = 1L;
        } else if (type == Short.class) {
            value = (short) 1;
        } else if (type == Byte.class) {
            value = (byte) 1;
        } else if (type == Double.class) {
            value = 1d;
        } else if (type == Float.class) {
            value = 1f;
        } else if (type == BigDecimal.class) {
            value = BigDecimal.ONE;
        } else if (type == Boolean.class) {
            value = Boolean.TRUE;
        } else if (type == String.class) {
            value = "1";
        } else {
            throw new SQLException("cannot convert an integer column to " + type.getName(), "22018");
        }
        return type.cast(value);
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    /** Rows are never updated, inserted or deleted. */
    @Override
    public boolean rowUpdated() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowInserted() throws SQLException {
        checkOpen();
        return false;
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        checkOpen();
        return false;
    }

    // ---- lifecycle and properties --------------------------------------------------------------------

    /** Idempotent; closes the statement too if it was marked close-on-completion. */
    @Override
    public void close() throws SQLException {
        if (!closed) {
            closed = true;
            statement.resultSetClosed();
        }
    }

    /** Closed by its statement (re-execution or statement close): no close-on-completion cascade. */
    void closedByStatement() {
        closed = true;
    }

    @Override
    public boolean isClosed() {
        return closed || statement.isClosed();
    }

    private void checkOpen() throws SQLException {
        if (isClosed()) {
            throw new SQLException("result set is closed", "55000");
        }
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    /** Only {@link ResultSet#FETCH_FORWARD} is allowed on a forward-only result. */
    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw StubErrors.invalidArgument("a forward-only result set fetches forward only");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw StubErrors.invalidArgument("fetch size must not be negative: " + rows);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return statement.getResultSetHoldability();
    }

    /** Warnings never occur; returns null. */
    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
