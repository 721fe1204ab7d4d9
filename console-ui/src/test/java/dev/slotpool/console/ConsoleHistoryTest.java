package dev.slotpool.console;

import dev.slotpool.LimitSnapshot;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.console.ConsoleViews.HistoryPoint;
import dev.slotpool.console.ConsoleViews.HistoryValues;
import dev.slotpool.console.ConsoleViews.Percentiles;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static dev.slotpool.console.ConsoleTestSupport.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** The chart's history: a bounded ring of one-second points, rates from the borrow counts, per origin. */
class ConsoleHistoryTest {

    private static final long T0 = 1_700_000_000_000L; // a whole second, epoch milliseconds

    /** Manual clocks and a pool whose snapshot the test sets. */
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong millis = new AtomicLong(T0);
    private final AtomicReference<PoolSnapshot> snapshot = new AtomicReference<>(pool(0, 0, 0));
    /** The pool's adaptive limits: none (fixed sizing) unless a test sets them. */
    private final AtomicReference<List<LimitSnapshot>> limits = new AtomicReference<>(List.of());

    private ConsoleHistory history(WaitPercentiles waits) {
        return new ConsoleHistory(snapshot::get, limits::get, waits, nanos::get, millis::get);
    }

    /** Moves both clocks by {@code ms}. */
    private void advance(long ms) {
        nanos.addAndGet(ms * 1_000_000L);
        millis.addAndGet(ms);
    }

    @Test
    void theRingKeepsItsCapacityNewestLast() {
        HistoryRing ring = new HistoryRing(ConsoleHistory.SECONDS);
        for (int i = 0; i < ConsoleHistory.SECONDS + 50; i++) {
            ring.put(point(T0 + i * 1000L));
        }
        List<HistoryPoint> points = ring.since(0);
        assertThat(points).hasSize(ConsoleHistory.SECONDS);
        assertThat(points.get(0).at()).as("oldest kept").isEqualTo(T0 + 50_000L);
        assertThat(points.get(points.size() - 1).at()).isEqualTo(T0 + (ConsoleHistory.SECONDS + 49) * 1000L);
        for (int i = 1; i < points.size(); i++) {
            assertThat(points.get(i).at() - points.get(i - 1).at()).isEqualTo(1000L);
        }
        assertThat(ring.since(T0 + 900_000L)).as("from a time on").hasSize(50);
    }

    @Test
    void onePointASecondAndALaterSampleOfTheSameSecondReplacesIt() {
        ConsoleHistory h = history(WaitPercentiles.NONE);
        h.sample();
        advance(400);
        snapshot.set(pool(1, 5, 0));
        h.sample(); // same second: replaces
        advance(600);
        h.sample();
        advance(1300);
        h.sample();
        List<HistoryPoint> points = h.history().points();
        assertThat(points).extracting(HistoryPoint::at).containsExactly(T0, T0 + 1000, T0 + 2000);
        assertThat(points.get(0).pool().waiting()).as("the later sample of the first second").isEqualTo(1);
        assertThat(h.history().intervalMillis()).isEqualTo(1000L);
        assertThat(h.history().capacity()).isEqualTo(900);
    }

    @Test
    void ratesAreBorrowsPerSecondBetweenSamplesForThePoolAndEachOrigin() {
        ConsoleHistory h = history(WaitPercentiles.NONE);
        h.sample();
        assertThat(h.history().points().get(0).pool().borrowRate()).as("no rate before a second sample").isZero();
        advance(1000);
        snapshot.set(pool(0, 70, 30)); // 100 borrows in a second: 70 on east, 30 on west
        h.sample();
        advance(2000);
        snapshot.set(pool(0, 70, 50)); // 20 more on west over two seconds
        h.sample();
        List<HistoryPoint> points = h.history().points();
        assertThat(points).hasSize(3);
        assertThat(points.get(1).pool().borrowRate()).isEqualTo(100.0);
        assertThat(points.get(1).origins().get("east").borrowRate()).isEqualTo(70.0);
        assertThat(points.get(1).origins().get("west").borrowRate()).isEqualTo(30.0);
        assertThat(points.get(2).pool().borrowRate()).isEqualTo(10.0);
        assertThat(points.get(2).origins().get("east").borrowRate()).isZero();
        assertThat(points.get(2).origins().get("west").borrowRate()).isEqualTo(10.0);
        assertThat(points.get(2).at() - points.get(1).at()).as("a missed second leaves a gap").isEqualTo(2000L);
    }

    @Test
    void eachOriginHasItsConnectionsByStateAndWaitP99TheWaitingCountIsThePools() {
        WaitPercentiles waits = (pool, origin) -> "east".equals(origin) ? new Percentiles(1.0, 12.5)
                : new Percentiles(0.5, 3.0);
        ConsoleHistory h = history(waits);
        snapshot.set(pool(4, 0, 0));
        h.sample();
        HistoryPoint p = h.history().points().get(0);
        assertThat(p.origins().keySet()).containsExactly("east", "west");
        HistoryValues east = p.origins().get("east");
        assertThat(east).isEqualTo(new HistoryValues(0.0, null, 12.5, 1, 2, 1, 0, null, null));
        assertThat(p.origins().get("west")).isEqualTo(new HistoryValues(0.0, null, 3.0, 3, 0, 0, 1, null, null));
        assertThat(p.pool()).as("the pool: waiting, the slowest origin's p99, its counts")
                .isEqualTo(new HistoryValues(0.0, 4, 12.5, 4, 2, 1, 1, null, null));
        ConsoleHistory none = history(WaitPercentiles.NONE);
        none.sample();
        assertThat(none.history().points().get(0).pool().waitP99Millis()).as("without a registry").isNull();
    }

    @Test
    void underAdaptiveSizingEachOriginHasItsLimitAndHeldBackThePoolTheirSum() {
        ConsoleHistory h = history(WaitPercentiles.NONE);
        limits.set(List.of(limit("east", 4, 1), limit("west", 6, 0)));
        h.sample();
        advance(1000);
        limits.set(List.of(limit("east", 2, 2), limit("west", 7, 0)));
        h.sample();
        List<HistoryPoint> points = h.history().points();
        assertThat(points).hasSize(2);
        assertThat(points.get(0).origins().get("east")).isEqualTo(new HistoryValues(0.0, null, null, 1, 2, 1, 0, 4, 1));
        assertThat(points.get(0).origins().get("west")).isEqualTo(new HistoryValues(0.0, null, null, 3, 0, 0, 1, 6, 0));
        assertThat(points.get(0).pool().limit()).as("the pool's: its origins' summed").isEqualTo(10);
        assertThat(points.get(0).pool().heldBack()).isEqualTo(1);
        assertThat(points.get(1).origins().get("east").limit()).as("a lowered limit").isEqualTo(2);
        assertThat(points.get(1).origins().get("east").heldBack()).isEqualTo(2);
        assertThat(points.get(1).pool().limit()).isEqualTo(9);
        assertThat(points.get(1).pool().heldBack()).isEqualTo(2);
    }

    @Test
    void underFixedSizingNoPointHasALimit() {
        ConsoleHistory h = history(WaitPercentiles.NONE);
        h.sample();
        HistoryPoint p = h.history().points().get(0);
        assertThat(p.pool().limit()).isNull();
        assertThat(p.pool().heldBack()).isNull();
        assertThat(p.origins().values()).allSatisfy(v -> {
            assertThat(v.limit()).isNull();
            assertThat(v.heldBack()).isNull();
        });
    }

    @Test
    void pointsOlderThanFifteenMinutesAreNotAnswered() {
        ConsoleHistory h = history(WaitPercentiles.NONE);
        h.sample();
        advance(899_000);
        h.sample();
        assertThat(h.history().points()).hasSize(2);
        advance(1000);
        assertThat(h.history().points()).as("the first point is 900 s old").hasSize(1);
    }

    @Test
    void theSamplerSamplesEveryPoolUntilClosed() throws InterruptedException {
        AtomicInteger samples = new AtomicInteger();
        ConsoleHistory counting = new ConsoleHistory(() -> {
            samples.incrementAndGet();
            return snapshot.get();
        }, List::of, WaitPercentiles.NONE, System::nanoTime, System::currentTimeMillis);
        ConsoleHistory failing = new ConsoleHistory(() -> {
            throw new IllegalStateException("pool closed");
        }, List::of, WaitPercentiles.NONE, System::nanoTime, System::currentTimeMillis);
        ConsoleSampler sampler = new ConsoleSampler(List.of(failing, counting), Duration.ofMillis(10));
        try {
            await(() -> samples.get() >= 3, "three samples despite the failing pool");
            assertThat(counting.history().points()).isNotEmpty();
        } finally {
            sampler.close();
        }
        await(sampler::stopped, "the sampler's thread stopped");
        int after = samples.get();
        Thread.sleep(50);
        assertThat(samples.get()).as("no sample after close").isEqualTo(after);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("never: " + what);
            }
            Thread.sleep(10);
        }
    }

    private static HistoryPoint point(long at) {
        HistoryValues v = new HistoryValues(0, 0, null, 0, 0, 0, 0, null, null);
        return new HistoryPoint(at, v, Map.of());
    }

    /** An origin's limit between 1 and 12, moved by the controller. */
    private static LimitSnapshot limit(String origin, int limit, int heldBack) {
        return new LimitSnapshot(origin, limit, 1, 12, 0, heldBack, "held time steady", 800, List.of());
    }

    /** Two origins: east (1 available, 2 borrowed, 1 creating), west (3 available, 1 closing). */
    private static PoolSnapshot pool(int waiting, long eastBorrows, long westBorrows) {
        OriginSnapshot east = new OriginSnapshot("east", "jdbc:stub:east", null, null, null, null, OriginState.UP,
                "configured", false, 50, 50, 50, 3, 1, 2, 1, 0, eastBorrows, 0, 0, 0, 0, List.of());
        OriginSnapshot west = new OriginSnapshot("west", "jdbc:stub:west", null, null, null, null, OriginState.UP,
                "configured", false, 50, 50, 50, 4, 3, 0, 0, 1, westBorrows, 0, 0, 0, 0, List.of());
        return new PoolSnapshot("history", false, 2, 10, 7, 4, 2, 1, 1, waiting, 0, eastBorrows + westBorrows, 0,
                7, 0, Optional.empty(), List.of(east, west));
    }
}
