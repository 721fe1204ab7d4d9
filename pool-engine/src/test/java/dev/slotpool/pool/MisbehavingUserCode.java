package dev.slotpool.pool;

import dev.slotpool.BorrowObserver;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;

import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The user code of a {@link PoolHistory}: one listener, borrow observer and labeling callback that, when the
 * history's mix says so, throw an {@link InjectedError} now and then (the labeling callback on its own switch), and that pause or yield at the points where a
 * pause widens a race window (user code may take as long as it likes): after a lend, before the proxy exists
 * ({@code onBorrow}), and inside the housekeeper's visit of a borrowed connection ({@code LEAK} events).
 *
 * <p>It also counts the disruptions a holder may legitimately lose its borrow to: every origin state change the
 * pool reports. The history adds its own operator calls (markDown, drain, suspend, close) to the same count.
 */
final class MisbehavingUserCode implements PoolListener, BorrowObserver, LabelingCallback {

    /** What user code threw on purpose: the pool must survive it, and may pass it to the caller. */
    static final class InjectedError extends Error {
        InjectedError(String where) {
            super("thrown on purpose by the model check's " + where, null, false, false);
        }
    }

    /** One callback in this many throws, when errors are on. */
    private static final int ERROR_ONE_IN = 40;

    private final boolean errors;
    private final boolean labelingErrors;
    private final boolean noise;
    /** Origin state changes and the history's disruptive operator calls, so far. */
    private final AtomicLong disruptions = new AtomicLong();
    private final AtomicLong thrown = new AtomicLong();

    MisbehavingUserCode(boolean errors, boolean labelingErrors, boolean noise) {
        this.errors = errors;
        this.labelingErrors = labelingErrors;
        this.noise = noise;
    }

    long disruptions() {
        return disruptions.get();
    }

    void disrupted() {
        disruptions.incrementAndGet();
    }

    long thrown() {
        return thrown.get();
    }

    @Override
    public void onEvent(PoolEvent event) {
        if (event.type() == PoolEvent.Type.ORIGIN_STATE) {
            disruptions.incrementAndGet();
        }
        if (event.type() == PoolEvent.Type.LEAK) {
            // The housekeeper reports a leak, then judges the same borrow abandoned: hold it between the two.
            pause(100, 5_000);
        } else {
            pause(5, 500);
        }
        maybeThrow("onEvent(" + event.type() + ")");
    }

    @Override
    public void onBorrow(String origin, long waitNanos) {
        // The connection is lent and its proxy not built yet: the widest point for a reclaim to land.
        pause(20, 3_000);
        maybeThrow("onBorrow");
    }

    @Override
    public void onReturn(String origin, long heldNanos) {
        pause(5, 300);
        maybeThrow("onReturn");
    }

    @Override
    public Object started(String pool) {
        maybeThrow("BorrowObserver.started");
        return null;
    }

    @Override
    public void ended(Object started, String origin, long waitNanos, Throwable failure) {
        pause(5, 300);
        maybeThrow("BorrowObserver.ended");
    }

    @Override
    public int cost(Map<String, String> requested, Map<String, String> current) {
        maybeThrow(labelingErrors, "LabelingCallback.cost");
        return current.entrySet().containsAll(requested.entrySet()) ? 0 : 1;
    }

    @Override
    public boolean configure(Map<String, String> requested, Connection connection) {
        pause(5, 300);
        maybeThrow(labelingErrors, "LabelingCallback.configure");
        return true;
    }

    /** With probability {@code percent} %: a yield, or a park of up to {@code maxMicros}. */
    private void pause(int percent, int maxMicros) {
        if (!noise) {
            return;
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (r.nextInt(100) >= percent) {
            return;
        }
        if (r.nextBoolean()) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(r.nextLong(1, maxMicros + 1) * 1_000L);
        }
    }

    private void maybeThrow(String where) {
        maybeThrow(errors, where);
    }

    private void maybeThrow(boolean on, String where) {
        if (on && ThreadLocalRandom.current().nextInt(ERROR_ONE_IN) == 0) {
            thrown.incrementAndGet();
            throw new InjectedError(where);
        }
    }
}
