package dev.slotpool.jdbc;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * One driver statement of a {@link StatementCache}: the arguments it was prepared with (its key) and what a holder
 * changed on it, so that {@link #reset()} makes it behave like a fresh one before it goes back to the cache.
 *
 * <p>Made once, on a miss, and reused with its statement on every hit: a hit allocates nothing. It is either idle
 * in its connection's cache or lent to one proxy statement, never both, and only the connection's holder touches
 * it (S1), so every field is plain.
 */
final class CachedStatement {

    /** An argument the holder did not give (the variant of {@code prepareStatement} without it). */
    static final int NONE = Integer.MIN_VALUE;

    // The settings a holder may change and reset() puts back, each saved from the driver before its first change.
    static final int QUERY_TIMEOUT = 1;
    static final int MAX_ROWS = 1 << 1;
    static final int FETCH_SIZE = 1 << 2;
    static final int FETCH_DIRECTION = 1 << 3;
    static final int MAX_FIELD_SIZE = 1 << 4;

    /** Open result sets tracked per lending; one more marks the statement spoiled (closed at its close). */
    private static final int MAX_RESULTS = 4;

    final boolean callable;
    final String sql;
    final int type;
    final int concurrency;
    final int holdability;
    final int generatedKeys;
    final int[] columnIndexes;
    final String[] columnNames;
    final int hash;
    /** The driver's statement; a {@link CallableStatement} when {@link #callable}. */
    PreparedStatement statement;
    /** The cache's age counter when it last came back ({@link StatementCache#put}). */
    long lastUsed;
    /** Its slot while it is in its {@link StatementTable}. */
    int index;
    /** Neighbours in the cache's age order while idle (the one that came back before it, and after); null when
     * lent. */
    CachedStatement older;
    CachedStatement newer;

    /** Settings changed during the current lending; restored by {@link #reset()}. */
    private int dirty;
    /** Settings whose fresh value has been read into the fields below (once per statement). */
    private int saved;
    private int queryTimeout;
    private int maxRows;
    private int fetchSize;
    private int fetchDirection;
    private int maxFieldSize;
    /** A parameter was bound, or a batch added, during the current lending: reset() clears them. A callable
     * statement's parameters are cleared at every reset (their OUT registrations and values too). */
    private boolean bound;
    private boolean batched;
    /** Something reset() cannot undo happened (a cursor name, close on completion, an unwrap to the driver's
     * type, a connection-level error): the statement is closed instead of cached. */
    private boolean spoiled;
    /** The driver's result sets handed out during the current lending, closed by reset(). */
    private ResultSet[] results;

    CachedStatement(boolean callable, String sql, int type, int concurrency, int holdability, int generatedKeys,
                    int[] columnIndexes, String[] columnNames) {
        this.callable = callable;
        this.sql = sql;
        this.type = type;
        this.concurrency = concurrency;
        this.holdability = holdability;
        this.generatedKeys = generatedKeys;
        this.columnIndexes = columnIndexes == null ? null : columnIndexes.clone();
        this.columnNames = columnNames == null ? null : columnNames.clone();
        this.hash = hash(sql, type, concurrency, holdability, generatedKeys);
    }

    static int hash(String sql, int type, int concurrency, int holdability, int generatedKeys) {
        int h = sql.hashCode();
        h = 31 * h + type;
        h = 31 * h + concurrency;
        h = 31 * h + holdability;
        h = 31 * h + generatedKeys;
        return h ^ (h >>> 16);
    }

    /**
     * Whether this statement is of this kind and was prepared with these arguments and this very SQL string (the
     * same instance, as a constant or a reused string is): a check cheaper than {@link #matches}, with no hash.
     * False says nothing: an equal string of another instance still matches.
     */
    boolean isFor(boolean isCall, String sql, int type, int concurrency, int holdability, int generatedKeys,
                  int[] columnIndexes, String[] columnNames) {
        return this.sql == sql && callable == isCall && this.type == type && this.concurrency == concurrency
                && this.holdability == holdability && this.generatedKeys == generatedKeys
                && this.columnIndexes == null && columnIndexes == null
                && this.columnNames == null && columnNames == null;
    }

    /** Whether this statement was prepared with exactly these arguments; compares fields, allocates nothing. */
    boolean matches(int hash, String sql, int type, int concurrency, int holdability, int generatedKeys,
                    int[] columnIndexes, String[] columnNames) {
        return this.hash == hash && this.type == type && this.concurrency == concurrency
                && this.holdability == holdability && this.generatedKeys == generatedKeys && this.sql.equals(sql)
                && Arrays.equals(this.columnIndexes, columnIndexes) && Arrays.equals(this.columnNames, columnNames);
    }

    /** Prepares the driver's statement for these arguments, through the same variant the holder called. */
    void prepare(Connection c) throws SQLException {
        if (callable) {
            statement = holdability != NONE ? c.prepareCall(sql, type, concurrency, holdability)
                    : type != NONE ? c.prepareCall(sql, type, concurrency)
                    : c.prepareCall(sql);
        } else if (columnIndexes != null) {
            statement = c.prepareStatement(sql, columnIndexes);
        } else if (columnNames != null) {
            statement = c.prepareStatement(sql, columnNames);
        } else if (generatedKeys != NONE) {
            statement = c.prepareStatement(sql, generatedKeys);
        } else {
            statement = holdability != NONE ? c.prepareStatement(sql, type, concurrency, holdability)
                    : type != NONE ? c.prepareStatement(sql, type, concurrency)
                    : c.prepareStatement(sql);
        }
    }

    /** Before the holder changes {@code setting}: reads its fresh value the first time, marks it to restore. */
    void changing(int setting) throws SQLException {
        if ((saved & setting) == 0) {
            PreparedStatement s = statement;
            switch (setting) {
                case QUERY_TIMEOUT -> queryTimeout = s.getQueryTimeout();
                case MAX_ROWS -> maxRows = s.getMaxRows();
                case FETCH_SIZE -> fetchSize = s.getFetchSize();
                case FETCH_DIRECTION -> fetchDirection = s.getFetchDirection();
                case MAX_FIELD_SIZE -> maxFieldSize = s.getMaxFieldSize();
                default -> throw new IllegalArgumentException("setting " + setting);
            }
            saved |= setting;
        }
        dirty |= setting;
    }

    /** The holder bound a parameter: {@link #reset()} clears the parameters. */
    void bound() {
        bound = true;
    }

    /** The holder added to the batch: {@link #reset()} clears it. */
    void batched() {
        batched = true;
    }

    /** The holder did something {@link #reset()} cannot undo: the statement is closed, not cached. */
    void spoil() {
        spoiled = true;
    }

    boolean spoiled() {
        return spoiled;
    }

    /** A driver result set was handed to the holder: reset() closes it if the holder did not. */
    void opened(ResultSet rs) {
        ResultSet[] r = results;
        if (r == null) {
            r = results = new ResultSet[MAX_RESULTS];
        }
        int free = -1;
        for (int i = 0; i < r.length; i++) {
            if (r[i] == rs) {
                return;
            }
            if (r[i] == null && free < 0) {
                free = i;
            }
        }
        if (free < 0) {
            free = dropClosed(r);
        }
        if (free < 0) {
            spoiled = true; // more open results than tracked: closing the statement closes them all
        } else {
            r[free] = rs;
        }
    }

    /** Forgets the tracked result sets the driver says are closed; the first free index, or -1. */
    private int dropClosed(ResultSet[] r) {
        int free = -1;
        for (int i = 0; i < r.length; i++) {
            try {
                if (r[i].isClosed()) {
                    r[i] = null;
                    free = free < 0 ? i : free;
                }
            } catch (SQLException e) {
                return -1;
            }
        }
        return free;
    }

    /**
     * Makes the statement behave like a fresh one for its next holder: closes the result sets handed out, clears
     * the parameters and the batch if the holder left any, clears the warnings, and puts back the settings the
     * holder changed. Called before it goes back to the cache; if it throws, the caller closes the statement
     * instead.
     */
    void reset() throws SQLException {
        PreparedStatement s = statement;
        ResultSet[] r = results;
        if (r != null) {
            for (int i = 0; i < r.length; i++) {
                if (r[i] != null) {
                    ResultSet rs = r[i];
                    r[i] = null;
                    rs.close();
                }
            }
        }
        if (bound || callable) {
            bound = false;
            s.clearParameters();
        }
        if (batched) {
            batched = false;
            s.clearBatch();
        }
        s.clearWarnings();
        if (dirty != 0) {
            restore(s);
        }
    }

    private void restore(PreparedStatement s) throws SQLException {
        int d = dirty;
        dirty = 0;
        if ((d & QUERY_TIMEOUT) != 0) {
            s.setQueryTimeout(queryTimeout);
        }
        if ((d & MAX_ROWS) != 0) {
            s.setMaxRows(maxRows);
        }
        if ((d & FETCH_SIZE) != 0) {
            s.setFetchSize(fetchSize);
        }
        if ((d & FETCH_DIRECTION) != 0) {
            s.setFetchDirection(fetchDirection);
        }
        if ((d & MAX_FIELD_SIZE) != 0) {
            s.setMaxFieldSize(maxFieldSize);
        }
    }
}
