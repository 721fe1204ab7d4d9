package dev.slotpool.pool;

import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/** Test helpers: a builder over a fresh stub database, and waiting for a pool condition with a deadline. */
final class Pools {

    private Pools() {
    }

    /** A builder whose timers stay quiet unless a test drives them (long housekeeping period, no keepalive). */
    static SlotPoolBuilder stub(StubDatabase db) {
        return SlotPoolDataSource.builder()
                .name("test")
                .url(db.url())
                .username("app").password("s3cret-pw")
                .housekeepingPeriod(Duration.ofMinutes(10))
                .keepaliveInterval(Duration.ZERO)
                .validateAfterIdle(Duration.ofHours(1));
    }

    /** Runs one housekeeping pass and waits until the creations it asked for are done. */
    static void passAndSettle(ConnectionPool pool) {
        pool.housekeeper.pass();
        await(pool, s -> pool.capacity.replacementsOwed() == 0 && pool.capacity.creating() == 0
                && pool.capacity.occupied() >= pool.config.minSize(), "creations settled");
    }

    /** Waits until the keepalive batch a {@link Housekeeper#pass()} handed over is validated (on its own thread). */
    static void keepalivesDone(ConnectionPool pool) {
        await(pool, s -> pool.housekeeper.keepaliveIdle(), "keepalive validations done");
    }

    /**
     * Waits for minSize, all idle, and then for {@code shares}, the split the weights ask for, running rebalance
     * passes meanwhile: two creators choosing at once can overshoot an origin's share while filling (one's claim
     * of an origin, later given back, steers the other's choice), and each pass moves a connection toward the
     * weights' shares.
     */
    static PoolSnapshot fillToShares(ConnectionPool pool, Predicate<PoolSnapshot> shares, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int min = pool.config.minSize();
        while (true) {
            PoolSnapshot s = await(pool, p -> p.available() == min && p.creating() == 0, "minSize filled");
            if (shares.test(s)) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what + "; last snapshot: " + s.summary());
            }
            passAndSettle(pool);
            closesDone(pool);
        }
    }

    /** Waits until the closes the pool started so far are done (the closer runs them off the caller's thread). */
    static void closesDone(ConnectionPool pool) {
        await(pool, s -> pool.closer.pending() == 0, "closes done");
    }

    /**
     * Waits until the pool's snapshot satisfies a condition (background creation is asynchronous by design),
     * failing after 20 s: a bound for a broken pool, never a timing assertion.
     */
    static PoolSnapshot await(ConnectionPool pool, Predicate<PoolSnapshot> condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        PoolSnapshot s = pool.snapshot();
        while (!condition.test(s)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what + "; last snapshot: " + s.summary());
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
            s = pool.snapshot();
        }
        return s;
    }
}
