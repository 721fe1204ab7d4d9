package dev.slotpool.table;

import dev.slotpool.Ticker;

/**
 * Per-thread turns: the concurrency restriction that keeps a pool under contention both fair and fast.
 *
 * <p>While threads wait, only a thread <em>in its turn</em> may take an available slot ahead of them (besides a
 * waiter's one look right after it enqueues, see {@link SlotTable}'s {@code await}). A thread starts a turn when
 * the queue gives it a slot (by hand-off or after a signal); for {@code turnNanos} (stretched when the queue is
 * short: {@link #turnNanos(int)}), and for at most {@link #borrowsPerTurn} borrows, it then borrows and returns
 * without queueing, so a handful of threads cycle the connections at memory speed while the rest stay parked in
 * arrival order. When its turn is over, its next return hands the slot to the oldest waiter (which starts a turn)
 * and its next borrow joins the back of the queue. A context switch is paid once per turn, not once per borrow, and
 * every waiter gets a turn within (waiters ÷ active threads) × turn. A turn of zero is strict FIFO: every return
 * goes to the oldest waiter.
 *
 * <p>A virtual thread whose turn is over gives up its carrier even when nobody is queued yet, once it has borrowed
 * {@link #MIN_TURN_BORROWS} times since it last did (or since it started): with few carriers, a thread that
 * always finds a free connection would otherwise never let not-yet-started virtual threads run. A thread that
 * borrowed fewer times has not kept its carrier long, or blocked in between: a new virtual thread per request
 * (Spring Boot with {@code spring.threads.virtual.enabled}) borrows once and never parks here (docs/benchmarks.md,
 * "Virtual threads, thread per request"). It parks for a nanosecond rather than calling {@code Thread.yield()}:
 * the yielder goes back on its own carrier's queue ahead of the threads submitted from elsewhere, and one thread
 * kept 4 to 8 times the median's share.
 *
 * <p>The per-thread state is the table's {@link Borrower}, which the table looks up once per call and passes in:
 * only its own thread reads or writes it. Turns are timed on the table's clock, and a caller that has just read it
 * passes the time in: with threads queued, a borrow and a return would otherwise each read the clock twice (the
 * pool's timers and the turn), and at 100 threads over 6 connections the clock is a measurable share of a cycle
 * (docs/benchmarks.md, "One clock read per borrow and per return").
 */
final class Turns {

    static final long NONE = Long.MIN_VALUE;
    /**
     * Borrows a turn may take ahead of the queue, at least. A turn bounded by time alone gives a thread preempted
     * during it a few borrows and one that is not hundreds; bounding it by count too makes every admission worth
     * about the same, so per-thread shares even out, and it keeps the rotation through the queue fast at
     * thousands of waiters (measured: docs/benchmarks.md).
     */
    static final int MIN_TURN_BORROWS = 64;
    /** Borrows a turn may take at most: with few waiters, a turn ends less often, and each end costs a wake. */
    static final int MAX_TURN_BORROWS = 1024;
    /**
     * Borrows in one rotation through the queue, shared among its waiters: the count of a turn is this divided by
     * the waiters when it starts, within the bounds above. A waiter's wait for its next turn then stays about the
     * same from a hundred waiters to a thousand, and a short queue pays one wake per many borrows.
     */
    static final int ROTATION_BORROWS = 65_536;
    /**
     * Turns in one rotation through a short queue: a turn lasts {@code turnNanos} times this divided by the
     * waiters when it starts, but no longer than {@link #MAX_STRETCHED_TURN_NANOS} and never shorter than
     * {@code turnNanos}. A connection held longer than a turn (a real query) changes threads at every return, and
     * with a few waiters on a busy machine those switches cost more throughput than a longer turn costs their
     * waits (docs/benchmarks.md, "Turns stretched for a short queue"). From 51 waiters up a turn is not
     * stretched, so long queues keep their near-FIFO tail.
     */
    static final int ROTATION_TURNS = 100;
    /** The longest a short queue stretches a turn to (with the default turn, for 5 waiters or fewer); a longer
     * {@code turnNanos} is kept as configured. */
    static final long MAX_STRETCHED_TURN_NANOS = 5_000_000;
    /** {@code java.lang.VirtualThread} on JDKs that have it, else null (the engine compiles for Java 17). */
    private static final Class<?> VIRTUAL_THREAD = virtualThreadClass();

    private final long turnNanos;
    /** The table's clock: turns end on the time its borrow deadlines are set on. */
    private final Ticker clock;

    Turns(long turnNanos, Ticker clock) {
        this.turnNanos = turnNanos;
        this.clock = clock;
    }

    /** Whether the thread of {@code b} is in its turn (time and borrows left) at {@code now} (the table's clock). */
    static boolean inTurn(Borrower b, long now) {
        return b.turnEnds != NONE && b.turnBorrowsLeft > 0 && now - b.turnEnds < 0;
    }

    /** Whether the thread of {@code b} may borrow ahead of the queue at {@code now}; if so, counts the borrow against
     * its turn. */
    static boolean takeTurnBorrow(Borrower b, long now) {
        if (inTurn(b, now)) {
            b.turnBorrowsLeft--;
            return true;
        }
        return false;
    }

    /** Starts the turn of {@code b}'s thread (it was just given a slot by the queue, behind which {@code waiting}
     * wait). */
    void begin(Borrower b, int waiting) {
        start(b, borrowsPerTurn(waiting), turnNanos(waiting), clock.nanoTime());
    }

    private static void start(Borrower b, int borrows, long nanos, long now) {
        b.turnEnds = nanos == 0 ? NONE : now + nanos;
        b.turnBorrowsLeft = borrows;
    }

    /** How long a turn lasts when it starts with {@code waiting} threads queued (0: strict FIFO). */
    long turnNanos(int waiting) {
        long stretched = turnNanos * (ROTATION_TURNS / Math.max(1, waiting));
        return Math.max(turnNanos, Math.min(stretched, MAX_STRETCHED_TURN_NANOS));
    }

    static int borrowsPerTurn(int waiting) {
        return Math.max(MIN_TURN_BORROWS, Math.min(MAX_TURN_BORROWS, ROTATION_BORROWS / Math.max(1, waiting)));
    }

    /**
     * On a virtual thread, counts a borrow taken with nobody waiting; once the thread has borrowed
     * {@link #MIN_TURN_BORROWS} times since it last gave up its carrier and its turn is over: give it up once, then
     * start a new turn. The clock is read only once the count is reached.
     */
    void yieldIfVirtualAndDue(Borrower b) {
        if (VIRTUAL_THREAD == null || Thread.currentThread().getClass() != VIRTUAL_THREAD) {
            return;
        }
        if (++b.borrowsSinceYield >= MIN_TURN_BORROWS && !inTurn(b, clock.nanoTime())) {
            Parking.park(1);
            b.borrowsSinceYield = 0;
            start(b, MIN_TURN_BORROWS, turnNanos, clock.nanoTime());
        }
    }

    private static Class<?> virtualThreadClass() {
        try {
            return Class.forName("java.lang.VirtualThread");
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
