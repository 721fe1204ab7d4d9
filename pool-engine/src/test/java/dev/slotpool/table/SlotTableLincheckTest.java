package dev.slotpool.table;

import dev.slotpool.SlotState;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Lincheck on the slot table's non-blocking API ({@code reserve}, {@code publish}, {@code cancel},
 * {@code tryBorrow}, {@code release}, the pool's own {@code tryHold}/{@code releaseHeld} and {@code tryCloseIdle}
 * (entry-checked), {@code closeOwned}, {@code empty}); the parking {@code borrow} is left to the pool tests.
 *
 * <p>Each operation is one call into the table, so it has one linearization point, and a thread keeps what it
 * owns between operations. Composite operations (create = reserve + publish, borrow-and-release, close-idle =
 * tryCloseIdle + empty) are not linearizable, by design: their RESERVED, BORROWED, HELD and CLOSING phases are
 * visible to other threads (a borrow-and-release that overlaps another can fail although the other's succeeds).
 *
 * <p>Two models:
 * <ul>
 *   <li>{@link OneSlot}: capacity 1, checked for linearizability against itself run sequentially. With one slot
 *       every result is deterministic given the order (the scan's random start has one choice), so values are
 *       compared exactly.</li>
 *   <li>{@link ThreeSlots}: capacity 3. A borrow scans from a random slot, so which entry it gets does not follow
 *       from the order, and the wait-free scan may miss a slot that becomes available behind it (S5: skip, never
 *       wait). Results are therefore not compared (operations return nothing); instead every operation asserts S1
 *       (at most one owner per slot) as it takes a slot, and {@link ThreeSlots#consistent()} checks that states,
 *       entries and owners agree whenever no operation is running.</li>
 * </ul>
 * Either fails if {@link Slot#tryBorrow()} stops being a CAS (read AVAILABLE, then store BORROWED).
 *
 * <p>Bounds are small (3 threads, 2 operations each, 200 interleavings per scenario) so the class runs in well
 * under a minute on a loaded 2-core machine. With tryBorrow or tryCloseIdle made a plain read-then-store,
 * both model-checking tests fail within 8 iterations (ThreeSlots alone for tryReserve), so 30 leave a margin.
 */
public class SlotTableLincheckTest {

    /** Parallel threads in every scenario. */
    private static final int THREADS = 3;
    /** {@link ThreadIdGen}: 0 is the init part, 1..THREADS the parallel threads, THREADS + 1 the post part. */
    private static final int THREAD_IDS = THREADS + 2;
    /** Entries put in the table before a scenario starts, so borrows and closes race from the first step. */
    private static final int FIRST_ENTRY = 100;

    @Test
    void oneSlotIsLinearizableUnderModelChecking() {
        new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(200)
                .threads(THREADS)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1)
                .check(OneSlot.class);
    }

    @Test
    void oneSlotIsLinearizableUnderStress() {
        new StressOptions()
                .iterations(10)
                .invocationsPerIteration(500)
                .threads(THREADS)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1)
                .check(OneSlot.class);
    }

    @Test
    void threeSlotsNeverHaveTwoOwnersUnderModelChecking() {
        new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(200)
                .threads(THREADS)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1)
                .check(ThreeSlots.class);
    }

    /**
     * Capacity 1, starting with one AVAILABLE entry. Results: the slot index (reserve, cancel), the entry's value
     * (the others), or -1 when the table or the calling thread's state refuses.
     */
    @Param(name = "tid", gen = ThreadIdGen.class)
    @Param(name = "value", gen = IntGen.class, conf = "1:2")
    public static final class OneSlot {
        private final Harness h = new Harness(1, 1);

        @Operation
        public int reserve(@Param(name = "tid") int tid) {
            return h.reserve(tid);
        }

        @Operation
        public int publish(@Param(name = "tid") int tid, @Param(name = "value") int value) {
            return h.publish(tid, value);
        }

        @Operation
        public int cancel(@Param(name = "tid") int tid) {
            return h.cancel(tid);
        }

        @Operation
        public int borrow(@Param(name = "tid") int tid) {
            return h.borrow(tid);
        }

        @Operation
        public int release(@Param(name = "tid") int tid) {
            return h.release(tid);
        }

        @Operation
        public int hold(@Param(name = "tid") int tid) {
            return h.hold(tid);
        }

        @Operation
        public int releaseHeld(@Param(name = "tid") int tid) {
            return h.releaseHeld(tid);
        }

        @Operation
        public int closeIdle(@Param(name = "tid") int tid) {
            return h.closeIdle(tid);
        }

        @Operation
        public int retire(@Param(name = "tid") int tid) {
            return h.retire(tid);
        }

        @Validate
        public void consistent() {
            h.checkConsistent();
        }
    }

    /** Capacity 3, starting with one AVAILABLE entry and two EMPTY slots; results are not compared (see above). */
    @Param(name = "tid", gen = ThreadIdGen.class)
    @Param(name = "value", gen = IntGen.class, conf = "1:2")
    public static final class ThreeSlots {
        private final Harness h = new Harness(3, 1);

        @Operation
        public void reserve(@Param(name = "tid") int tid) {
            h.reserve(tid);
        }

        @Operation
        public void publish(@Param(name = "tid") int tid, @Param(name = "value") int value) {
            h.publish(tid, value);
        }

        @Operation
        public void cancel(@Param(name = "tid") int tid) {
            h.cancel(tid);
        }

        @Operation
        public void borrow(@Param(name = "tid") int tid) {
            h.borrow(tid);
        }

        @Operation
        public void release(@Param(name = "tid") int tid) {
            h.release(tid);
        }

        @Operation
        public void hold(@Param(name = "tid") int tid) {
            h.hold(tid);
        }

        @Operation
        public void releaseHeld(@Param(name = "tid") int tid) {
            h.releaseHeld(tid);
        }

        @Operation
        public void closeIdle(@Param(name = "tid") int tid) {
            h.closeIdle(tid);
        }

        @Operation
        public void retire(@Param(name = "tid") int tid) {
            h.retire(tid);
        }

        @Validate
        public void consistent() {
            h.checkConsistent();
        }
    }

    /**
     * The table plus the test's own record of ownership. A thread owns at most one slot at a time (as a pool
     * thread holds one connection); operations that do not apply to what the thread owns return -1 without
     * touching the table. {@code owners} counts the threads that believe they own each slot: taking ownership
     * increments it and must find 0 (S1), and giving ownership up decrements it before the table store that
     * lets another thread in.
     */
    static final class Harness {
        private final SlotTable<Integer> table;
        @SuppressWarnings("unchecked")
        private final Slot<Integer>[] owned = new Slot[THREAD_IDS];
        private final AtomicIntegerArray owners;

        Harness(int capacity, int prefilled) {
            table = new SlotTable<>(capacity, 0);
            owners = new AtomicIntegerArray(capacity);
            for (int i = 0; i < prefilled; i++) {
                table.publish(table.reserve(), FIRST_ENTRY + i);
            }
        }

        /** EMPTY → RESERVED: returns the slot index. */
        int reserve(int tid) {
            if (owned[tid] != null) {
                return -1;
            }
            Slot<Integer> s = table.reserve();
            if (s == null) {
                return -1;
            }
            take(tid, s, SlotState.RESERVED);
            return s.index();
        }

        /** RESERVED → AVAILABLE with a new entry. */
        int publish(int tid, int value) {
            Slot<Integer> s = ownedIn(tid, SlotState.RESERVED);
            if (s == null) {
                return -1;
            }
            drop(tid, s);
            table.publish(s, value);
            return value;
        }

        /** RESERVED → EMPTY: the connection could not be opened. */
        int cancel(int tid) {
            Slot<Integer> s = ownedIn(tid, SlotState.RESERVED);
            if (s == null) {
                return -1;
            }
            drop(tid, s);
            table.cancel(s);
            return s.index();
        }

        /** AVAILABLE → BORROWED by the scan: returns the entry. */
        int borrow(int tid) {
            if (owned[tid] != null) {
                return -1;
            }
            Slot<Integer> s = table.tryBorrow(null);
            if (s == null) {
                return -1;
            }
            take(tid, s, SlotState.BORROWED);
            return s.entry();
        }

        /** BORROWED → AVAILABLE by the holder: returns the entry. */
        int release(int tid) {
            Slot<Integer> s = ownedIn(tid, SlotState.BORROWED);
            if (s == null) {
                return -1;
            }
            int value = s.entry();
            drop(tid, s);
            table.release(s);
            return value;
        }

        /** AVAILABLE → HELD, as the keepalive does: the first idle slot, entry-checked; returns its entry. */
        int hold(int tid) {
            if (owned[tid] != null) {
                return -1;
            }
            for (int i = 0; i < table.highWater(); i++) {
                Slot<Integer> s = table.slot(i);
                if (s.state() == SlotState.AVAILABLE && table.tryHold(s, s.entry())) {
                    take(tid, s, SlotState.HELD);
                    return s.entry();
                }
            }
            return -1;
        }

        /** HELD → AVAILABLE (or to a waiter) by the pool's own holder: returns the entry. */
        int releaseHeld(int tid) {
            Slot<Integer> s = ownedIn(tid, SlotState.HELD);
            if (s == null) {
                return -1;
            }
            int value = s.entry();
            drop(tid, s);
            table.releaseHeld(s);
            return value;
        }

        /** AVAILABLE → CLOSING, as the housekeeper does: the first idle slot won by CAS; returns its entry. */
        int closeIdle(int tid) {
            if (owned[tid] != null) {
                return -1;
            }
            for (int i = 0; i < table.highWater(); i++) {
                Slot<Integer> s = table.slot(i);
                if (s.state() == SlotState.AVAILABLE && table.tryCloseIdle(s, s.entry())) {
                    take(tid, s, SlotState.CLOSING);
                    return s.entry();
                }
            }
            return -1;
        }

        /** BORROWED or HELD → CLOSING → EMPTY, or CLOSING → EMPTY: the owner closes its connection; returns the entry. */
        int retire(int tid) {
            Slot<Integer> s = owned[tid];
            if (s == null || s.state() == SlotState.RESERVED) {
                return -1;
            }
            if (s.state() == SlotState.BORROWED || s.state() == SlotState.HELD) {
                s.closeOwned();
            }
            drop(tid, s);
            Integer value = s.empty();
            check(value != null, "retired slot " + s.index() + " had no entry");
            return value;
        }

        /** The slot this thread owns, if the owner's view of its state is {@code state}. */
        private Slot<Integer> ownedIn(int tid, SlotState state) {
            Slot<Integer> s = owned[tid];
            return s != null && s.state() == state ? s : null;
        }

        private void take(int tid, Slot<Integer> s, SlotState expected) {
            if (owners.getAndIncrement(s.index()) != 0) {
                // Undo, so the report names this operation rather than the validation that would trip next.
                owners.decrementAndGet(s.index());
                check(false, "S1: slot " + s.index() + " taken by thread " + tid + " while owned by another");
            }
            check(s.state() == expected, "slot " + s.index() + " taken as " + expected + " but is " + s.state());
            check(expected == SlotState.RESERVED || s.entry() != null, "slot " + s.index() + " taken without entry");
            owned[tid] = s;
        }

        private void drop(int tid, Slot<Integer> s) {
            owned[tid] = null;
            owners.decrementAndGet(s.index());
        }

        /** Between operations: every non-idle slot has exactly one recorded owner, and entries match states. */
        void checkConsistent() {
            for (int i = 0; i < table.capacity(); i++) {
                Slot<Integer> s = table.slot(i);
                int recorded = 0;
                for (Slot<Integer> o : owned) {
                    if (o == s) {
                        recorded++;
                    }
                }
                SlotState state = s.state();
                boolean idle = state == SlotState.EMPTY || state == SlotState.AVAILABLE;
                check(recorded == (idle ? 0 : 1), "slot " + i + " in " + state + " has " + recorded + " owners");
                check(owners.get(i) == recorded, "slot " + i + " owner count " + owners.get(i) + " != " + recorded);
                boolean hasEntry = state != SlotState.EMPTY && state != SlotState.RESERVED;
                check((s.entry() != null) == hasEntry, "slot " + i + " in " + state + " has entry " + s.entry());
                check(state == SlotState.EMPTY || i < table.highWater(), "slot " + i + " used above the high water");
            }
        }

        private static void check(boolean ok, String message) {
            if (!ok) {
                throw new IllegalStateException(message);
            }
        }
    }
}
