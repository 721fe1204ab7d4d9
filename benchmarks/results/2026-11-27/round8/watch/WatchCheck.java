package dev.slotpool.table;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A thread in its turn makes the only slot available and stops; the parked waiter must get it long before its timeout. */
public class WatchCheck {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 3; i++) {
            SlotTable<String> table = new SlotTable<>(1, TimeUnit.MILLISECONDS.toNanos(500));
            Slot<String> slot = table.reserve();
            slot.publishBorrowed("only");
            CompletableFuture<Slot<String>> turnGot = new CompletableFuture<>();
            CompletableFuture<Void> release = new CompletableFuture<>();
            Thread turn = new Thread(() -> {
                try {
                    Slot<String> s = table.borrow(System.nanoTime() + TimeUnit.SECONDS.toNanos(10), null, () -> { });
                    turnGot.complete(s);
                    release.get();
                    table.release(s); // in its turn: made available, then this thread stops borrowing
                } catch (Exception e) {
                    turnGot.completeExceptionally(e);
                }
            });
            turn.start();
            while (table.waiting() < 1) Thread.sleep(1);
            table.release(slot); // not in a turn: handed to the turn thread, which starts its turn
            turnGot.get(10, TimeUnit.SECONDS);
            CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
                long t0 = System.nanoTime();
                try {
                    Slot<String> s = table.borrow(t0 + TimeUnit.SECONDS.toNanos(8), null, () -> { });
                    return s == null ? -1L : System.nanoTime() - t0;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            while (table.waiting() < 1) Thread.sleep(1);
            Thread.sleep(20); // the waiter parks
            long released = System.nanoTime();
            release.complete(null);
            long w = waited.get(20, TimeUnit.SECONDS);
            System.out.printf("run %d: waiter %s, %.1f ms after the release%n", i, w < 0 ? "TIMED OUT" : "got it",
                    (System.nanoTime() - released) / 1e6);
            table.shutdown();
        }
    }
}
