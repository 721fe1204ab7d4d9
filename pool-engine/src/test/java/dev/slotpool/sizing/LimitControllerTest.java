package dev.slotpool.sizing;

import dev.slotpool.sizing.LimitController.Step;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller as arithmetic: fed synthetic ticks, no pool and no clock. A workload is its throughput at each
 * limit when borrowers always wait (the limit is what stops them); the held time follows by Little's law.
 */
class LimitControllerTest {

    private static final long TICK = LimitController.TICK_NANOS;

    /** 10 ms in pg_sleep or client think time: throughput in step with the limit. */
    private static final IntToDoubleFunction LATENCY = l -> 100.0 * l;

    /** One hot row: every holder beyond the first waits for the lock, so more connections add nothing. */
    private static final IntToDoubleFunction LOCK = l -> 300.0 / (1 + 0.01 * (l - 1));

    /** CPU-bound, as measured on PostgreSQL on two cores (docs/benchmarks.md): a knee at 8, a fall beyond 16. */
    private static final IntToDoubleFunction CPU = l -> switch (Integer.highestOneBit(l)) {
        case 1 -> 450;
        case 2 -> 570;
        case 4 -> 890;
        case 8 -> 1005;
        case 16 -> 1000;
        case 32 -> 840;
        default -> 690;
    };

    /** A run of saturated ticks, optionally with noise on the throughput; what each tick chose. */
    private static final class Run {
        final LimitController c;
        final Random noise;
        final double spread;
        final List<Step> steps = new ArrayList<>();
        /** The borrowing threads: beyond them, nobody waits and the limit lends no more. */
        int threads = Integer.MAX_VALUE;

        Run(LimitController c, long seed, double spread) {
            this.c = c;
            this.noise = new Random(seed);
            this.spread = spread;
        }

        Step tick(IntToDoubleFunction workload) {
            int l = Math.min(c.limit(), threads);
            double x = workload.applyAsDouble(l) * (1 + spread * (2 * noise.nextDouble() - 1));
            long returns = Math.round(x * TICK / 1e9);
            long heldNanos = Math.round(returns * (l / x) * 1e9);
            Step s = c.step(TICK, returns, heldNanos, c.limit() < threads, l, Integer.MAX_VALUE);
            assertThat(s.limit()).isBetween(c.floor(), c.ceiling()).isEqualTo(c.limit());
            steps.add(s);
            return s;
        }

        int ticks(IntToDoubleFunction workload, int n) {
            for (int i = 0; i < n; i++) {
                tick(workload);
            }
            return c.limit();
        }

        /** Ticks until the limit is within [lo, hi] at this tick and the next {@code stay}; how many it took. */
        int ticksUntil(IntToDoubleFunction workload, int lo, int hi, int stay, int most) {
            int inside = 0;
            for (int i = 1; i <= most; i++) {
                int l = tick(workload).limit();
                inside = l >= lo && l <= hi ? inside + 1 : 0;
                if (inside > stay) {
                    return i - stay;
                }
            }
            throw new AssertionError("no settling in [" + lo + ", " + hi + "] within " + most + " ticks: "
                    + steps.subList(Math.max(0, steps.size() - 8), steps.size()));
        }

        /** The throughput the workload gave over the last {@code n} ticks' limits, as a share of its best. */
        double shareOfBest(IntToDoubleFunction workload, int n, int ceiling) {
            double best = 0;
            for (int l = 1; l <= ceiling; l *= 2) {
                best = Math.max(best, workload.applyAsDouble(l));
            }
            double sum = 0;
            for (Step s : steps.subList(steps.size() - n, steps.size())) {
                sum += workload.applyAsDouble(s.limit());
            }
            return sum / n / best;
        }
    }

    @Test
    void aWorkloadThatScalesWithConnectionsGrowsToTheCeilingWithinTenSeconds() {
        Run run = new Run(new LimitController(1, 64), 1, 0);
        int prev = 1;
        int ticks = run.ticksUntil(LATENCY, 64, 64, 4, 40);
        // Doubling once a measured tick: 1 to 64 in 6 doublings, two ticks each.
        assertThat(ticks).isLessThanOrEqualTo(20);
        for (Step s : run.steps) {
            assertThat(s.limit()).isLessThanOrEqualTo(2 * prev);
            prev = s.limit();
        }
        assertThat(run.steps).anyMatch(s -> s.reason().contains("at the ceiling; holding 64"));
    }

    @Test
    void aHotRowSettlesAtTheFloorAndStaysThere() {
        Run run = new Run(new LimitController(1, 64), 2, 0);
        run.ticksUntil(LOCK, 1, 2, 4, 20);
        run.ticks(LOCK, 200);
        // Probes one step up come and go; the limit spends the time at the floor.
        assertThat(run.steps.subList(run.steps.size() - 200, run.steps.size()))
                .filteredOn(s -> s.limit() == 1).hasSizeGreaterThan(160);
        assertThat(run.shareOfBest(LOCK, 200, 64)).isGreaterThan(0.99);
    }

    @Test
    void aCpuBoundServerSettlesAtItsKneeNotAtTheBottomOrTheCeiling() {
        Run run = new Run(new LimitController(1, 64), 3, 0);
        run.ticksUntil(CPU, 8, 16, 4, 30);
        run.ticks(CPU, 200);
        assertThat(run.shareOfBest(CPU, 200, 64)).isGreaterThan(0.97);
        assertThat(run.c.limit()).isBetween(8, 16);
    }

    @Test
    void noiseOnTheThroughputCostsLittleAndNeverLeavesTheBounds() {
        for (long seed = 1; seed <= 20; seed++) {
            for (IntToDoubleFunction w : List.of(LATENCY, LOCK, CPU)) {
                Run run = new Run(new LimitController(1, 64), seed, 0.05);
                run.ticks(w, 300);
                assertThat(run.shareOfBest(w, 200, 64)).as("seed " + seed).isGreaterThan(0.9);
            }
        }
    }

    @Test
    void aTicksNoiseOfAFifthNeverStartsASearch() {
        for (long seed = 1; seed <= 10; seed++) {
            Run run = new Run(new LimitController(1, 64), seed, 0.2);
            run.ticks(LOCK, 300);
            assertThat(run.steps).as("seed " + seed).noneMatch(s -> s.reason().contains("workload changed"));
        }
    }

    @Test
    void neverGrowsWithoutBorrowersWaitingAtTheLimit() {
        LimitController c = new LimitController(1, 64);
        for (int i = 0; i < 50; i++) {
            // Borrowers wait, but the origin lends fewer than its limit (creation lags, or it fails): no demand.
            c.step(TICK, 100, 100 * 10_000_000L, true, c.limit() - 1, Integer.MAX_VALUE);
            c.step(TICK, 100, 100 * 10_000_000L, false, c.limit(), Integer.MAX_VALUE);
        }
        assertThat(c.limit()).isEqualTo(1);
        assertThat(c.step(TICK, 100, 100 * 10_000_000L, false, 1, Integer.MAX_VALUE).reason())
                .contains("no borrower waiting");
    }

    @Test
    void staysWithinItsBoundsAndTheBudgetWhateverItIsFed() {
        Random rnd = new Random(45);
        for (int run = 0; run < 200; run++) {
            int floor = 1 + rnd.nextInt(4);
            int ceiling = floor + rnd.nextInt(100);
            LimitController c = new LimitController(floor, ceiling);
            for (int i = 0; i < 100; i++) {
                int room = rnd.nextInt(4) == 0 ? floor + rnd.nextInt(ceiling - floor + 1) : Integer.MAX_VALUE;
                long returns = rnd.nextInt(3) == 0 ? rnd.nextInt(6) : rnd.nextInt(2_000);
                long interval = rnd.nextInt(10) == 0 ? 10 * TICK : TICK + rnd.nextInt(1_000_000);
                Step s = c.step(interval, returns, returns * (1 + rnd.nextInt(100_000_000)), rnd.nextBoolean(),
                        rnd.nextInt(ceiling + 1), room);
                assertThat(s.limit()).isBetween(floor, Math.max(floor, Math.min(ceiling, room)));
                if (rnd.nextInt(20) == 0) {
                    c.reset(rnd.nextInt(ceiling + 10));
                    assertThat(c.limit()).isBetween(floor, ceiling);
                }
            }
        }
    }

    @Test
    void aPauseOrTooFewReturnsChangeNothing() {
        Run run = new Run(new LimitController(1, 64), 4, 0);
        run.ticksUntil(LATENCY, 16, 64, 0, 20);
        int before = run.c.limit();
        Step pause = run.c.step(10 * TICK, 500, 500 * 10_000_000L, true, before, Integer.MAX_VALUE);
        assertThat(pause.limit()).isEqualTo(before);
        assertThat(pause.reason()).contains("a pause");
        Step few = run.c.step(TICK, 3, 3 * 10_000_000L, true, before, Integer.MAX_VALUE);
        assertThat(few.limit()).isEqualTo(before);
        assertThat(few.reason()).contains("too few");
    }

    @Test
    void aStalledHolderDoesNotCollapseTheLimitForGood() {
        Run run = new Run(new LimitController(1, 64), 5, 0);
        run.ticksUntil(LATENCY, 64, 64, 2, 40);
        // A lock behind a stalled holder: for 3 s nothing comes back, then a burst of slow returns.
        for (int i = 0; i < 6; i++) {
            run.c.step(TICK, 0, 0, true, 64, Integer.MAX_VALUE);
        }
        run.c.step(TICK, 64, 64 * 3_000_000_000L, true, 64, Integer.MAX_VALUE);
        assertThat(run.ticksUntil(LATENCY, 64, 64, 2, 40)).isLessThanOrEqualTo(24);
    }

    @Test
    void aChangeOfWorkloadIsFollowedWithinTenSeconds() {
        Run run = new Run(new LimitController(1, 64), 6, 0);
        run.ticksUntil(LATENCY, 64, 64, 2, 40);
        assertThat(run.ticksUntil(LOCK, 1, 2, 4, 40)).as("latency to lock").isLessThanOrEqualTo(20);
        assertThat(run.ticksUntil(CPU, 8, 16, 4, 40)).as("lock to CPU").isLessThanOrEqualTo(20);
        assertThat(run.ticksUntil(LATENCY, 64, 64, 4, 40)).as("CPU to latency").isLessThanOrEqualTo(20);
        assertThat(run.steps).anyMatch(s -> s.reason().contains("the workload changed"));
    }

    @Test
    void aLimitNobodyWaitsAtStillComesDownWhenTheWorkloadTurnsToAHotRow() {
        Run run = new Run(new LimitController(1, 64), 9, 0);
        run.threads = 64; // at the ceiling every thread holds a connection and nobody waits
        run.ticksUntil(LATENCY, 64, 64, 4, 40);
        assertThat(run.ticksUntil(LOCK, 1, 2, 4, 40)).isLessThanOrEqualTo(20);
    }

    @Test
    void aPassingDisturbanceSearchesAroundTheLimitNotFromTheFloor() {
        Run run = new Run(new LimitController(1, 64), 8, 0);
        run.ticksUntil(CPU, 8, 8, 2, 30);
        int from = run.steps.size();
        // Two slow ticks (another process took the cores): the workload looks changed, and is not.
        run.ticks(l -> 0.6 * CPU.applyAsDouble(l), 2);
        run.ticks(CPU, 12);
        assertThat(run.steps.subList(from, run.steps.size())).anyMatch(s -> s.reason().contains("workload changed"))
                .allMatch(s -> s.limit() >= 4);
        assertThat(run.c.limit()).isEqualTo(8);
    }

    @Test
    void aProbeThatGainsNothingGoesBack() {
        Run run = new Run(new LimitController(1, 64), 7, 0);
        run.ticksUntil(CPU, 8, 8, 2, 30);
        run.ticks(CPU, 3 * LimitController.PROBE_TICKS);
        assertThat(run.steps).anyMatch(s -> s.reason().contains("probing 16"));
        assertThat(run.steps).anyMatch(s -> s.reason().contains("no gain, back"));
        assertThat(run.c.limit()).isEqualTo(8);
    }

    @Test
    void aPinHoldsAndItsReleaseSearchesAgainFromWhereItIs() {
        LimitController c = new LimitController(2, 40);
        c.reset(30);
        assertThat(c.limit()).isEqualTo(30);
        c.reset(100);
        assertThat(c.limit()).isEqualTo(40);
        c.reset(0);
        assertThat(c.limit()).isEqualTo(2);
        c.reset(12);
        Step released = c.step(TICK, 100, 100 * 10_000_000L, true, 12, Integer.MAX_VALUE);
        // The steps are 2, 4, 8, 16, 32, 40: the search goes on from 8.
        assertThat(released.limit()).isEqualTo(8);
        assertThat(released.reason()).contains("the pin released: searching again from 8");
    }

    @Test
    void theFleetBudgetCapsTheLimitAndItsSteps() {
        LimitController c = new LimitController(1, 64);
        for (int i = 0; i < 40; i++) {
            int l = c.limit();
            Step s = c.step(TICK, Math.round(50.0 * l), Math.round(50.0 * l) * 10_000_000L, true, l, 12);
            assertThat(s.limit()).isLessThanOrEqualTo(12);
        }
        assertThat(c.limit()).isEqualTo(12);
        Step lowered = c.step(TICK, 600, 600 * 10_000_000L, true, 12, 5);
        assertThat(lowered.limit()).isEqualTo(5);
    }
}
