package dev.slotpool.pool;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.Sizing;
import dev.slotpool.SlotState;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.origins.Origin;
import dev.slotpool.pool.MisbehavingUserCode.InjectedError;
import dev.slotpool.slots.Capacity;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One randomized history of a whole {@link ConnectionPool} on two stub databases (docs/reliability.md, "Pool-level
 * model check"). Worker threads borrow (plain and labeled), use, keep, close, close twice and abort connections;
 * one operator thread advances a {@link ManualTicker} past the leak, abandoned, keepalive and time-to-live timers,
 * marks origins down and up, drains, rebalances, wakes the housekeeper (which visits every 10 ms on its own thread),
 * suspends and resumes, interrupts workers and may close the pool under them; the user code
 * ({@link MisbehavingUserCode}) pauses and throws {@code Error}s. The seed fixes every thread's sequence of
 * operations and the pool's settings; the interleaving is the scheduler's.
 *
 * <p>Checked during the history: S1 (a physical connection has one holder, and a holder whose proxy is open works
 * on an open connection), a borrow on an UP origin is taken back only by a timer old enough to fire, S3 (live +
 * being created ≤ maxSize and each origin's cap, by the pool's counts and by the drivers'), no count negative,
 * and no waiter parked for {@link #STUCK_NANOS} while a slot is AVAILABLE. With adaptive sizing (half the
 * histories; the operator pins and releases limits at random): each limit within its floor and ceiling, no
 * connection held back above its origin's limit ever lent, and no waiter parked for {@link #STUCK_NANOS} while
 * every origin is UP, one has room under the sessions its limit leaves it, and the pool has room. After it, at rest: no slot borrowed,
 * nobody waiting, S2 (each driver's open connections == that origin's live slots == the pool's counts); after
 * close(): no physical connection open.
 */
final class PoolHistory {

    /** What user code does: the listener and observer throw Errors, the labeling callback too, pauses at race
     * windows. */
    record Mix(boolean errors, boolean labelingErrors, boolean noise) {
    }

    private static final Duration LEAK = Duration.ofSeconds(30);
    private static final Duration ABANDONED = Duration.ofSeconds(60);
    private static final Duration TIME_TO_LIVE = Duration.ofSeconds(90);
    private static final Duration BORROW_TIMEOUT = Duration.ofSeconds(3);
    /** A slot AVAILABLE this long while a thread waits and no borrow ends is a lost wake-up: far above any
     * scheduling delay, well below the borrow timeout. */
    private static final long STUCK_NANOS = TimeUnit.MILLISECONDS.toNanos(1_200);
    /** A bound for a broken pool, never a timing assertion: 10 s was one on a machine at load 25 (a seed's worker
     * ended 23.5 s after the start, against about 14 s quiet, and the history failed). */
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final long seed;
    private final Random rnd;
    private final MisbehavingUserCode user;
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final ManualTicker clock = new ManualTicker();
    private final StubDatabase a = StubDatabase.reset("model-a");
    private final StubDatabase b = StubDatabase.reset("model-b");
    private final int maxSize;
    private final int capB;
    /** Adaptive sizing, drawn apart from {@link #rnd} so the other settings of a seed stay as they were. */
    private final boolean adaptive;
    /** The most connections of one origin held back at once, as the checks saw them. */
    private volatile int mostHeldBack;
    private final ConnectionPool pool;
    /** Which worker uses each physical connection now (S1), set after the borrow, cleared before the return. */
    private final Map<StubConnection, Thread> inUse = new ConcurrentHashMap<>();
    /** Borrow calls that ended other than by a timeout: a waiter that was woken makes progress. */
    private final AtomicLong progress = new AtomicLong();
    private final AtomicLong borrows = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong takenBack = new AtomicLong();
    /** Workers start no operation after this (System.nanoTime): a bound for a broken pool, whose borrows all time
     * out; the checks at rest then say what broke. */
    private final long workUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    private volatile boolean closeRequested;
    private volatile boolean running = true;
    /** The monitor reports broken counts once. */
    private boolean countsBroken;

    PoolHistory(long seed, Mix mix) {
        this.seed = seed;
        this.rnd = new Random(scramble(seed));
        this.user = new MisbehavingUserCode(mix.errors(), mix.labelingErrors(), mix.noise());
        this.maxSize = 3 + rnd.nextInt(4);
        this.capB = rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(maxSize - 1);
        this.adaptive = new Random(scramble(seed) ^ 45).nextBoolean();
        this.pool = new ConnectionPool(Pools.stub(a).url(null).ticker(clock)
                .origin(OriginConfig.named("a").url(a.url()).weight(1 + rnd.nextInt(3)))
                .origin(OriginConfig.named("b").url(b.url()).weight(1 + rnd.nextInt(3)).maxConnections(capB))
                .minSize(rnd.nextInt(3)).maxSize(maxSize)
                .borrowTimeout(BORROW_TIMEOUT)
                .turnDuration(Duration.ofNanos(new long[] {250_000, 2_000_000, 20_000_000}[rnd.nextInt(3)]))
                .housekeepingPeriod(Duration.ofMillis(10))
                .keepaliveInterval(Duration.ofSeconds(20))
                .leakDetectionThreshold(LEAK)
                .abandonedTimeout(ABANDONED)
                .timeToLive(TIME_TO_LIVE)
                .downGracePeriod(rnd.nextBoolean() ? Duration.ZERO : Duration.ofSeconds(5))
                .shutdownTimeout(Duration.ofMillis(rnd.nextInt(100)))
                // Only the operator takes origins down: the detector's own aborts would need their own bookkeeping.
                .downAfterFailures(0)
                .connectTimeout(Duration.ofMinutes(10))
                .listener(user).borrowObserver(user).labeling(user)
                .sizing(adaptive ? Sizing.ADAPTIVE : Sizing.FIXED)
                .config());
    }

    /** Runs the history and its checks; returns what they saw broken (empty: none). */
    List<String> run() throws InterruptedException {
        try {
            Thread monitor = start("monitor", this::monitor);
            int n = maxSize + 2 + rnd.nextInt(4);
            List<Thread> workers = new ArrayList<>();
            Phaser waves = new Phaser(n);
            int waveOps = 2 + rnd.nextInt(9);
            for (int i = 0; i < n; i++) {
                Random r = new Random(scramble(seed * 1_000_003L + i));
                int ops = 80 + r.nextInt(120);
                workers.add(start("worker-" + i, () -> {
                    try {
                        work(r, ops, waves, waveOps);
                    } finally {
                        waves.arriveAndDeregister();
                    }
                }));
            }
            operate(workers);
            // Past workUntil a worker only finishes the borrow it is in (at most the borrow timeout).
            long joinBy = workUntil + BORROW_TIMEOUT.toNanos() + SETTLE_NANOS;
            for (Thread w : workers) {
                w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
                if (w.isAlive()) {
                    violation("worker " + w.getName() + " still running past its deadline");
                }
            }
            running = false;
            monitor.join();
            if (violations.isEmpty()) {
                atRest();
            }
        } finally {
            running = false;
            closePool();
        }
        if (violations.isEmpty()) {
            afterClose();
        }
        return List.copyOf(violations);
    }

    String summary() {
        return "maxSize " + maxSize + ", cap b " + capB + (adaptive ? ", adaptive limits " + pool.limits().stream()
                .map(l -> l.origin() + " " + l.limit()).toList() + ", most held back " + mostHeldBack : "")
                + ", borrows " + borrows.get() + ", timeouts "
                + timeouts.get() + ", taken back " + takenBack.get() + ", errors thrown " + user.thrown()
                + ", opened " + (a.opened() + b.opened());
    }

    // ---- the operator ---------------------------------------------------------------------------------------

    /** What the operator does for a stretch of its calls. */
    private enum Stretch {
        /** Every call: origin state changes, drains, suspends, rebalances, clock moves, interrupts. */
        CHAOS,
        /** Origins UP and left alone, the clock moving: any borrow taken back now was judged by a timer. */
        TIMERS,
        /** Nothing at all: between the workers' waves the pool is quiet, so a lost wake-up shows. */
        STILL
    }

    private void operate(List<Thread> workers) {
        int ops = 60 + rnd.nextInt(60);
        boolean closeMidway = rnd.nextInt(100) < 25;
        Stretch stretch = Stretch.CHAOS;
        for (int i = 0; i < ops && violations.isEmpty() && workers.stream().anyMatch(Thread::isAlive); i++) {
            try {
                if (i % 15 == 0) {
                    Stretch next = Stretch.values()[rnd.nextInt(3)];
                    if (stretch == Stretch.CHAOS && next != Stretch.CHAOS) {
                        allUp();
                    }
                    stretch = next;
                }
                if (stretch == Stretch.CHAOS) {
                    chaos(workers);
                } else if (stretch == Stretch.TIMERS && rnd.nextInt(100) < 60) {
                    advanceClock();
                }
            } catch (InjectedError expected) {
                // the operator's call reported an event to user code that threw: the pool must cope
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                violation("operator call threw " + e);
            }
            LockSupport.parkNanos(rnd.nextInt(4_000) * 1_000L);
        }
        if (closeMidway) {
            closePool();
        } else {
            // Everything back in service, so at rest nobody waits for an origin the operator left down.
            try {
                allUp();
            } catch (InjectedError expected) {
                pool.operations().markUp("a");
                pool.operations().markUp("b");
            }
        }
    }

    private void chaos(List<Thread> workers) throws InterruptedException {
        String o = rnd.nextBoolean() ? "a" : "b";
        int dice = rnd.nextInt(100);
        if (dice < 25) {
            advanceClock();
        } else if (dice < 33) {
            user.disrupted();
            pool.operations().markDown(o);
        } else if (dice < 48) {
            pool.operations().markUp(o);
        } else if (dice < 54) {
            user.disrupted();
            pool.operations().drain(o, Duration.ofSeconds(rnd.nextInt(20)));
        } else if (dice < 60) {
            pool.weights().rebalance(Map.of("a", rnd.nextInt(4), "b", 1 + rnd.nextInt(3)));
        } else if (dice < 63) {
            pool.weights().rebalanceToConfigured();
        } else if (dice < 70) {
            pool.housekeeper.wake();
        } else if (dice < 74) {
            user.disrupted();
            pool.suspend(Duration.ofMillis(rnd.nextInt(50)));
        } else if (dice < 80) {
            pool.resume();
        } else if (dice < 87) {
            workers.get(rnd.nextInt(workers.size())).interrupt();
        } else if (dice < 93 && adaptive) {
            LimitSnapshot l = pool.limits().get(rnd.nextInt(2));
            if (rnd.nextBoolean()) {
                pool.pinLimit(l.origin(), l.floor() + rnd.nextInt(l.ceiling() - l.floor() + 1));
            } else {
                pool.releaseLimit(l.origin());
            }
        }
    }

    /** Past the keepalive, leak, abandoned and time-to-live timers, or not, at random. */
    private void advanceClock() {
        long[] steps = {1, 10, 35, 65, 95};
        clock.advance(Duration.ofSeconds(steps[rnd.nextInt(steps.length)]));
        pool.housekeeper.wake();
    }

    private void allUp() {
        pool.resume();
        pool.operations().markUp("a");
        pool.operations().markUp("b");
        pool.weights().rebalanceToConfigured();
    }

    // ---- the workers ----------------------------------------------------------------------------------------

    /** A borrow as its holder knows it: the ticker and the disruption count before the borrow began. */
    private static final class Held {
        final Connection c;
        final StubConnection physical;
        final long tickBefore;
        final long disruptionsBefore;
        boolean noticedEnd;
        boolean reported;

        Held(Connection c, StubConnection physical, long tickBefore, long disruptionsBefore) {
            this.c = c;
            this.physical = physical;
            this.tickBefore = tickBefore;
            this.disruptionsBefore = disruptionsBefore;
        }
    }

    /**
     * A worker's operations. It borrows only with nothing in hand, so workers never wait on each other's borrows
     * (a hold-and-wait cycle would only time out); a connection it keeps spans the operator's calls and clock
     * moves, which is what the timers and the operator's aborts act on.
     */
    private void work(Random r, int ops, Phaser waves, int waveOps) {
        Held kept = null;
        for (int i = 0; i < ops && violations.isEmpty() && System.nanoTime() - workUntil < 0; i++) {
            if (i % waveOps == waveOps - 1) {
                if (kept != null) {
                    end(kept, r);
                    kept = null;
                }
                endOfWave(waves);
            }
            Thread.interrupted();
            try {
                int dice = r.nextInt(100);
                if (kept == null && dice < 75) {
                    Held h = borrow(r);
                    if (h != null) {
                        use(h, r.nextInt(4), r);
                        if (r.nextInt(100) < 80) {
                            end(h, r);
                        } else {
                            kept = h;
                        }
                    }
                } else if (kept != null && dice < 30) {
                    use(kept, 1, r);
                } else if (kept != null && dice < 40) {
                    end(kept, r);
                    kept = null;
                } else {
                    LockSupport.parkNanos(r.nextInt(kept == null ? 1_000 : 5_000) * 1_000L);
                }
            } catch (Throwable t) {
                violation("worker: the pool threw " + t);
            }
        }
        Thread.interrupted();
        if (kept != null) {
            end(kept, r);
        }
    }

    /**
     * Waits for every worker to finish its wave. Between waves the pool is quiet, so a waiter that a lost wake-up
     * left parked beside an AVAILABLE slot stays so, where a busy pool would mask it with the next return.
     */
    private void endOfWave(Phaser waves) {
        int phase = waves.arrive();
        while (violations.isEmpty() && System.nanoTime() - workUntil < 0) {
            try {
                waves.awaitAdvanceInterruptibly(phase, 100, TimeUnit.MILLISECONDS);
                return;
            } catch (InterruptedException operator) {
                // the operator interrupts workers to end their waits: not this one
            } catch (TimeoutException stillRunning) {
                // look at the deadline and the violations again
            }
        }
    }

    private Held borrow(Random r) {
        long tick = clock.nanoTime();
        long disruptions = user.disruptions();
        Connection c;
        try {
            c = r.nextInt(100) < 15 ? pool.borrow(Map.of("tenant", "t" + r.nextInt(2))) : pool.borrow();
        } catch (SQLTransientConnectionException e) {
            timeouts.incrementAndGet();
            return null;
        } catch (SQLException | InjectedError e) {
            progress.incrementAndGet();
            return null;
        }
        progress.incrementAndGet();
        borrows.incrementAndGet();
        PooledConnection lent = (PooledConnection) ((ProxyConnection) c).lease();
        if (lent.heldBack) {
            violation("a connection held back by adaptive sizing lent to " + Thread.currentThread().getName());
        }
        StubConnection physical = (StubConnection) lent.physical;
        Thread other = inUse.putIfAbsent(physical, Thread.currentThread());
        if (other != null) {
            violation("S1: " + physical + " lent to " + Thread.currentThread().getName() + " while "
                    + other.getName() + " uses it");
        }
        Held h = new Held(c, physical, tick, disruptions);
        check(h);
        return h;
    }

    private void use(Held h, int statements, Random r) {
        for (int i = 0; i < statements && check(h); i++) {
            try (Statement st = h.c.createStatement()) {
                st.execute("SELECT 1");
            } catch (SQLException ended) {
                // the borrow may have been taken back meanwhile: check() tells whether that was allowed
            }
            if (r.nextInt(4) == 0) {
                LockSupport.parkNanos(r.nextInt(300) * 1_000L);
            }
        }
    }

    /** Checks a borrow the worker holds; false once it has ended. */
    private boolean check(Held h) {
        boolean physicalClosed = h.physical.isClosed();
        boolean ended;
        try {
            ended = h.c.isClosed();
        } catch (SQLException e) {
            ended = true;
        }
        if (physicalClosed && !ended && !h.reported) {
            h.reported = true;
            // The pool closes a lent connection only after ending the borrow (lease CAS): the proxy must see it.
            violation("S1: the holder's proxy is open on a physical connection the pool closed (" + h.physical + ")");
        }
        if (ended && !h.noticedEnd) {
            h.noticedEnd = true;
            takenBack.incrementAndGet();
            long age = clock.nanoTime() - h.tickBefore;
            if (age < ABANDONED.toNanos() && user.disruptions() == h.disruptionsBefore && !closeRequested
                    && originsUp()) {
                violation("a borrow " + TimeUnit.NANOSECONDS.toSeconds(age) + " s old (ticker) on UP origins was "
                        + "taken back from its holder, younger than any timer (abandoned " + ABANDONED.toSeconds()
                        + " s, time-to-live " + TIME_TO_LIVE.toSeconds() + " s), with no operator call or origin "
                        + "state change since it began; its connection is " + (PooledConnection.isLent(lease(h).stamp())
                        ? "lent to another borrow now (a stale return released it)" : "no longer lent (reclaimed)"));
            }
        }
        return !ended;
    }

    private static PooledConnection lease(Held h) {
        return (PooledConnection) ((ProxyConnection) h.c).lease();
    }

    private void end(Held h, Random r) {
        check(h);
        inUse.remove(h.physical, Thread.currentThread());
        int fate = r.nextInt(100);
        try {
            if (fate < 6) {
                h.c.abort(Runnable::run);
            } else {
                h.c.close();
                if (fate < 12) {
                    h.c.close();
                }
            }
        } catch (SQLException | InjectedError expected) {
            // an abort after a reclaim, or user code on the return path that threw
        } catch (Throwable t) {
            violation("worker: returning threw " + t);
        }
    }

    private boolean originsUp() {
        for (Origin o : pool.origins.configured()) {
            if (o.state() != OriginState.UP) {
                return false;
            }
        }
        return true;
    }

    // ---- checks during and after ----------------------------------------------------------------------------

    private void monitor() {
        long stuckSince = 0;
        long progressThen = 0;
        int samples = 0;
        boolean reported = false;
        while (running) {
            if (!countsBroken) {
                countsBroken = !counts();
            }
            int waiting = pool.table.waiting();
            boolean available = pool.table.count(SlotState.AVAILABLE) > 0 || belowLimit();
            long now = System.nanoTime();
            if (waiting > 0 && available && !closeRequested) {
                long p = progress.get();
                if (stuckSince == 0 || p != progressThen) {
                    stuckSince = now;
                    progressThen = p;
                    samples = 0;
                } else if (++samples >= 100 && now - stuckSince >= STUCK_NANOS && !reported) {
                    reported = true;
                    violation("lost wake-up: " + waiting + " waiting and a slot AVAILABLE (or an origin below its "
                            + "limit) for "
                            + TimeUnit.NANOSECONDS.toMillis(now - stuckSince) + " ms with no borrow ending: "
                            + pool.snapshot().summary());
                }
            } else {
                stuckSince = 0;
            }
            LockSupport.parkNanos(2_000_000L);
        }
    }

    /** Adaptive: every origin UP, one with a weight holding fewer connections than the sessions its limit leaves
     * it (and not backing off), and the pool has room, so a creator owes a waiter a connection. */
    private boolean belowLimit() {
        if (!adaptive || !pool.capacity.hasRoom()) {
            return false;
        }
        boolean below = false;
        for (Origin o : pool.origins.configured()) {
            if (!o.isUp()) {
                return false;
            }
            below |= o.weight > 0 && o.hasRoom(maxSize, clock.nanoTime());
        }
        return below;
    }

    /** S3 and the counts: never negative, never above the pool's or an origin's bound. False if broken. */
    private boolean counts() {
        Capacity cap = pool.capacity;
        int occupied = cap.occupied();
        int creating = cap.creating();
        if (occupied < 0 || occupied > maxSize || creating < 0) {
            violation("S3: occupied " + occupied + ", creating " + creating + ", maxSize " + maxSize);
            return false;
        }
        for (Origin o : pool.origins.configured()) {
            int oo = o.occupied.get();
            int oc = o.creating.get();
            // The configured cap: a lowered adaptive limit holds connections back as they come back, not at once.
            int configuredCap = o.configuredCap(maxSize);
            if (oo < 0 || oc < 0 || oo > configuredCap) {
                violation("S3: origin " + o.name + " occupied " + oo + ", creating " + oc + ", cap "
                        + configuredCap);
                return false;
            }
        }
        for (LimitSnapshot l : pool.limits()) {
            mostHeldBack = Math.max(mostHeldBack, l.heldBack());
            if (l.limit() < l.floor() || l.limit() > l.ceiling()) {
                violation("limit out of its bounds: " + l);
                return false;
            }
        }
        return true;
    }

    /** Workers done, origins back UP: the pool must come to rest with its counts agreeing with the drivers'. */
    private void atRest() {
        if (closeRequested) {
            return;
        }
        boolean rest = settle(() -> {
            PoolSnapshot s = pool.snapshot();
            return s.borrowed() == 0 && s.creating() == 0 && s.closing() == 0 && s.waiting() == 0
                    && pool.closer.pending() == 0;
        });
        if (!rest) {
            violation("not at rest with every worker done: " + pool.snapshot().summary() + ", table "
                    + slotStates() + " (a slot BORROWED by nobody, or a waiter left)");
        }
        if (!countsBroken) {
            counts();
        }
        boolean agree = settle(() -> a.live() == liveSlots("a") && b.live() == liveSlots("b")
                && pool.capacity.occupied() == liveSlots("a") + liveSlots("b")
                && pool.capacity.opened() - pool.capacity.closed() == liveSlots("a") + liveSlots("b"));
        if (!agree) {
            violation("S2 at rest: driver a open " + a.live() + " / slots " + liveSlots("a") + ", driver b open "
                    + b.live() + " / slots " + liveSlots("b") + ", pool occupied " + pool.capacity.occupied()
                    + ", pool opened − closed " + (pool.capacity.opened() - pool.capacity.closed()));
        }
    }

    private void afterClose() {
        if (a.maxOpen() > maxSize || b.maxOpen() > (capB == 0 ? maxSize : capB)) {
            violation("S3 by the drivers: at most " + a.maxOpen() + " open on a and " + b.maxOpen() + " on b, maxSize "
                    + maxSize + ", cap b " + capB);
        }
        if (!settle(() -> a.live() + b.live() == 0)) {
            violation("S2 after close(): " + (a.live() + b.live()) + " physical connections still open");
        }
        if (!settle(() -> pool.capacity.occupied() == 0 && pool.capacity.creating() == 0)) {
            violation("after close(): occupied " + pool.capacity.occupied() + ", creating "
                    + pool.capacity.creating());
        }
    }

    private void closePool() {
        closeRequested = true;
        user.disrupted();
        Thread closer = start("close", () -> {
            try {
                pool.close();
            } catch (InjectedError expected) {
                // a listener threw during close(): what it left open is checked after
            }
        });
        try {
            closer.join(TimeUnit.NANOSECONDS.toMillis(SETTLE_NANOS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            violation("close() did not return within 10 s");
        }
    }

    private int liveSlots(String origin) {
        int[] n = {0};
        pool.table.visit((state, e) -> {
            if (e.origin.name.equals(origin) && state != SlotState.EMPTY && state != SlotState.RESERVED) {
                n[0]++;
            }
            return true;
        });
        return n[0];
    }

    private String slotStates() {
        StringBuilder sb = new StringBuilder();
        pool.table.visit((state, e) -> {
            sb.append(e.origin.name).append(':').append(state).append(PooledConnection.isLent(e.stamp()) ? "(lent)" : "").append(' ');
            return true;
        });
        return sb.toString().trim();
    }

    private static boolean settle(BooleanSupplier condition) {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(5_000_000L);
        }
        return true;
    }

    private void violation(String what) {
        if (violations.size() < 20) {
            violations.add("[" + Thread.currentThread().getName() + "] " + what);
        }
    }

    /** Consecutive seeds give java.util.Random nearly the same first numbers: spread them (SplitMix64's finalizer). */
    private static long scramble(long seed) {
        long z = seed * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, "model-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
