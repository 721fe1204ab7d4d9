package dev.slotpool.kernel;

import dev.slotpool.BorrowObserver;
import dev.slotpool.CredentialsProvider;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.SqlExceptionOverride;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The one door to user code: every call into a {@link PoolListener}, the {@link BorrowObserver}, the
 * {@link LabelingCallback}, the {@link SqlExceptionOverride} and the {@link CredentialsProvider} goes through a
 * method here, and none of them lets anything the user's code throws reach the pool (docs/architecture.md, "User
 * code"). Callers make these calls only before or after a transition, never in the middle of one.
 *
 * <p>Every {@link Throwable} is caught, {@link VirtualMachineError}s included, and none is rethrown. The pool's
 * steps around each call (hand the borrower its proxy, put a returned connection back, publish a new one) must
 * run whatever the user's code did, or a connection is lent to nobody or a slot stays half-transitioned (S1–S3);
 * rethrowing after them would hand the caller an error for a borrow or a return that succeeded, and leak the
 * connection it cannot see. A {@code StackOverflowError} is unwound by the time it is caught here. An
 * {@code OutOfMemoryError} has already run the JVM's own handling at its throw ({@code -XX:+ExitOnOutOfMemoryError},
 * heap dumps), and the next allocation that fails throws again in the code that makes it.
 */
public final class UserCode {

    private final String poolName;

    public UserCode(String poolName) {
        this.poolName = poolName;
    }

    void onStart(PoolListener l, PoolConfig config) {
        try {
            l.onStart(config);
        } catch (Throwable t) {
            failed("listener " + l.getClass().getName(), t);
        }
    }

    void onEvent(PoolListener l, PoolEvent event) {
        try {
            l.onEvent(event);
        } catch (Throwable t) {
            failed("listener " + l.getClass().getName(), t);
        }
    }

    void onBorrow(PoolListener l, String origin, long waitNanos) {
        try {
            l.onBorrow(origin, waitNanos);
        } catch (Throwable t) {
            failed("listener " + l.getClass().getName(), t);
        }
    }

    void onReturn(PoolListener l, String origin, long heldNanos) {
        try {
            l.onReturn(origin, heldNanos);
        } catch (Throwable t) {
            failed("listener " + l.getClass().getName(), t);
        }
    }

    /** {@link BorrowObserver#started}; null if it failed. */
    public Object borrowStarted(BorrowObserver observer) {
        try {
            return observer.started(poolName);
        } catch (Throwable t) {
            failed("borrow observer", t);
            return null;
        }
    }

    public void borrowEnded(BorrowObserver observer, Object started, String origin, long waitNanos, Throwable failure) {
        try {
            observer.ended(started, origin, waitNanos, failure);
        } catch (Throwable t) {
            failed("borrow observer", t);
        }
    }

    /** {@link LabelingCallback#cost}, negative taken as 0; {@link LabelingCallback#UNUSABLE} if it failed. */
    public int labelCost(LabelingCallback labeling, Map<String, String> requested, Map<String, String> current) {
        try {
            int c = labeling.cost(requested, current);
            return c < 0 ? 0 : c;
        } catch (Throwable t) {
            failed("labeling callback cost() (connection treated as unusable)", t);
            return LabelingCallback.UNUSABLE;
        }
    }

    /**
     * {@link LabelingCallback#configure}; false if it failed with anything but an {@link SQLException}, which the
     * caller gets (the connection's own error).
     */
    public boolean configureLabels(LabelingCallback labeling, Map<String, String> requested, Connection c)
            throws SQLException {
        try {
            return labeling.configure(requested, c);
        } catch (SQLException e) {
            throw e;
        } catch (Throwable t) {
            failed("labeling callback configure()", t);
            return false;
        }
    }

    /**
     * The override as the proxies call it (on the holder's thread, for every SQLException): one that throws is
     * ignored for that error, and the built-in rules decide. Null if there is none.
     */
    public SqlExceptionOverride guarded(SqlExceptionOverride override) {
        if (override == null) {
            return null;
        }
        return e -> {
            try {
                return override.adjudicate(e);
            } catch (Throwable t) {
                failed("exception override", t);
                return SqlExceptionOverride.Decision.CONTINUE_WITH_BUILT_IN_RULES;
            }
        };
    }

    /**
     * {@link CredentialsProvider#credentials}, on a pool thread; whatever it throws fails this connect like a
     * driver error (reported as the creation's failure, not logged here).
     */
    public CredentialsProvider.Credentials credentials(CredentialsProvider provider, String origin) throws SQLException {
        try {
            return provider.credentials(origin);
        } catch (Throwable t) {
            throw new SQLException("credentials provider failed: " + t.getClass().getName() + ": "
                    + t.getMessage(), null, 0, t);
        }
    }

    /**
     * Reports a failure of user code; never throws (the log may fail too: out of memory, a broken handler). The
     * message names what failed, never its arguments (no secret in any output).
     */
    private void failed(String what, Throwable t) {
        try {
            Loggers.USER_CODE.log(System.Logger.Level.WARNING, "[" + poolName + "] " + what + " failed", t);
        } catch (Throwable ignored) {
            // Nowhere left to report it; the pool goes on.
        }
    }
}
