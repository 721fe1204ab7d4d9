package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotState;
import dev.slotpool.jdbc.ConnectionDefaults;
import dev.slotpool.table.Parking;
import dev.slotpool.table.Slot;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Opens connections on pool threads (S6: user threads never do). Each creator thread loops: plan one creation,
 * open it, publish it (to the longest starving waiter first), or park until signalled.
 *
 * <p><b>When to create</b>: below minSize (or initialSize until first reached); or when threads wait and the
 * creations already pending do not cover them, unless creating would not help (elision, seed 003): when the
 * waiters will be served by returns sooner than a connection can be opened (predicted drain time =
 * waiting × mean hold ÷ borrowed, below the mean creation time) and the demand is a spike, not a sustained
 * load (threads have been waiting without a break for less than a creation time). Without those estimates,
 * only one speculative creation runs at a time.
 *
 * <p><b>Where</b>: the UP origin with room whose live count is lowest relative to its weight. A failed attempt
 * backs the origin off exponentially (50 ms doubling to {@code creationBackoffMax}); {@code downAfterFailures}
 * failures in a row mark it DOWN, and a probe on the same back-off marks it UP again.
 */
final class Creator {

    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Far enough to mean "never" yet safe to add to any nanoTime without overflow. */
    static final long NEVER = Long.MAX_VALUE / 4;

    private final ConnectionPool pool;
    private final Thread[] threads;
    private volatile boolean stopped;
    private volatile boolean initialFillDone;
    /** Exponentially weighted means, written racily by many threads: racy but benign (a lost sample). */
    private volatile long meanHoldNanos;
    private volatile long meanCreateNanos;
    private final long maxLifetimeNanos;
    private final long backoffMaxNanos;
    private final long idleParkNanos;

    Creator(ConnectionPool pool) {
        this.pool = pool;
        this.threads = new Thread[pool.config.creatorThreads()];
        long lifetime = pool.config.maxLifetime().toNanos();
        this.maxLifetimeNanos = lifetime == 0 ? NEVER : lifetime;
        this.backoffMaxNanos = pool.config.creationBackoffMax().toNanos();
        this.idleParkNanos = pool.config.housekeepingPeriod().toNanos();
    }

    void start() {
        for (int i = 0; i < threads.length; i++) {
            Thread t = new Thread(this::run, "slotpool-" + pool.name + "-creator-" + i);
            t.setDaemon(true);
            threads[i] = t;
            t.start();
        }
    }

    /** Asks the creators to look at demand again (borrowers short of a connection, closes). */
    void signal() {
        for (Thread t : threads) {
            Parking.unpark(t);
        }
    }

    /**
     * A borrower found nothing free: wake the creators only if a connection could be created (room, or a paced
     * drain's connection to close for room), so a saturated pool at maxSize does not wake them on every queued
     * borrow.
     */
    void shortage() {
        if (pool.occupied.get() < pool.config.maxSize() || pool.operations.drainsQueued()) {
            signal();
        }
    }

    void stop() {
        stopped = true;
        signal();
    }

    /** Waits for the creator threads; one stuck in a driver's connect is interrupted. */
    void join() {
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(2));
                if (t.isAlive()) {
                    t.interrupt();
                    t.join(TimeUnit.SECONDS.toMillis(5));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    void sampleHold(long nanos) {
        long m = meanHoldNanos;
        meanHoldNanos = m == 0 ? nanos : m + ((nanos - m) >> 3);
    }

    private void sampleCreate(long nanos) {
        long m = meanCreateNanos;
        meanCreateNanos = m == 0 ? nanos : m + ((nanos - m) >> 3);
    }

    private void run() {
        while (!stopped) {
            long now = pool.ticker.nanoTime();
            pool.operations.probeDetectedDown(now);
            Origin o = plan(now);
            if (o != null) {
                create(o);
            } else if (!stopped) {
                Parking.park(this, parkNanos(now));
            }
        }
    }

    /** Claims room for one new connection (pool and origin counts, CAS) and returns its origin, or null. */
    private Origin plan(long now) {
        if (pool.isShutdown()) {
            return null;
        }
        while (true) {
            int occupied = pool.occupied.get();
            if (occupied >= pool.config.maxSize()) {
                // A paced drain holds idle connections nobody may borrow; under demand, close one now so a
                // connection can be opened on a surviving origin instead.
                if (pool.table.waiting() > pool.creating.get() && pool.operations.closeOneDraining()) {
                    continue;
                }
                return null;
            }
            int target = initialFillDone ? pool.config.minSize() : pool.config.initialSize();
            if (occupied >= target) {
                initialFillDone = true;
                int creating = pool.creating.get();
                int waiting = pool.table.waiting();
                boolean forWaiters = waiting > creating && !elide(waiting, creating);
                if (!forWaiters && pool.replacements.get() <= 0) {
                    return null;
                }
            }
            Origin o = chooseOrigin(now);
            if (o == null) {
                return null;
            }
            // The origin's cap is claimed by CAS first, then the pool's room: two creators that chose the same
            // origin at its last free place cannot both pass its cap (S3 per origin).
            if (!o.tryClaim(pool.config.maxSize())) {
                continue;
            }
            if (!pool.occupied.compareAndSet(occupied, occupied + 1)) {
                o.occupied.decrementAndGet();
            } else {
                o.creating.incrementAndGet();
                pool.creating.incrementAndGet();
                // Any creation while replacements are owed is one: a retirement that dropped the pool below
                // minSize is refilled by this connection whichever rule asked for it.
                if (pool.replacements.get() > 0) {
                    pool.replacements.updateAndGet(r -> Math.max(0, r - 1));
                }
                return o;
            }
        }
    }

    /** Whether returns will serve the waiters before a new connection could (see class comment). */
    private boolean elide(int waiting, int creating) {
        long hold = meanHoldNanos;
        long create = meanCreateNanos;
        int borrowed = count(SlotState.BORROWED);
        if (hold > 0 && create > 0 && borrowed > 0) {
            long drain = (long) ((double) waiting * hold / borrowed);
            return drain < create && pool.table.backlogNanos() < create;
        }
        return creating > 0;
    }

    private int count(SlotState state) {
        int n = 0;
        int hw = pool.table.highWater();
        for (int i = 0; i < hw; i++) {
            if (pool.table.slot(i).state() == state) {
                n++;
            }
        }
        return n;
    }

    /** The UP origin with room whose occupancy is lowest relative to its weight (ties: first listed). */
    private Origin chooseOrigin(long now) {
        Origin best = null;
        for (Origin o : pool.origins.configured()) {
            if (o.state() != OriginState.UP || o.weight <= 0 || !o.hasRoom(pool.config.maxSize(), now)) {
                continue;
            }
            if (best == null || (long) o.occupied.get() * best.weight < (long) best.occupied.get() * o.weight) {
                best = o;
            }
        }
        return best;
    }

    private void create(Origin o) {
        Slot<PooledConnection> slot = pool.table.reserve();
        if (slot == null) {
            release(o);
            return;
        }
        long start = pool.ticker.nanoTime();
        Connection c = null;
        try {
            c = pool.connect(o);
            Origin landed = o.discovers() ? pool.origins.landed(o, c) : o;
            ConnectionDefaults defaults = ConnectionDefaults.readFrom(c);
            long now = pool.ticker.nanoTime();
            sampleCreate(now - start);
            pool.opened.incrementAndGet();
            o.consecutiveFailures.set(0);
            if (landed != o) {
                // The group's count (o.occupied) already holds this connection; its origin counts it from now.
                landed.occupied.incrementAndGet();
            }
            PooledConnection e = new PooledConnection(pool, landed, slot, c, defaults, now, now + lifetime());
            if (landed != o && landed.detectedDown) {
                pool.operations.landedOnDetectedDown(landed);
            }
            if (!o.isUp() || !landed.isUp() || pool.isShutdown()) {
                // The origin was drained or the pool closed while we were connecting, or the URL landed on a
                // discovered origin that is not UP: do not lend it (S7). A landing on a drained origin waits a
                // little before the next try, so a group with one drained server does not spin.
                if (landed != o) {
                    o.nextAttemptAt = now + FIRST_BACKOFF_NANOS;
                }
                pool.table.publishOwned(slot, e);
                doneCreating(o);
                pool.closeOwned(e, CloseReason.ORIGIN_NOT_UP, false);
                return;
            }
            // Published before the creating counts drop, so a snapshot never misses the connection in between.
            pool.table.publish(slot, e);
            doneCreating(o);
            pool.events.emit(PoolEvent.Type.CREATED, landed.name, null, null);
        } catch (SQLException | RuntimeException ex) {
            if (c != null) {
                closeQuietly(c);
                pool.opened.incrementAndGet();
                pool.closed.incrementAndGet();
            }
            pool.table.cancel(slot);
            release(o);
            doneCreating(o);
            pool.operations.connectFailed(o, Secrets.sanitize(ex, o.config, "could not connect"), pool.ticker.nanoTime());
        }
    }

    private void doneCreating(Origin o) {
        o.creating.decrementAndGet();
        pool.creating.decrementAndGet();
    }

    /** Undoes a claim made by {@link #plan}. */
    private void release(Origin o) {
        o.occupied.decrementAndGet();
        pool.occupied.decrementAndGet();
    }

    long backoffNanos(int failures) {
        long b = FIRST_BACKOFF_NANOS << Math.min(30, Math.max(0, failures - 1));
        return Math.min(b, backoffMaxNanos);
    }

    /** maxLifetime minus up to 2.5 % so connections made together do not all retire together. */
    private long lifetime() {
        if (maxLifetimeNanos == NEVER) {
            return NEVER;
        }
        return maxLifetimeNanos - ThreadLocalRandom.current().nextLong(maxLifetimeNanos / 40 + 1);
    }

    /** How long to sleep when there is nothing to create: until the next back-off ends, or a re-check while
     * threads wait, or the housekeeping period. A signal cuts it short. */
    private long parkNanos(long now) {
        long park = idleParkNanos;
        if (pool.table.waiting() > 0) {
            park = Math.min(park, TimeUnit.MILLISECONDS.toNanos(5));
        }
        for (Origin o : pool.origins.configured()) {
            long until = o.nextAttemptAt - now;
            if (until > 0 && (o.isUp() || o.detectedDown)) {
                park = Math.min(park, until);
            }
        }
        return Math.max(park, TimeUnit.MICROSECONDS.toNanos(100));
    }

    static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // Closing a connection we are giving up on; nothing else to do.
        }
    }
}
