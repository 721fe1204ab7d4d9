package dev.slotpool.table;

import dev.slotpool.SlotState;
import dev.slotpool.Ticker;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed table of {@code capacity} slots and the threads waiting for one.
 *
 * <p><b>Borrow</b> ({@link #borrow}): scan for an {@code AVAILABLE} slot, starting at the one this thread borrowed
 * last (a new thread at a random one), and CAS it to {@code BORROWED}; a slot that is busy or lost to another CAS
 * is skipped, never waited on (S5). The scan is bounded by the high-water mark of slots ever reserved, so it is
 * wait-free: at most one pass, whatever other threads do. If nothing is free, the borrower revisits a few times
 * (yielding in between), then enqueues itself, looks once more (Dekker against {@link #release}), and parks until
 * its deadline (on the table's {@link Ticker}), a hand-off or a signal.
 *
 * <p><b>Hold</b> ({@link #tryHold}): the table's owner takes an idle entry it chose earlier for itself
 * ({@code HELD}, lent to nobody), then gives it back ({@link #releaseHeld}) or closes it.
 *
 * <p><b>Return</b> ({@link #release}): while threads wait, a returner whose turn is over hands the slot to the
 * oldest waiter (S6, see {@link Turns}); otherwise the slot becomes {@code AVAILABLE}, and the oldest waiter is
 * signalled once, after which it polls the table once per turn until it gets a slot (no lost wake-up, and no
 * wake per return). Return is wait-free but for the waiters it skips that already left, each removed once.
 *
 * <p><b>Reserved entries</b>: a table built with a {@code shared} filter lends the entries it rejects only to
 * {@link #tryBorrowReserved}, a non-waiting look of borrowers that want exactly those (the pool's reads to
 * standbys, docs/architecture.md "Reads to standbys"); scans, hand-offs and signals of every other borrow skip
 * them, so a waiter is never handed an entry it cannot use.
 *
 * @param <T> the entry type; the table never looks inside it
 */
public final class SlotTable<T> {

    /** Revisits before parking (a borrower skips a busy slot and looks again), kept short so waiting costs no CPU. */
    private static final int REVISITS = 2;

    private final Slot<T>[] slots;
    private final WaitQueue waiters;
    private final Turns turns;
    /** How often a signalled head looks at the table while it waits: one turn (0: never, strict FIFO). */
    private final long headPollNanos;
    /** One past the highest slot index ever reserved; scans stop there. Only grows (CAS, creation path). */
    private final AtomicInteger highWater = new AtomicInteger();
    /**
     * Per thread: its last borrowed slot, where its next scan starts (a thread that borrows and returns finds its
     * connection where it left it, still in its cache, and threads with slots of their own do not meet; S5: a
     * busy hinted slot is skipped like any other), and its turn. A new thread starts at its id modulo the table:
     * threads started one after another spread over the slots, and none updates a shared random seed to do so
     * (measurable for a new virtual thread per request: docs/benchmarks.md, "Virtual threads, thread per request").
     */
    private final ThreadLocal<Borrower> borrowers = ThreadLocal.withInitial(
            () -> new Borrower((int) (Thread.currentThread().getId() & Integer.MAX_VALUE)));
    /** Set once by {@link #shutdown()}; waiters read it after each wake. */
    private volatile boolean closed;
    /** Counts {@link #turnAwayWaiters()} calls; a waiter reads it once it is enqueued and again after each wake. */
    private final AtomicInteger turnAways = new AtomicInteger();
    /** The clock of borrow deadlines. */
    private final Ticker clock;
    /**
     * The entries any borrower may take and a waiter may be handed (null: all). The others are reserved: taken
     * only through {@link #tryBorrowReserved}, never handed to a waiter, and a release of one signals nobody.
     */
    private final EntryFilter<? super T> shared;

    /** A table whose borrow deadlines are on the system's clock. */
    public SlotTable(int capacity, long turnNanos) {
        this(capacity, turnNanos, Ticker.SYSTEM);
    }

    /**
     * @param capacity  the number of slots: the pool's maxSize (S3 holds by construction)
     * @param turnNanos how long a thread given a slot by the queue may borrow ahead of it (0 = strict FIFO)
     * @param clock     the clock of {@link #borrow}'s deadline
     */
    public SlotTable(int capacity, long turnNanos, Ticker clock) {
        this(capacity, turnNanos, clock, null);
    }

    /**
     * @param shared the entries every borrower may take and waiters are handed (null: all); read on entries of
     *               slots the caller does not own, so it reads only final or racy-but-benign fields, and a
     *               borrower re-checks what matters once it owns the slot ({@link EntryFilter})
     */
    @SuppressWarnings("unchecked")
    public SlotTable(int capacity, long turnNanos, Ticker clock, EntryFilter<? super T> shared) {
        this.clock = clock;
        this.shared = shared;
        slots = new Slot[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = new Slot<>(i);
        }
        waiters = new WaitQueue();
        turns = new Turns(turnNanos, clock);
        headPollNanos = turnNanos;
    }

    public int capacity() {
        return slots.length;
    }

    /** Threads waiting for a slot now. */
    public int waiting() {
        return waiters.size();
    }

    /** Whether more than {@code n} threads wait and have not been handed a slot yet ({@link #waiting()} counts a
     * handed waiter until it wakes). */
    public boolean moreWaitingThan(int n) {
        return waiters.moreWaitingThan(n);
    }

    /** How long the oldest waiter has waited, in nanoseconds (0 when none waits). */
    public long oldestWaitNanos() {
        return waiters.oldestWaitNanos();
    }

    /** How long threads have been waiting without a break, in nanoseconds (0 when none waits). */
    public long backlogNanos() {
        return waiters.backlogNanos();
    }

    /** One visit of a used slot that holds an entry: the state (read first) and the entry. */
    @FunctionalInterface
    public interface Visitor<T> {
        /** Returns false to end the walk. */
        boolean visit(SlotState state, T entry);
    }

    /**
     * Visits every slot ever used that holds an entry, in index order, until the visitor returns false. Racy
     * reads, for housekeeping, operations and snapshots: the slot may change right after its visit, so whatever
     * the visitor does to it goes through an entry-checked transition ({@link #tryHold(Slot, Object)},
     * {@link #tryCloseIdle(Slot, Object)}) or the entry's own lease.
     */
    public void visit(Visitor<? super T> visitor) {
        int n = highWater.get();
        for (int i = 0; i < n; i++) {
            Slot<T> s = slots[i];
            SlotState state = s.state();
            T entry = s.entry();
            if (entry != null && !visitor.visit(state, entry)) {
                return;
            }
        }
    }

    /** How many used slots are in {@code state} now (racy). */
    public int count(SlotState state) {
        int n = highWater.get();
        int found = 0;
        for (int i = 0; i < n; i++) {
            if (slots[i].state() == state) {
                found++;
            }
        }
        return found;
    }

    /** The slot at an index below {@link #highWater()}. */
    Slot<T> slot(int index) {
        return slots[index];
    }

    /** One past the highest slot index ever used. */
    int highWater() {
        return highWater.get();
    }

    /** BORROWED or HELD → CLOSING by the slot's owner: its connection will not be reused (S2: only the owner
     * closes). */
    public void closeOwned(Slot<T> owned) {
        owned.closeOwned();
    }

    /** CLOSING → EMPTY by the thread that closed the slot's connection: the slot takes a new one. */
    public void empty(Slot<T> closed) {
        closed.empty();
    }

    // ---- creation ----------------------------------------------------------------------------------------

    /**
     * Reserves the lowest empty slot for a new connection, or returns null when every slot is in use (S3: the
     * pool is at maxSize). Lowest-first keeps the scanned range short.
     */
    public Slot<T> reserve() {
        for (Slot<T> s : slots) {
            if (s.state() == SlotState.EMPTY && s.tryReserve()) {
                int top = s.index() + 1;
                for (int hw; (hw = highWater.get()) < top; ) {
                    if (highWater.compareAndSet(hw, top)) {
                        break;
                    }
                }
                return s;
            }
        }
        return null;
    }

    /** Gives up a reservation whose connection could not be opened. */
    public void cancel(Slot<T> reserved) {
        reserved.cancelReservation();
    }

    /** Puts a new entry in a reserved slot: new capacity goes to the oldest waiter, else becomes available (a
     * reserved entry always: no waiter may take it). */
    public void publish(Slot<T> reserved, T entry) {
        if (!isShared(entry)) {
            reserved.publish(entry);
            return;
        }
        if (waiters.size() > 0) {
            reserved.publishBorrowed(entry);
            if (waiters.handOffToOldest(reserved)) {
                return;
            }
            reserved.makeAvailable();
        } else {
            reserved.publish(entry);
        }
        signalIfWaiting();
    }

    /** Puts a new entry in a reserved slot and keeps it (HELD by the caller, lent to nobody), to close it. */
    public void publishHeld(Slot<T> reserved, T entry) {
        reserved.publishHeld(entry);
    }

    /** Stops waiting: every waiter wakes and gets null (the pool then reports it closed). */
    public void shutdown() {
        closed = true;
        waiters.signalAll();
    }

    /**
     * Ends the wait of every thread enqueued before this call: each wakes and gets null, as at its timeout (a slot
     * handed to it first is still its own). For an owner that knows no slot can come before the waiters' deadlines;
     * a borrower that enqueues after this call waits as usual, so the owner checks its own condition once the
     * borrower is enqueued ({@code onShortage}'s second run, {@link #borrow}); one caught between its read of the
     * count and its enqueue is turned away too, and its caller looks again as after a timeout. The count is written
     * before the queue is read, and a waiter reads it before its enqueue and checks it before every park (Dekker):
     * either it sees the new count or it is signalled.
     */
    public void turnAwayWaiters() {
        turnAways.incrementAndGet();
        waiters.signalAll();
    }

    // ---- borrow ------------------------------------------------------------------------------------------

    /** {@link #tryBorrow(EntryFilter, long)} now. */
    public Slot<T> tryBorrow(EntryFilter<? super T> preferred) {
        return tryBorrow(preferred, clock.nanoTime());
    }

    /**
     * An available slot, one that {@code preferred} accepts if there is one, else any (null: any), unless threads
     * are queued and the caller is not in its turn at {@code now} (then null: the caller must queue). One turn
     * check, counted once, for both passes. Wait-free: at most two bounded passes over the table.
     *
     * @param now the table's clock, just read by the caller (see {@link Turns})
     */
    public Slot<T> tryBorrow(EntryFilter<? super T> preferred, long now) {
        Borrower me = borrowers.get();
        return mayTakeAhead(me, now) ? scanPreferring(me, preferred) : null;
    }

    /**
     * One bounded pass for the available slot of lowest {@code cost} ({@code unusable} or more: never), taking a
     * cost-0 slot as soon as it is found, under the same turn rule as {@link #tryBorrow} (S6: a labeled borrow
     * does not take a free slot ahead of waiters unless it is in its turn). Null if none, or if another thread
     * took the chosen slot first. Wait-free.
     */
    public Slot<T> tryBorrowCheapest(java.util.function.ToIntFunction<? super T> cost, int unusable) {
        if (!mayTakeAhead(borrowers.get(), clock.nanoTime())) {
            return null;
        }
        Slot<T> best = null;
        int bestCost = unusable;
        int n = highWater.get();
        for (int i = 0; i < n; i++) {
            Slot<T> s = slots[i];
            if (s.state() != SlotState.AVAILABLE) {
                continue;
            }
            T e = s.entry();
            if (e == null || !isShared(e)) {
                continue;
            }
            int c = cost.applyAsInt(e);
            if (c == 0 && s.tryBorrow()) {
                return s;
            }
            if (c < bestCost) {
                best = s;
                bestCost = c;
            }
        }
        return best != null && best.tryBorrow() ? best : null;
    }

    /**
     * AVAILABLE → HELD for {@code expected} only (ABA guard, S1-S3), by the table's owner for itself: no turn
     * rule, and the entry is lent to nobody. A caller that chose an entry earlier (housekeeper, keepalive, drain)
     * may find its slot emptied and refilled with another entry by the time it CASes. The entry is re-read after
     * the CAS, which acquires the state the entry's publisher stored after writing it: a different entry means the
     * CAS won a new connection, which goes back at once as any return (to the oldest waiter first) and the call
     * returns false.
     */
    public boolean tryHold(Slot<T> s, T expected) {
        if (s.entry() != expected || !s.tryHold()) {
            return false;
        }
        if (s.entry() == expected) {
            return true;
        }
        releaseHeld(s);
        return false;
    }

    /** AVAILABLE → CLOSING for {@code expected} only: {@link #tryHold(Slot, Object)}, then the holder's
     * HELD → CLOSING. The caller closes the entry and empties the slot. */
    public boolean tryCloseIdle(Slot<T> s, T expected) {
        if (!tryHold(s, expected)) {
            return false;
        }
        s.closeOwned();
        return true;
    }

    /**
     * An available slot whose entry {@code filter} accepts, or null: for borrowers of reserved entries (not
     * {@code shared}), whose filter accepts only those. No turn rule: no waiter can be handed a reserved entry, so
     * taking one ahead of waiters passes nobody (S6). Wait-free: one bounded pass.
     */
    public Slot<T> tryBorrowReserved(EntryFilter<? super T> filter) {
        return scan(borrowers.get(), null, filter);
    }

    /** Tells the oldest waiter to look, for entries that became shared while available (a release of a reserved
     * entry signals nobody). */
    public void sharedMayHaveGrown() {
        signalIfWaiting();
    }

    private boolean isShared(T entry) {
        return shared == null || shared.accept(entry);
    }

    /** Whether the thread of {@code me} may take an available slot at {@code now}: nobody waits, or it is in its
     * turn. */
    private boolean mayTakeAhead(Borrower me, long now) {
        if (waiters.size() == 0) {
            turns.yieldIfVirtualAndDue(me);
            return true;
        }
        return Turns.takeTurnBorrow(me, now);
    }

    /** One pass, from where {@code me} borrowed last, for an available slot whose entry both filters accept (null:
     * any). */
    private Slot<T> scan(Borrower me, EntryFilter<? super T> gate, EntryFilter<? super T> filter) {
        int n = highWater.get();
        if (n == 0) {
            return null;
        }
        int i = me.lastSlot % n;
        for (int visited = 0; visited < n; visited++) {
            Slot<T> s = slots[i];
            if (s.state() == SlotState.AVAILABLE) {
                T e = s.entry();
                if (e != null && (gate == null || gate.accept(e)) && (filter == null || filter.accept(e))
                        && s.tryBorrow()) {
                    me.lastSlot = i;
                    return s;
                }
            }
            if (++i == n) {
                i = 0;
            }
        }
        return null;
    }

    /**
     * Borrows a slot, waiting until {@code deadline} (an absolute time on the table's clock, see
     * {@link Ticker}). A slot {@code preferred} accepts is taken first when one is available; otherwise any.
     * Returns the owned slot, or null on timeout, at shutdown or when turned away ({@link #turnAwayWaiters}).
     *
     * @param onShortage the caller's, run when no slot is free and again once enqueued; whatever it throws is
     *                   rethrown, and leaves no waiter behind
     * @throws InterruptedException if the thread is interrupted while waiting; it leaves no waiter behind
     *                              (the caller restores the interrupt status)
     */
    public Slot<T> borrow(long deadline, EntryFilter<? super T> preferred, Runnable onShortage)
            throws InterruptedException {
        Slot<T> s = tryBorrow(preferred);
        return s != null ? s : borrowAfterMiss(deadline, preferred, onShortage);
    }

    /**
     * {@link #borrow}, for a caller whose own {@link #tryBorrow} just found nothing: a second pass at once would
     * cost a scan of the table and find what the first found, so it goes straight to the revisits.
     */
    public Slot<T> borrowAfterMiss(long deadline, EntryFilter<? super T> preferred, Runnable onShortage)
            throws InterruptedException {
        Slot<T> s;
        onShortage.run();
        Borrower me = borrowers.get();
        for (int i = 0; i < REVISITS && mayTakeAhead(me, clock.nanoTime()); i++) {
            Thread.yield();
            s = tryBorrow(preferred);
            if (s != null) {
                return s;
            }
        }
        s = await(me, deadline, preferred, onShortage);
        if (s != null) {
            turns.begin(me, waiters.size());
        }
        return s;
    }

    /** A pass for a shared slot {@code preferred} accepts, then one for any shared slot (no turn check: the
     * caller's). */
    private Slot<T> scanPreferring(Borrower me, EntryFilter<? super T> preferred) {
        Slot<T> s = preferred == null ? null : scan(me, shared, preferred);
        return s != null ? s : scan(me, shared, null);
    }

    private Slot<T> await(Borrower me, long deadline, EntryFilter<? super T> preferred, Runnable onShortage)
            throws InterruptedException {
        Waiter w = new Waiter(Thread.currentThread(), System.nanoTime());
        // Read before the enqueue, so that every turn-away from the moment this waiter is counted differs from it.
        int turnedAway = turnAways.get();
        waiters.enqueue(w);
        try {
            // Tell the creators again now that this waiter is counted: their first look may have come before it.
            onShortage.run();
            // Look again after enqueueing: a slot made available between our last scan and the enqueue was
            // released by a returner that may not have seen us (volatile enqueue, then volatile reads: Dekker).
            // It takes any free slot, even behind older waiters: leaving it to the woken head costs a park and a
            // wake, measured as throughput lost (docs/architecture.md, "Borrow", step 3).
            Slot<T> s = scanWhileQueued(me, w, preferred);
            while (s == null) {
                s = w.handed();
                if (s != null) {
                    return s;
                }
                long remaining = deadline - clock.nanoTime();
                if (remaining <= 0 || closed || turnAways.get() != turnedAway) {
                    return w.cancel() ? null : w.handed();
                }
                // A polling head wakes once per turn on its own: a slot made available by a thread in its turn
                // that then stops borrowing is found within a turn without that thread signalling anyone.
                w.parked = true;
                Parking.park(this, w.polling && headPollNanos > 0 ? Math.min(remaining, headPollNanos)
                        : remaining);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (w.takeSignal()) {
                    w.polling = true;
                }
                if (w.polling) {
                    s = scanWhileQueued(me, w, preferred);
                }
            }
            return s;
        } catch (Throwable t) {
            // An interrupt, or whatever the caller's onShortage threw: stop being a hand-off target before
            // leaving (S1: nothing is handed to a thread that left), and give back a slot handed meanwhile.
            Slot<T> late = w.cancel() ? null : w.handed();
            if (late != null) {
                release(late);
            }
            throw t;
        } finally {
            leave(w);
        }
    }

    /**
     * Unlinks a waiter whose wait is over. A head told to look (signalled, or polling, which returners do not
     * signal) answers for the slots made available meanwhile: however it leaves (a hand-off of another slot, its
     * timeout, an interrupt), if one is still free the next head is told. Dekker with release: the leave is a
     * volatile write before the read of the slots; a returner's store of AVAILABLE precedes its look at the
     * queue's head.
     */
    void leave(Waiter w) {
        waiters.leave(w);
        if ((w.polling || w.signalPending()) && hasAvailable()) {
            waiters.signalHead();
        }
    }

    /** The queue, for same-package tests that play a waiter's part by hand. */
    WaitQueue waiters() {
        return waiters;
    }

    /**
     * Scans for a slot while queued. If one is found, the waiter must also stop being a hand-off target:
     * cancel; if a returner handed a slot first, keep that one and give the found one back.
     */
    private Slot<T> scanWhileQueued(Borrower me, Waiter w, EntryFilter<? super T> preferred) {
        Slot<T> s = scanPreferring(me, preferred);
        if (s == null) {
            return null;
        }
        if (w.cancel()) {
            // Others may be waiting for slots we did not take: the next head is told once and then polls.
            if (hasAvailable()) {
                waiters.signalHead();
            }
            return s;
        }
        Slot<T> handed = w.handed();
        release(s);
        return handed;
    }

    private boolean hasAvailable() {
        int n = highWater.get();
        for (int i = 0; i < n; i++) {
            Slot<T> s = slots[i];
            if (s.state() == SlotState.AVAILABLE) {
                T e = s.entry();
                if (e != null && isShared(e)) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---- return ------------------------------------------------------------------------------------------

    /** {@link #release(Slot, long)} now. */
    public void release(Slot<T> owned) {
        release(owned, clock.nanoTime());
    }

    /**
     * Returns an owned {@code BORROWED} slot whose entry stays usable: to the oldest waiter by hand-off when
     * threads wait and the returner's turn is over at {@code now}, else back to {@code AVAILABLE}, signalling the
     * oldest waiter to look. A reserved entry goes back to {@code AVAILABLE} and signals nobody (no waiter may take
     * it).
     *
     * @param now the table's clock, just read by the caller (see {@link Turns})
     */
    public void release(Slot<T> owned, long now) {
        if (!isShared(owned.entry())) {
            owned.makeAvailable();
            return;
        }
        if (waiters.size() > 0 && !Turns.inTurn(borrowers.get(), now) && waiters.handOffToOldest(owned)) {
            return;
        }
        owned.makeAvailable();
        signalIfWaiting();
    }

    /** Gives back a {@code HELD} slot whose entry stays usable, as {@link #release} does a borrowed one: to the
     * oldest waiter first (as {@code BORROWED}, the state a borrower owns), else back to {@code AVAILABLE}. */
    public void releaseHeld(Slot<T> held) {
        if (!isShared(held.entry())) {
            held.makeAvailable();
            return;
        }
        if (waiters.size() > 0) {
            held.passToBorrower();
            if (waiters.handOffToOldest(held)) {
                return;
            }
        }
        held.makeAvailable();
        signalIfWaiting();
    }

    /** After a volatile store of AVAILABLE: a waiter enqueued before it must be told (Dekker with await). */
    private void signalIfWaiting() {
        if (waiters.size() > 0) {
            waiters.signalHead();
        }
    }
}
