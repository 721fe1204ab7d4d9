package dev.slotpool.lending;

import dev.slotpool.PoolConfig;
import dev.slotpool.failover.FailureDetector;
import dev.slotpool.slots.PooledConnection;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Checks a connection its caller owns (a borrower's idle-too-long connection, a keepalive on the {@link Keepalive}
 * thread) with the configured query or {@code isValid}, bounded in time. A failed validation does not count toward
 * marking the origin DOWN (a firewall may have killed an idle connection): it only tells the failure detector,
 * which may probe.
 */
public final class Validation {

    /** Runs a driver's network-timeout task on the calling thread (the pool owns no executor). */
    private static final Executor INLINE = Runnable::run;

    private final String query;
    private final long timeoutNanos;
    private final int timeoutSeconds;
    private final FailureDetector detector;

    public Validation(PoolConfig config, FailureDetector detector) {
        this.query = config.validationQuery();
        this.timeoutNanos = config.validationTimeout().toNanos();
        this.timeoutSeconds = (int) Math.max(1, config.validationTimeout().toSeconds());
        this.detector = detector;
    }

    /**
     * Validates a connection this thread owns, within {@code budgetNanos} when that is shorter than the
     * validation timeout: the connection's network timeout is lowered for the check (drivers apply it to
     * {@code isValid} and statements), so a server that stopped answering cannot hold a borrower past its
     * borrow timeout. Anything the driver throws, an {@code Error} included, fails the validation; the failure is
     * kept in {@link PooledConnection#broken} and the caller closes the connection.
     */
    boolean validate(PooledConnection e, long budgetNanos) {
        int boundMillis = boundMillis(e, budgetNanos);
        SQLException failure;
        try {
            boundMillis = lowerNetworkTimeout(e, boundMillis);
            failure = check(e);
            if (failure == null) {
                if (boundMillis > 0) {
                    e.physical.setNetworkTimeout(INLINE, e.defaults.networkTimeoutMillis());
                }
                return true;
            }
        } catch (Throwable ex) {
            failure = ex instanceof SQLException sql ? sql : new SQLException("validation failed: " + ex, ex);
        }
        e.broken = failure;
        detector.validationFailed(e.origin);
        return false;
    }

    /** The network timeout a validation within {@code budgetNanos} needs, or 0 if the connection's own settings
     * already end it in time. */
    private int boundMillis(PooledConnection e, long budgetNanos) {
        if (budgetNanos >= timeoutNanos) {
            return 0;
        }
        int millis = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(budgetNanos));
        int own = e.defaults.networkTimeoutMillis();
        return own > 0 && own <= millis ? 0 : millis;
    }

    /** Sets the bound as the connection's network timeout; 0 (no bound applied) where the driver has none. */
    private static int lowerNetworkTimeout(PooledConnection e, int boundMillis) throws SQLException {
        if (boundMillis == 0) {
            return 0;
        }
        try {
            e.physical.setNetworkTimeout(INLINE, boundMillis);
            return boundMillis;
        } catch (SQLFeatureNotSupportedException | UnsupportedOperationException | AbstractMethodError ex) {
            return 0;
        }
    }

    /** Runs the configured check; null if the connection is valid. */
    private SQLException check(PooledConnection e) throws SQLException {
        if (query == null) {
            return e.physical.isValid(timeoutSeconds) ? null
                    : new SQLException("connection is not valid (isValid returned false)", "08006");
        }
        try (var st = e.physical.createStatement()) {
            st.setQueryTimeout(timeoutSeconds);
            st.execute(query);
            return null;
        }
    }
}
