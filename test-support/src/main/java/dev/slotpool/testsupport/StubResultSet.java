package dev.slotpool.testsupport;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * The result of a stub query: one row, {@link StubRow#ONE} (the integer {@code 1} in a single column that answers
 * to any label, as a {@code SELECT 1} validation query returns) unless the database scripted an answer
 * ({@link StubDatabase#answer}). {@code next()} is true once; columns read as any numeric type, boolean or string.
 * Forward-only and read-only; what that excludes lives in {@link ResultSetUnsupported}.
 */
public final class StubResultSet implements ResultSet, ResultSetUnsupported {

    private static final int BEFORE_FIRST = 0;
    private static final int ON_ROW = 1;
    private static final int AFTER_LAST = 2;

    private final StubStatement statement;
    private final StubRow row;
    private int position = BEFORE_FIRST;
    private boolean closed;
    private boolean lastWasNull;
    private int fetchSize;

    StubResultSet(StubStatement statement, StubRow row) {
        this.statement = statement;
        this.row = row;
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

    /** The value of a column of the current row; remembers whether it was SQL NULL. */
    private Object column(int columnIndex) throws SQLException {
        checkOpen();
        if (position != ON_ROW) {
            throw new SQLException("no current row", "24000");
        }
        if (columnIndex < 1 || columnIndex > row.columns()) {
            throw new SQLException("column index out of range: " + columnIndex, "07009");
        }
        Object value = row.value(columnIndex);
        lastWasNull = value == null;
        return value;
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        return row.find(columnLabel);
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return lastWasNull;
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        return (int) getLong(columnIndex);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return StubRow.toLong(column(columnIndex));
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return (short) getLong(columnIndex);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return (byte) getLong(columnIndex);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        return StubRow.toDouble(column(columnIndex));
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return (float) getDouble(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        return StubRow.toBoolean(column(columnIndex));
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        return StubRow.toBigDecimal(column(columnIndex));
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal value = getBigDecimal(columnIndex);
        return value == null ? null : value.setScale(scale);
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        Object value = column(columnIndex);
        return value == null ? null : value.toString();
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return column(columnIndex);
    }

    /** Converts to Integer, Long, Short, Byte, Double, Float, BigDecimal, Boolean, String or Object. */
    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        Object raw = column(columnIndex);
        if (raw == null) {
            return null;
        }
        Object value;
        if (type == Object.class || type.isInstance(raw)) {
            value = raw;
        } else if (type == Integer.class) {
            value = (int) StubRow.toLong(raw);
        } else if (type == Long.class) {
            value = StubRow.toLong(raw);
        } else if (type == Short.class) {
            value = (short) StubRow.toLong(raw);
        } else if (type == Byte.class) {
            value = (byte) StubRow.toLong(raw);
        } else if (type == Double.class) {
            value = StubRow.toDouble(raw);
        } else if (type == Float.class) {
            value = (float) StubRow.toDouble(raw);
        } else if (type == BigDecimal.class) {
            value = StubRow.toBigDecimal(raw);
        } else if (type == Boolean.class) {
            value = StubRow.toBoolean(raw);
        } else if (type == String.class) {
            value = raw.toString();
        } else {
            throw new SQLException("cannot convert " + raw.getClass().getSimpleName() + " to " + type.getName(),
                    "22018");
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
