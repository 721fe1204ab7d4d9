package dev.slotpool.failover;

import dev.slotpool.ServerRole;
import dev.slotpool.kernel.PoolThreads;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Follows the origins' roles (docs/failover.md, "Primary and standbys"). Every new connection's role is judged
 * before it is lent ({@link #admits}); an origin whose server may not take writes is taken out of service with the
 * server's answer as the reason, and from then on watched: a pool thread keeps one session to it (the pool's own,
 * with its room, S3, but neither a creation nor a connection of the table) and reads its role every {@link #CHECK_NANOS}, every {@link #FAST_CHECK_NANOS} while the pool
 * suspects a failover ({@link #suspect}: a primary found dead, a write refused as read-only), and puts it back in
 * service once it takes writes (a promotion). A judgement that changes another origin's standing (a promoted
 * standby outranks the old primary: split brain) is applied to that origin too. Each reading, and each loss of the
 * watch's session, is also told to the origin's side ({@link Watched#read}): a standby kept for reads
 * (docs/architecture.md, "Reads to standbys") takes reads only while its last reading is within the lag bound, so
 * its lag is re-read on the watch's schedule. The session is closed while the origin's status is not one the pool
 * holds by its own findings (drained, marked down by an operator, suspended: {@link Watched#mayHoldSession}) and
 * reopened once it is. A role query that fails on a valid session is no answer: the last verdict stands
 * ({@link OriginRoles#judge}).
 */
public final class RoleWatch {

    /** The pool's side of one origin, as the watch needs it. */
    public interface Watched extends ReceiveProgress.Reachable {
        String name();

        /** Claims room for the watch's session (S3); false when the pool or the origin is full. */
        boolean claimRoom();

        /** Gives back the room of a session that has closed. */
        void releaseRoom();

        /** Whether the origin's status lets the watch keep a session to it: not while it is drained, marked down
         * by an operator or suspended, whose connections all close. */
        boolean mayHoldSession();

        /** Opens a session to the origin's server, with the pool's settings. */
        Connection connect() throws SQLException;

        /** Whether a session can reach this origin's server: not for a discovered origin, whose group's URL picks
         * the server. Such an origin is judged again at each connection that lands on it instead. */
        boolean watchable();

        /** Takes the origin out of service for its role (idempotent; an operator's state wins). */
        void outForRole(String reason);

        /** Puts an origin the role had taken out back in service (only if the role took it out). */
        void backForRole(String reason);

        /** Lends none of the origin's connections to borrows that may write until {@link #releaseWrites}: held
         * from before a reading that refuses writes is stored until its verdict is applied ({@link #outForRole}),
         * so that no borrow that begins once the reading is visible meets the origin as it was. Nests. */
        void holdWrites();

        /** Ends one {@link #holdWrites}. */
        void releaseWrites();

        /** The replica-lag bound its reads are held to, in milliseconds, or -1 when its reads do not depend on its
         * lag (reads to standbys off): then its stream's progress is not followed ({@link ReceiveProgress}). */
        long lagBoundMillis();

        /** The origin's latest reading, after it was judged: from a new connection or the watch's session; null
         * when the watch lost its session, could not open one or closed it for the origin's status (a standby kept
         * for reads then takes none). */
        void read(RoleReading reading);
    }

    /** How often a watched origin's role is read, and how often while a failover is suspected, and how long. */
    static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long FAST_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final long SUSPICION_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final OriginRoles roles;
    private final Function<Runnable, Thread> threads;
    private final Map<String, Watched> origins = new ConcurrentHashMap<>();
    /** The reason each origin is out of service for its role; absent when it serves. */
    private final Map<String, String> out = new ConcurrentHashMap<>();
    private final Map<String, Thread> watchers = new ConcurrentHashMap<>();
    /** Each standby whose stream its watcher found stalled, with how long its receive position had not moved
     * (ms): a new connection's reading of it, which cannot tell, is told so too ({@link #admits}). */
    private final Map<String, Long> stalled = new ConcurrentHashMap<>();
    /** Every watcher started and not seen ended, for {@link #join}: a watcher leaves {@link #watchers} before its
     * thread ends. */
    private final Queue<Thread> started = new ConcurrentLinkedQueue<>();
    private final AtomicLong suspectedUntil = new AtomicLong(System.nanoTime());
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Each watcher runs on a pool thread named for the roles. */
    RoleWatch(OriginRoles roles, PoolThreads threads) {
        this(roles, work -> threads.newThread(work, "roles"));
    }

    /** {@code threads} makes each watcher's thread (tests pass their own). */
    RoleWatch(OriginRoles roles, Function<Runnable, Thread> threads) {
        this.roles = roles;
        this.threads = threads;
    }

    public OriginRoles roles() {
        return roles;
    }

    /** Makes an origin known; only known origins are taken out of service or watched. */
    public void register(Watched origin) {
        origins.put(origin.name(), origin);
    }

    /** Makes an origin known the first time it is named (the pool's discovered origins appear as they land). */
    public void register(String name, java.util.function.Supplier<Watched> side) {
        if (!origins.containsKey(name)) {
            origins.putIfAbsent(name, side.get());
        }
    }

    /**
     * Judges the role read from a new connection ({@link RoleReader#read}, on the pool thread that opened it, S6)
     * and says whether the connection may be lent. If not, its origin is out of service and watched; the caller
     * closes the connection.
     */
    public boolean admits(String origin, RoleReading role) {
        Watched w = origins.get(origin);
        String refusal = judgeAndApply(w, origin, role);
        if (w != null) {
            Long stalledFor = stalled.get(origin);
            boolean lagKnown = role.role() == ServerRole.STANDBY && role.lagMillis() >= 0;
            w.read(stalledFor != null && lagKnown ? ReceiveProgress.stalled(role, stalledFor) : role);
        }
        return refusal == null;
    }

    /** A failover is suspected: watched origins are read every {@link #FAST_CHECK_NANOS} for a while, from now. */
    public void suspect() {
        long until = System.nanoTime() + SUSPICION_NANOS;
        suspectedUntil.accumulateAndGet(until, (a, b) -> b - a > 0 ? b : a);
        look();
    }

    /** Wakes the watchers to look at their origins now: a status changed, so a session may have to close or
     * reopen. */
    public void look() {
        for (Thread t : watchers.values()) {
            LockSupport.unpark(t);
        }
    }

    /**
     * An operator marked the origin up: its current timeline is accepted, so a split brain no longer refuses it; a
     * standby or read-only server is taken out again (an operator cannot make it take writes).
     */
    public void accepted(String origin) {
        roles.accept(origin);
        out.remove(origin);
        applyAll();
    }

    /**
     * Stores the reading ({@link OriginRoles#judge}) and applies what changed; returns the origin's refusal. A
     * reading that refuses writes (a standby, a read-only server) holds the origin's writes from before it is stored
     * until its verdict is applied: the reading is visible to everyone at once, the verdict only once applied.
     */
    private String judgeAndApply(Watched w, String origin, RoleReading reading) {
        boolean hold = w != null && !reading.takesWrites();
        if (hold) {
            w.holdWrites();
        }
        try {
            String refusal = roles.judge(origin, reading);
            applyAll();
            return refusal;
        } finally {
            if (hold) {
                w.releaseWrites();
            }
        }
    }

    /** Compares every known origin's standing with what is applied, and applies the differences: origins back in
     * service first, so a promoted standby serves before the primary it outranks is taken out. A verdict is
     * claimed ({@link #out}) and applied under a hold on the origin's writes: a judging thread that finds it
     * claimed releases its own hold before the claimant has applied it. */
    private void applyAll() {
        for (Watched w : origins.values()) {
            String applied = out.get(w.name());
            if (applied != null && roles.refusal(w.name()) == null && out.remove(w.name(), applied)) {
                RoleReading r = roles.reading(w.name());
                w.backForRole(r == null ? "role: takes writes" : "role: " + r.detail());
            }
        }
        for (Watched w : origins.values()) {
            String refusal = roles.refusal(w.name());
            if (refusal != null) {
                if (!refusal.equals(out.get(w.name()))) {
                    w.holdWrites();
                    try {
                        out.put(w.name(), refusal);
                        w.outForRole(refusal);
                    } finally {
                        w.releaseWrites();
                    }
                }
                startWatching(w);
            }
        }
    }

    /** Starts the origin's watcher unless it runs. Runs on the thread that judged (a creator's, S6, whose steps after
     * the connect must not throw): a thread that cannot be made or started is left for the next judgement. */
    private void startWatching(Watched w) {
        if (closed.get() || !w.watchable() || watchers.containsKey(w.name())) {
            return;
        }
        started.removeIf(t -> t.getState() == Thread.State.TERMINATED);
        Thread t = null;
        try {
            t = threads.apply(() -> watch(w));
            if (watchers.putIfAbsent(w.name(), t) == null) {
                started.add(t);
                // Dekker with close(): it sets closed before join() reads started, this reads closed after the add.
                if (closed.get()) {
                    watchers.remove(w.name(), t);
                    started.remove(t);
                    return;
                }
                t.start();
            }
        } catch (Throwable e) {
            if (t != null) {
                watchers.remove(w.name(), t);
                started.remove(t);
            }
        }
    }

    /** The watch's loop for one origin: ends when the origin serves again or the pool closes. */
    private void watch(Watched w) {
        Connection session = null;
        boolean room = false;
        ReceiveProgress stream = new ReceiveProgress(roles, origins::get, RoleReader.QUERY_TIMEOUT_SECONDS);
        try {
            while (!closed.get() && out.containsKey(w.name())) {
                if (!w.mayHoldSession()) {
                    if (session != null) {
                        closeQuietly(session);
                        session = null;
                        stream.close();
                        w.read(null);
                    }
                    if (room) {
                        room = false;
                        w.releaseRoom();
                    }
                } else if (session == null) {
                    room = room || w.claimRoom();
                    if (room) {
                        session = connect(w);
                        if (session == null) {
                            // No room held for a session that is not there: the pool counts only what exists.
                            room = false;
                            w.releaseRoom();
                            w.read(null);
                        }
                    }
                }
                if (session != null && w.mayHoldSession()) {
                    RoleReading r = read(session);
                    if (r == null || r.role() == ServerRole.UNKNOWN && !valid(session)) {
                        closeQuietly(session);
                        session = null;
                        stream.close();
                        w.read(null);
                    } else {
                        judgeAndApply(w, w.name(), r);
                        w.read(followStream(w, stream, r, session));
                    }
                }
                if (out.containsKey(w.name())) {
                    park();
                }
            }
        } finally {
            watchers.remove(w.name(), Thread.currentThread());
            stalled.remove(w.name());
            stream.close();
            if (session != null) {
                closeQuietly(session);
            }
            if (room) {
                w.releaseRoom();
            }
            // An origin taken out again between the loop's last look and the removal above needs a watcher.
            if (!closed.get() && out.containsKey(w.name())) {
                startWatching(w);
            }
        }
    }

    /** The reading as the standby's reads are judged by: {@code r}, or its lag unknown when its stream stalled. */
    private RoleReading followStream(Watched w, ReceiveProgress stream, RoleReading r, Connection session) {
        long bound = w.lagBoundMillis();
        RoleReading seen = bound < 0 ? r : stream.check(r, session, bound);
        long stalledFor = bound < 0 ? -1 : stream.stalledMillis();
        if (stalledFor >= 0) {
            stalled.put(w.name(), stalledFor);
        } else {
            stalled.remove(w.name());
        }
        return seen;
    }

    private void park() {
        long now = System.nanoTime();
        long wait = suspectedUntil.get() - now > 0 ? FAST_CHECK_NANOS : CHECK_NANOS;
        LockSupport.parkNanos(this, wait);
    }

    /** A session to the origin's server, or null: a driver or credentials provider that throws is a failed connect. */
    private static Connection connect(Watched w) {
        try {
            return w.connect();
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }

    /** The session's role, or null when the driver threw something other than an SQLException. */
    private static RoleReading read(Connection session) {
        try {
            return RoleReader.read(session);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static boolean valid(Connection c) {
        try {
            return c.isValid(1);
        } catch (SQLException e) {
            return false;
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // The session is gone either way; its room is released by the caller.
        }
    }

    /** Stops every watcher and closes their sessions (each on its own thread, as it ends; see {@link #join}). */
    public void close() {
        if (closed.compareAndSet(false, true)) {
            look();
        }
    }

    /** After {@link #close}: waits for the watchers until {@code deadline} (System.nanoTime), then interrupts any
     * left in a driver call, which then end on their own. */
    public void join(long deadline) {
        for (Thread t : started) {
            // A watcher being started (NEW) is waited for too: it sees the pool closed and ends at once.
            while (t.getState() == Thread.State.NEW && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(this, FAST_CHECK_NANOS);
            }
            if (!PoolThreads.joinUntil(t, deadline)) {
                return;
            }
            if (t.isAlive()) {
                t.interrupt();
            }
        }
    }
}
