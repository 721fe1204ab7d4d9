package dev.slotpool;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;

/**
 * The read view of a {@link SlotPoolDataSource} ({@link SlotPoolDataSource#forReads()}): the same pool, borrowing
 * for reads. Everything but the borrow is the pool's own.
 */
public final class SlotPoolReadDataSource implements DataSource {

    private final SlotPoolDataSource pool;

    SlotPoolReadDataSource(SlotPoolDataSource pool) {
        this.pool = pool;
    }

    /** {@return the pool this view borrows from} */
    public SlotPoolDataSource pool() {
        return pool;
    }

    /** A read borrow: see {@link SlotPoolDataSource#forReads()}. */
    @Override
    public Connection getConnection() throws SQLException {
        return pool.getConnectionForReads();
    }

    /** Not supported, as for the pool ({@link SlotPoolDataSource#getConnection(String, String)}). */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return pool.getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    /** This view, or the pool it reads from (so tools that look for the pool through a wrapper find it). */
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : pool.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || pool.isWrapperFor(iface);
    }

    @Override
    public String toString() {
        return "reads of " + pool;
    }
}
