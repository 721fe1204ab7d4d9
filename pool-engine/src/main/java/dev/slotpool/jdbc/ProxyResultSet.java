package dev.slotpool.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A thin proxy of a driver's {@link ResultSet}: {@link #getStatement()} answers the proxy statement (or
 * {@code null} for a metadata result set) instead of the driver's, and fatal errors evict the connection.
 *
 * <p>The calls that behave alike are generated ({@link ResultSetDelegation}); the hooks below say what each
 * kind records. Moving the cursor records activity, so a holder streaming a long result is not taken for abandoned;
 * reading columns does not, to keep the per-value path to one owner check. Once its statement (or, for
 * metadata, its connection) is closed, calls go to the closed sentinel, so a result set kept past the return
 * cannot read from a connection lent to someone else (S1).
 *
 * <p>Not thread-safe, on purpose: used by the holder's thread only.
 */
final class ProxyResultSet extends ResultSetDelegation {

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
    @Override
    ResultSet live() {
        boolean open = statement != null ? statement.isOpen() : connection.open();
        return open ? delegate : ClosedSentinel.RESULT_SET;
    }

    /** As {@link #live()}, for moving the cursor or writing rows: activity for the abandoned timer. A metadata
     * result may fetch its rows as the cursor moves, which with auto-commit off may open a transaction (a
     * statement's result is fetched inside the transaction its execution opened). */
    @Override
    ResultSet active() throws SQLException {
        ResultSet rs = live();
        if (rs == ClosedSentinel.RESULT_SET) {
            return rs;
        }
        boolean open = statement != null ? connection.enter() : connection.enterReaching();
        return open ? rs : ClosedSentinel.RESULT_SET;
    }

    /** As {@link #active()}, for writing rows: with auto-commit off that may open a transaction. */
    @Override
    ResultSet running() throws SQLException {
        ResultSet rs = active();
        if (rs != ClosedSentinel.RESULT_SET) {
            connection.ranSql();
        }
        return rs;
    }

    @Override
    SQLException failed(SQLException e) {
        return connection.failed(e);
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
            throw failed(e);
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
                throw failed(e);
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
            throw failed(e);
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
            throw failed(e);
        }
    }
}
