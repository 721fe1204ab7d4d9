package dev.slotpool.bench.spike;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.testsupport.StubDatabase;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** One pool, one spike: a fresh database and pool, idle at its minimum, then every request at once. */
final class SpikeRun {

    /** How long a pool may take to open its minimum; far above minIdle × connect time for every pool here. */
    private static final Duration IDLE_BOUND = Duration.ofSeconds(10);
    /** Sampling starts this long before the release so the timeline shows the idle pool first. */
    private static final Duration LEAD = Duration.ofMillis(2);
    /** Beyond the borrow timeout every request has ended, one way or the other. */
    private static final Duration DONE_SLACK = Duration.ofSeconds(10);

    private final SpikeSetup setup;

    SpikeRun(SpikeSetup setup) {
        this.setup = setup;
    }

    RunResult run(PoolKind kind, int run) throws InterruptedException, SQLException {
        StubDatabase db = StubDatabase.reset("spike-" + kind.id())
                .connectDelay(setup.connectDelay()).queryDelay(setup.queryDelay());
        try (BenchPool pool = kind.start(setup.poolSettings(db.url()))) {
            // UCP opens its initial connections on the first borrow, not when started; every pool gets that borrow.
            pool.dataSource().getConnection().close();
            awaitIdle(pool, db);
            return spike(kind, run, db, pool);
        }
    }

    /** From the idle pool to the end of the tail. */
    private RunResult spike(PoolKind kind, int run, StubDatabase db, BenchPool pool) throws InterruptedException {
        RequestGang gang = RequestGang.park(pool.dataSource(), setup.requests());
        Duration doneBound = setup.borrowTimeout().plus(DONE_SLACK);
        Sampler sampler = new Sampler(pool, gang, setup.sampleEvery(), LEAD.plus(doneBound).plus(setup.tail()));
        // Collect what the start-up and the sampler's megabytes left behind now rather than during the spike.
        System.gc();
        sleep(setup.idleBefore());
        sampler.start();
        sleep(LEAD);
        long openedBefore = db.opened();
        long release = gang.release();
        if (!gang.awaitDone(doneBound)) {
            sampler.stop(release);
            throw new IllegalStateException(kind.id() + ": requests still running " + doneBound.toSeconds()
                    + " s after the spike");
        }
        sleep(setup.tail());
        Timeline timeline = sampler.stop(release);
        int atEnd = pool.counts().total();
        RequestGang.RequestStats stats = gang.stats(release);
        if (gang.firstFailure() != null) {
            System.err.println(kind.id() + ": " + (stats.requests() - stats.completed())
                    + " requests failed, the first with " + gang.firstFailure());
        }
        return new RunResult(kind, run, stats.requests(), stats.completed(), atEnd, openedBefore,
                db.opened() - openedBefore, db.maxOpen(), millis(stats.allDone()), millis(stats.slowest()),
                millis(stats.slowestWait()), stats.slowestWait() >= setup.connectDelay().toNanos(), timeline);
    }

    private void awaitIdle(BenchPool pool, StubDatabase db) {
        long deadline = System.nanoTime() + IDLE_BOUND.toNanos();
        BenchPool.PoolCounts counts = pool.counts();
        while (counts.idle() < setup.minIdle()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(pool.kind().id() + " did not reach " + setup.minIdle()
                        + " idle connections within " + IDLE_BOUND.toSeconds() + " s: " + counts + ", database opened "
                        + db.opened());
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
            counts = pool.counts();
        }
    }

    /** Unlike parkNanos, never returns early, so the idle time and the tail are at least what they say. */
    private static void sleep(Duration d) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(d.toNanos());
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
