package dev.slotpool.table;

import dev.slotpool.testsupport.OwnThread;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's {@code onShortage} runs after the borrower is enqueued (the creators must see it counted). Whatever
 * it throws, the borrower leaves the queue: no waiter stays counted in {@code waiting()} and no node is left to
 * take the next hand-off for a thread that is no longer waiting.
 */
class ShortageThrowsTest {

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void anErrorFromOnShortageOnceQueuedLeavesNoGhostWaiter() throws Exception {
        SlotTable<String> table = new SlotTable<>(1, 0);
        Slot<String> slot = table.reserve();
        slot.publishBorrowed("only"); // the test holds it as a borrower would

        // The second call is the one made once enqueued (the first comes before the revisits).
        AtomicInteger shortages = new AtomicInteger();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread failing = new Thread(() -> {
            try {
                table.borrow(System.nanoTime() + TIMEOUT_NANOS, null, () -> {
                    if (shortages.incrementAndGet() == 2) {
                        throw new Error("boom");
                    }
                });
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        failing.start();
        failing.join(20_000);
        assertThat(failing.isAlive()).isFalse();
        assertThat(thrown.get()).hasMessage("boom");
        assertThat(table.waiting()).as("waiters counted after the failed borrow left").isZero();

        CompletableFuture<Slot<String>> next =
                OwnThread.supply(() -> table.borrow(System.nanoTime() + TIMEOUT_NANOS, null, () -> { }));
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (table.waiting() < 1 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        table.release(slot); // strict FIFO: handed to the oldest waiter still waiting
        assertThat(next.get(20, TimeUnit.SECONDS)).as("the next waiter got the returned slot").isSameAs(slot);
        assertThat(table.waiting()).isZero();
    }
}
