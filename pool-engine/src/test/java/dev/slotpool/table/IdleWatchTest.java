package dev.slotpool.table;

import dev.slotpool.Ticker;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table's {@link IdleWatch}: a return in a turn while threads wait wakes nobody, and the watch tells the head
 * about a slot left unused, so no waiter parks until its deadline beside a free slot (no lost wake-up, S6).
 */
class IdleWatchTest {

    private static final long WAITER_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private static final ThreadFactory DAEMONS = work -> {
        Thread t = new Thread(work, "idle-watch-test");
        t.setDaemon(true);
        return t;
    };

    @Test
    void aSlotLeftUnusedInATurnReachesTheWaiterThroughTheWatch() throws Exception {
        long turn = TimeUnit.SECONDS.toNanos(2); // long enough that the set-up ends inside the turn
        long period = TimeUnit.SECONDS.toNanos(1);
        SlotTable<String> table = new SlotTable<>(1, turn, Ticker.SYSTEM, null, DAEMONS, period);
        try {
            Slot<String> mine = TurnStart.slotFromTheQueue(table, "only");
            CompletableFuture<Slot<String>> waiter = CompletableFuture.supplyAsync(() -> borrow(table));
            awaitWaiting(table, 1);
            long returned = System.nanoTime();
            table.release(mine); // in its turn, then this thread stops borrowing
            Slot<String> got = waiter.get(30, TimeUnit.SECONDS);
            long waited = System.nanoTime() - returned;

            assertThat(got).as("the waiter got the slot left unused").isSameAs(mine);
            // Not at the return (no signal), but once two looks a period apart saw it unused; the waiter's own
            // timeout is 20 s, so a watch that never told it would fail the first assertion.
            assertThat(waited).as("ns from the return to the waiter's borrow").isGreaterThanOrEqualTo(period);
        } finally {
            table.shutdown();
        }
    }

    @Test
    void aWatchThatCannotStartLeavesReturnsInATurnSignalling() throws Exception {
        long turn = TimeUnit.SECONDS.toNanos(60); // a head polls only every minute: only a signal reaches it in time
        ThreadFactory refusing = work -> {
            throw new IllegalStateException("no thread for the watch");
        };
        SlotTable<String> table = new SlotTable<>(1, turn, Ticker.SYSTEM, null, refusing);
        Slot<String> mine = TurnStart.slotFromTheQueue(table, "only");
        CompletableFuture<Slot<String>> waiter = CompletableFuture.supplyAsync(() -> borrow(table));
        awaitWaiting(table, 1);
        table.release(mine); // in its turn: signals the head, as without a watch
        assertThat(waiter.get(30, TimeUnit.SECONDS)).as("the waiter got the slot").isSameAs(mine);
        assertThat(table.watch().watching()).as("watching").isFalse();
    }

    @Test
    void onlyASlotUnusedFromOneLookToTheNextIsReported() throws Exception {
        SlotTable<String> table = new SlotTable<>(2, TimeUnit.SECONDS.toNanos(60), Ticker.SYSTEM, null, DAEMONS);
        IdleWatch<String> watch = table.watch();
        table.publish(table.reserve(), "a");
        Slot<String> b = table.reserve();
        b.publishBorrowed("b"); // busy throughout

        assertThat(watch.look()).as("first look: nothing seen before").isFalse();
        assertThat(watch.look()).as("a stayed available").isTrue();

        Slot<String> a = table.tryBorrow(null);
        assertThat(a).isNotNull();
        table.release(a);
        assertThat(watch.look()).as("a was borrowed and returned since").isFalse();
        assertThat(watch.look()).as("a unused since the last look").isTrue();

        a = table.tryBorrow(null);
        assertThat(watch.look()).as("a busy").isFalse();
        table.release(a);
        assertThat(watch.look()).as("a available again, not seen so before").isFalse();
    }

    @Test
    void theWatchStartsWithTheFirstWaiterAndEndsAtShutdown() throws Exception {
        AtomicReference<Thread> made = new AtomicReference<>();
        ThreadFactory recording = work -> {
            Thread t = DAEMONS.newThread(work);
            made.set(t);
            return t;
        };
        SlotTable<String> table = new SlotTable<>(1, TimeUnit.MILLISECONDS.toNanos(1), Ticker.SYSTEM, null,
                recording);
        Slot<String> only = table.reserve();
        only.publishBorrowed("only");
        assertThat(made.get()).as("no thread before anyone waits").isNull();

        CompletableFuture<Slot<String>> waiter = CompletableFuture.supplyAsync(() -> borrow(table));
        awaitWaiting(table, 1);
        table.release(only);
        assertThat(waiter.get(30, TimeUnit.SECONDS)).isSameAs(only);
        Thread watch = made.get();
        assertThat(watch).as("the watch's thread").isNotNull();

        table.shutdown();
        watch.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(watch.isAlive()).as("the watch still runs after shutdown").isFalse();
    }

    private static Slot<String> borrow(SlotTable<String> table) {
        try {
            return table.borrow(System.nanoTime() + WAITER_TIMEOUT_NANOS, null, () -> { });
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitWaiting(SlotTable<String> table, int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (table.waiting() < n) {
            assertThat(System.nanoTime() - deadline).as("waiting for %d waiters", n).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
