package dev.slotpool.table;

import dev.slotpool.SlotState;
import dev.slotpool.Ticker;
import dev.slotpool.testsupport.OwnThread;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table with a shared filter (docs/architecture.md, "Reads to standbys"): a reserved entry is never handed to a
 * waiter, published to one, or taken by an ordinary scan; only {@link SlotTable#tryBorrowReserved} takes it, ahead
 * of waiters.
 */
class ReservedEntriesTest {

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private final SlotTable<String> table = new SlotTable<>(3, 0, Ticker.SYSTEM, e -> !e.startsWith("standby"));

    private CompletableFuture<Slot<String>> waitingBorrower() {
        CompletableFuture<Slot<String>> borrowed =
                OwnThread.supply(() -> table.borrow(System.nanoTime() + TIMEOUT_NANOS, null, () -> { }));
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (table.waiting() < 1 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(table.waiting()).isEqualTo(1);
        return borrowed;
    }

    @Test
    void aWaiterIsHandedOnlySharedEntries() throws Exception {
        Slot<String> primary = table.reserve();
        primary.publishBorrowed("primary"); // held by the test, as a borrower would
        Slot<String> standby = table.reserve();
        table.publish(standby, "standby-1");
        assertThat(standby.state()).as("published to no one").isEqualTo(SlotState.AVAILABLE);

        CompletableFuture<Slot<String>> writer = waitingBorrower();
        Slot<String> read = table.tryBorrowReserved(e -> e.startsWith("standby"));
        assertThat(read).as("taken ahead of the waiter: it could not take it").isSameAs(standby);
        table.release(read);
        assertThat(standby.state()).as("a reserved entry's release hands nothing").isEqualTo(SlotState.AVAILABLE);

        Slot<String> another = table.reserve();
        table.publish(another, "standby-2");
        assertThat(another.state()).isEqualTo(SlotState.AVAILABLE);
        assertThat(writer).as("still waiting: nothing it may take").isNotDone();

        table.release(primary);
        assertThat(writer.get(20, TimeUnit.SECONDS)).isSameAs(primary);
        assertThat(table.waiting()).isZero();
        assertThat(table.tryBorrow(null)).as("an ordinary scan skips reserved entries, nobody waiting").isNull();
        assertThat(table.tryBorrowReserved(e -> e.startsWith("standby"))).isNotNull();
    }
}
