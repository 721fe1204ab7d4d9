package dev.slotpool.sizing;

import dev.slotpool.sizing.LimitController.Step;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.IntToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** The controller as arithmetic: fed synthetic ticks, no pool and no clock. */
class LimitControllerTest {

    private static final long TICK = LimitController.TICK_NANOS;
    private static final long MS = 1_000_000;
    private static final int RETURNS = 200;

    /** Held time flat at 10 ms whatever the concurrency (I/O, pg_sleep): the limit climbs to the ceiling. */
    private static final IntToLongFunction FLAT = c -> 10 * MS;

    /** One hot row served 2 ms at a time: every holder beyond the first waits for the others. */
    private static final IntToLongFunction LOCK = c -> 2 * MS * Math.max(1, c);

    /** A server with 4 cores and 3 ms of work per transaction: flat up to 4, then in step with concurrency. */
    private static final IntToLongFunction CPU = c -> 3 * MS * Math.max(4, c) / 4;

    /** Runs {@code ticks} saturated ticks (borrowers always wait, the origin holds its limit) against a workload. */
    private static int run(LimitController c, IntToLongFunction heldAt, int ticks) {
        for (int i = 0; i < ticks; i++) {
            int l = c.limit();
            c.step(TICK, RETURNS, RETURNS * heldAt.applyAsLong(l), true, l, Integer.MAX_VALUE);
        }
        return c.limit();
    }

    @Test
    void growsToTheCeilingWhileHeldTimeStaysFlat() {
        LimitController c = new LimitController(1, 64, 1);
        int ticks = 0;
        while (c.limit() < 64 && ticks < 100) {
            int before = c.limit();
            Step s = c.step(TICK, RETURNS, RETURNS * 10 * MS, true, before, Integer.MAX_VALUE);
            assertThat(s.limit() - before).isBetween(0, (int) Math.max(1, Math.sqrt(before)) + 1);
            ticks++;
        }
        assertThat(c.limit()).isEqualTo(64);
        // √L a tick: from 1 to 64 in well under 10 s of 500 ms ticks.
        assertThat(ticks).isLessThanOrEqualTo(20);
        assertThat(c.step(TICK, RETURNS, RETURNS * 10 * MS, true, 64, Integer.MAX_VALUE).reason())
                .contains("at the ceiling");
    }

    @Test
    void shrinksWhenHeldTimeRisesWithConcurrencyInBoundedSteps() {
        LimitController c = new LimitController(1, 64, 1);
        run(c, LOCK, 3); // the minimum is measured at low concurrency
        c.reset(64);
        for (int i = 0; i < 40; i++) {
            int before = c.limit();
            Step s = c.step(TICK, RETURNS, RETURNS * LOCK.applyAsLong(before), true, before, Integer.MAX_VALUE);
            assertThat(s.limit()).isGreaterThanOrEqualTo((int) (before * (1 - LimitController.MAX_FALL)) - 1);
            if (i == 0) {
                assertThat(s.reason()).contains("× its minimum: shrinking");
            }
        }
        // A hot row gains nothing from concurrency: the limit settles low, and stays there.
        assertThat(c.limit()).isBetween(1, 6);
        assertThat(run(c, LOCK, 200)).isBetween(1, 6);
    }

    @Test
    void settlesNearTheKneeOfACpuBoundServer() {
        LimitController c = new LimitController(1, 64, 1);
        assertThat(run(c, CPU, 200)).isBetween(4, 12);
        c.reset(64);
        assertThat(run(c, CPU, 40)).isBetween(4, 12);
    }

    @Test
    void neverGrowsWithoutBorrowersWaitingAtTheLimit() {
        LimitController c = new LimitController(1, 64, 10);
        for (int i = 0; i < 50; i++) {
            c.step(TICK, RETURNS, RETURNS * 10 * MS, false, 10, Integer.MAX_VALUE);
        }
        assertThat(c.limit()).isEqualTo(10);
        // Borrowers wait but the origin holds fewer than its limit (creations lag, or a sick origin refuses them):
        // more room would not be used.
        for (int i = 0; i < 50; i++) {
            c.step(TICK, RETURNS, RETURNS * 10 * MS, true, 3, Integer.MAX_VALUE);
        }
        assertThat(c.limit()).isEqualTo(10);
    }

    @Test
    void staysWithinItsBoundsAndTheBudgetWhateverItIsFed() {
        Random r = new Random(45);
        LimitController c = new LimitController(3, 40, 10);
        for (int i = 0; i < 20_000; i++) {
            int before = c.limit();
            int room = r.nextInt(4) == 0 ? 3 + r.nextInt(40) : Integer.MAX_VALUE;
            long held = 1 + (long) (r.nextDouble() * r.nextDouble() * 500 * MS);
            long returns = r.nextInt(10) == 0 ? r.nextInt(6) : r.nextInt(1000);
            long interval = r.nextInt(50) == 0 ? 10 * TICK : TICK;
            Step s = c.step(interval, returns, returns * held, r.nextBoolean(), r.nextInt(50), room);
            assertThat(s.limit()).isBetween(3, 40).isEqualTo(c.limit());
            if (room != Integer.MAX_VALUE && s.limit() > before) {
                assertThat(s.limit()).isLessThanOrEqualTo(Math.max(3, room));
            }
            assertThat(s.limit() - before).isLessThanOrEqualTo((int) Math.max(1, Math.sqrt(before)) + 1);
            if (room >= before) {
                assertThat(s.limit()).isGreaterThanOrEqualTo(Math.min(before, Math.max(3,
                        (int) (before * (1 - LimitController.MAX_FALL)) - 1)));
            }
        }
    }

    @Test
    void aPauseOrTooFewReturnsChangeNothing() {
        LimitController c = new LimitController(1, 64, 20);
        run(c, FLAT, 3);
        int before = c.limit();
        Step pause = c.step(10 * TICK, RETURNS, RETURNS * 5_000 * MS, true, before, Integer.MAX_VALUE);
        assertThat(pause.limit()).isEqualTo(before);
        assertThat(pause.reason()).contains("a pause");
        // A stall: nothing returns (a lock held by a stuck transaction, a DOWN origin).
        for (int i = 0; i < 100; i++) {
            Step s = c.step(TICK, i % 3, (i % 3) * 60_000 * MS, true, before, Integer.MAX_VALUE);
            assertThat(s.limit()).isEqualTo(before);
            assertThat(s.reason()).contains("too few to judge");
        }
    }

    @Test
    void recoversAfterAStalledHolderLetsGo() {
        LimitController c = new LimitController(1, 64, 20);
        run(c, FLAT, 30);
        assertThat(c.limit()).isEqualTo(64);
        // The stuck borrowers all come back at once after 30 s, clipped to ten minimums each, with the ordinary ones.
        long clip = c.clipNanos();
        assertThat(clip).isEqualTo(LimitController.CLIP * 10 * MS);
        long clipped = Math.min(30_000 * MS, clip);
        c.step(TICK, RETURNS, 40 * clipped + (RETURNS - 40) * 10 * MS, true, 64, Integer.MAX_VALUE);
        assertThat(c.limit()).isGreaterThanOrEqualTo(48);
        assertThat(run(c, FLAT, 10)).isEqualTo(64);
    }

    @Test
    void aSlowerWorkloadResetsTheBaselineInsteadOfCollapsingToTheFloor() {
        LimitController c = new LimitController(1, 64, 1);
        run(c, LOCK, 50); // minimum 2 ms, limit low
        // The workload changes: every transaction now takes 10 ms (an app doing client-side work while it holds
        // its connection, or a new phase of waits), whatever the concurrency.
        int ticks = 0;
        while (c.limit() < 64 && ticks < 200) {
            int l = c.limit();
            c.step(TICK, RETURNS, RETURNS * 10 * MS, true, l, Integer.MAX_VALUE);
            ticks++;
        }
        assertThat(c.limit()).isEqualTo(64);
        assertThat(c.minHeldNanos()).isEqualTo(10 * MS);
        assertThat(ticks).isLessThanOrEqualTo(30);
    }

    @Test
    void followsAPhaseChangeFromFlatToLockBoundDown() {
        LimitController c = new LimitController(1, 64, 1);
        run(c, LOCK, 3);
        run(c, FLAT, 60); // 10 ms flat: the baseline moves to 10 ms and the limit climbs
        assertThat(c.limit()).isEqualTo(64);
        // Back to the hot row: the held time rises with every connection, so the limit falls (the 10 ms minimum of
        // the last phase stands, so it settles between 7 and 10, which a hot row does not mind: its throughput is
        // flat from 2 to 16 connections).
        int ticks = 0;
        while (c.limit() > 8 && ticks < 100) {
            int l = c.limit();
            c.step(TICK, RETURNS, RETURNS * LOCK.applyAsLong(l), true, l, Integer.MAX_VALUE);
            ticks++;
        }
        assertThat(c.limit()).isLessThanOrEqualTo(8);
        assertThat(ticks).isLessThanOrEqualTo(20);
        assertThat(run(c, LOCK, 200)).isBetween(1, 12);
    }

    @Test
    void aSpuriouslyShortTickDoesNotPinTheFloor() {
        LimitController c = new LimitController(1, 64, 10);
        run(c, FLAT, 5);
        // One tick of fast failures (an error returns at once) sets a minimum no real transaction reaches.
        c.step(TICK, RETURNS, RETURNS * MS / 10, true, c.limit(), Integer.MAX_VALUE);
        assertThat(run(c, FLAT, 60)).isEqualTo(64);
    }

    @Test
    void aMinimumSeenOnlyHighUpIsProbedLowerDown() {
        LimitController c = new LimitController(1, 64, 1);
        c.reset(64); // released from a pin at the ceiling: the first minimum is the hot row's at 64
        boolean probed = false;
        for (int i = 0; i < 4 * LimitController.PROBE_TICKS; i++) {
            int l = c.limit();
            Step s = c.step(TICK, RETURNS, RETURNS * LOCK.applyAsLong(l), true, l, Integer.MAX_VALUE);
            probed |= s.reason().contains("probing at 16");
        }
        assertThat(probed).isTrue();
        assertThat(c.minHeldNanos()).isLessThanOrEqualTo(LOCK.applyAsLong(4));
        assertThat(run(c, LOCK, 100)).isBetween(1, 6);
    }

    @Test
    void aFlatWorkloadIsNeverProbed() {
        LimitController c = new LimitController(1, 64, 1);
        for (int i = 0; i < 10 * LimitController.PROBE_TICKS; i++) {
            int l = c.limit();
            Step s = c.step(TICK, RETURNS, RETURNS * FLAT.applyAsLong(l), true, l, Integer.MAX_VALUE);
            assertThat(s.reason()).doesNotContain("probing");
        }
        assertThat(c.limit()).isEqualTo(64);
    }

    @Test
    void aResetStartsFromThePinnedValueWithinTheBounds() {
        LimitController c = new LimitController(2, 30, 10);
        c.reset(100);
        assertThat(c.limit()).isEqualTo(30);
        c.reset(0);
        assertThat(c.limit()).isEqualTo(2);
    }
}
