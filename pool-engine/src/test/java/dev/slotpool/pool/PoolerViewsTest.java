package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.pooler.ScriptedConsole;
import dev.slotpool.snapshots.PoolerViews;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static dev.slotpool.pooler.ScriptedConsole.showPools;
import static dev.slotpool.pooler.ScriptedConsole.trusted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The pooler-view thread (docs/poolers.md, "The pooler's view in the snapshot") survives a console that misbehaves,
 * never shows an old view as current, and ends with close().
 */
class PoolerViewsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final StubDatabase db = StubDatabase.reset("pooler-views");

    @AfterEach
    void reset() {
        StubDatabase.reset();
    }

    private static final ScriptedConsole.Script ANSWERS = (in, out) -> {
        trusted(out);
        showPools(in, out, "postgres", 3);
        ScriptedConsole.message(in); // Terminate
    };

    private static final ScriptedConsole.Script ANNOUNCES_2_GB = (in, out) -> {
        out.writeByte('R');
        out.writeInt(0x7FFF_FFF0);
        out.flush();
        TimeUnit.SECONDS.sleep(1);
    };

    private SlotPoolDataSource pool(ScriptedConsole console, Duration period) {
        return SlotPoolDataSource.builder().name("views").minSize(0).maxSize(1).housekeepingPeriod(period)
                .keepaliveInterval(Duration.ZERO).validationTimeout(Duration.ofSeconds(2))
                .origin(OriginConfig.named("east").url(db.url()).poolerAdminUrl(console.url("")))
                .build();
    }

    @Test
    void aConsoleAnnouncingTwoGigabytesIsAnErrorAndTheViewsGoOn() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole(ANSWERS);
             SlotPoolDataSource ds = pool(console, Duration.ofMillis(100))) {
            await(ds, e -> e.pooler() != null && e.pooler().clientsActive() == 3, "the first view");

            console.script(ANNOUNCES_2_GB);
            OriginSnapshot refused = await(ds, e -> e.poolerError() != null, "the console's error");
            assertThat(refused.poolerError()).contains("announced a message of");
            assertThat(refused.pooler()).as("no view from a console that misbehaves").isNull();

            console.script(ANSWERS);
            await(ds, e -> e.pooler() != null && e.poolerError() == null, "a view again: the thread goes on");
        }
    }

    @Test
    void closeEndsThePoolerViewThread() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole(ANSWERS)) {
            SlotPoolDataSource ds = pool(console, Duration.ofMinutes(10));
            await(ds, e -> e.pooler() != null, "the first view");

            ds.close();

            assertThat(Thread.getAllStackTraces().keySet()).as("threads after close()")
                    .noneMatch(t -> t.getName().startsWith("slotpool-views-") && t.isAlive());
        }
    }

    @Test
    void aViewNotReadAgainForTwoRoundsIsShownAsStale() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole(ANSWERS)) {
            PoolerViews views = new PoolerViews(Pools.stub(db).housekeepingPeriod(Duration.ofMillis(50))
                    .validationTimeout(Duration.ofSeconds(1))
                    .origin(OriginConfig.named("east").url(db.url()).poolerAdminUrl(console.url("")))
                    .config(), new PoolLifecycle());
            views.readAll(); // one round, and no thread to read again

            PoolerViews.Reading fresh = views.reading("east");
            assertThat(fresh.view().clientsActive()).isEqualTo(3);
            assertThat(fresh.error()).isNull();
            long staleAfter = System.nanoTime() + Duration.ofMillis(2 * (50 + 1_000)).toNanos();
            while (System.nanoTime() - staleAfter <= 0) {
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
            PoolerViews.Reading stale = views.reading("east");
            assertThat(stale.view()).as("the last view, still shown").isEqualTo(fresh.view());
            assertThat(stale.error()).startsWith("stale: the console was last read").contains("read every 50 ms");
        }
    }

    private static OriginSnapshot await(SlotPoolDataSource ds, Predicate<OriginSnapshot> wanted, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            OriginSnapshot e = ds.snapshot().origin("east").orElseThrow();
            if (wanted.test(e)) {
                return e;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + what + "; last: " + e);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }
}
