package dev.slotpool.e2e;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.kernel.Events;
import dev.slotpool.testsupport.TcpFaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A silent origin with the driver's defaults (no login or socket timeout): two PostgreSQL servers as origins a
 * and b (50/50, min 8, max 12, borrow timeout 5 s), b behind a proxy that after 5 s of load accepts TCP and never
 * answers, for 20 s, new and open connections alike. 20 threads loop borrow, {@code SELECT pg_sleep(0.01)} with a
 * 2 s query timeout, close, 5 ms pause.
 *
 * <p>The pool must notice b on its own (its connections all stuck, a bounded probe unanswered), mark it DOWN, abort
 * its hung connections after the grace period, and give the capacity to a, with no borrow timing out. The measured
 * rates are printed ("SILENT ORIGIN ...") for docs/reliability.md; the assertions check the mechanism, not speed.
 */
class SilentOriginPostgresTest {

    private static final Duration WARM_UP = Duration.ofSeconds(2);
    private static final Duration BEFORE_FAULT = Duration.ofSeconds(5);
    private static final Duration FAULT = Duration.ofSeconds(20);
    private static final int THREADS = 20;
    private static final int BUCKET_MS = 100;

    private static PgCluster cluster;

    @BeforeAll
    static void start() throws IOException {
        cluster = new PgCluster(2);
    }

    @AfterAll
    static void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Driver defaults ("sslmode=disable" only), and the same with a 3 s socket timeout on the URLs. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sslmode=disable", "sslmode=disable&socketTimeout=3"})
    void aSilentOriginIsDetectedAndItsShareGoesToTheHealthyOne(String params) throws Exception {
        Events events = new Events();
        try (TcpFaultProxy proxy = TcpFaultProxy.start("localhost", cluster.port(1))) {
            SlotPoolDataSource ds = SlotPoolDataSource.builder().name("silent").username("postgres")
                    .minSize(8).maxSize(12).borrowTimeout(Duration.ofSeconds(5))
                    .origin(OriginConfig.named("a").weight(50)
                            .url("jdbc:postgresql://localhost:" + cluster.port(0) + "/postgres?" + params))
                    .origin(OriginConfig.named("b").weight(50)
                            .url("jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/postgres?" + params))
                    .listener(events)
                    .build();
            Load load = new Load(ds);
            try {
                E2e.await("the pool at min on both origins", ds::snapshot,
                        s -> s.total() >= 8 && s.origins().stream().allMatch(o -> o.total() > 0));
                load.start();
                load.sleep(WARM_UP);
                long faultStart = load.elapsedMillis() + BEFORE_FAULT.toMillis();
                load.sleepUntil(faultStart);
                proxy.blackhole();
                long faultEnd = faultStart + FAULT.toMillis();
                load.sleepUntil(faultEnd);
                PoolSnapshot atEnd = ds.snapshot();
                proxy.forward();

                double before = load.rate(faultStart - BEFORE_FAULT.toMillis(), faultStart);
                double last10 = load.rate(faultEnd - 10_000, faultEnd);
                OriginSnapshot a = atEnd.origin("a").orElseThrow();
                System.out.printf("SILENT ORIGIN [%s]: before the fault %.0f tx/s; last 10 s of the 20 s blackhole "
                                + "%.0f tx/s (%.0f %%); b DOWN after %s ms; borrow timeouts %d; connections "
                                + "opened %d, closed %d during the fault; a has %d of %d at the end%n",
                        params, before, last10, 100 * last10 / before, events.downAfterMillis(load, faultStart),
                        load.timeouts.get(), events.count(PoolEvent.Type.CREATED, load, faultStart),
                        events.count(PoolEvent.Type.CLOSED, load, faultStart), a.total(), atEnd.maxSize());

                assertThat(events.downAfterMillis(load, faultStart)).as("b detected DOWN during the fault: %s",
                        events.all).isNotNull().isLessThan(FAULT.toMillis());
                assertThat(load.timeouts.get()).as("borrow timeouts").isZero();
                OriginSnapshot b = atEnd.origin("b").orElseThrow();
                assertThat(b.state()).as("b at the end of the fault: %s", atEnd.summary()).isEqualTo(OriginState.DOWN);
                assertThat(b.total()).as("b's hung connections were aborted: %s", atEnd.summary()).isZero();
            } finally {
                load.stop();
                ds.close();
                assertThat(load.join(Duration.ofSeconds(30))).as("every worker ended").isTrue();
            }
        }
    }

    /** The pool's events with the time each arrived. */
    private static final class Events implements PoolListener {
        final List<PoolEvent> all = new CopyOnWriteArrayList<>();
        final List<Long> at = new CopyOnWriteArrayList<>();

        @Override
        public void onEvent(PoolEvent e) {
            at.add(System.nanoTime());
            all.add(e);
        }

        Long downAfterMillis(Load load, long faultStartMillis) {
            for (int i = 0; i < all.size(); i++) {
                PoolEvent e = all.get(i);
                long t = load.millisOf(at.get(i));
                if (t >= faultStartMillis && e.type() == PoolEvent.Type.ORIGIN_STATE && "b".equals(e.origin())
                        && e.detail().contains("-> DOWN")) {
                    return t - faultStartMillis;
                }
            }
            return null;
        }

        long count(PoolEvent.Type type, Load load, long fromMillis) {
            long n = 0;
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).type() == type && load.millisOf(at.get(i)) >= fromMillis) {
                    n++;
                }
            }
            return n;
        }
    }

    /** The workload: transactions completed per 100 ms since its start, borrow timeouts. */
    private static final class Load {
        private final SlotPoolDataSource ds;
        private final AtomicLongArray done = new AtomicLongArray(1000);
        final AtomicLong timeouts = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();
        private long startNanos;

        Load(SlotPoolDataSource ds) {
            this.ds = ds;
        }

        void start() {
            startNanos = System.nanoTime();
            for (int i = 0; i < THREADS; i++) {
                Thread t = new Thread(this::loop, "silent-load-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        private void loop() {
            while (!stop.get()) {
                try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                    st.setQueryTimeout(2);
                    st.execute("SELECT pg_sleep(0.01)");
                    int bucket = (int) (elapsedMillis() / BUCKET_MS);
                    if (bucket < done.length()) {
                        done.incrementAndGet(bucket);
                    }
                } catch (SQLTransientConnectionException e) {
                    if (!stop.get()) {
                        timeouts.incrementAndGet();
                    }
                } catch (SQLException e) {
                    // A statement on b's connection failed (timed out, or aborted by the pool): the next borrow.
                }
                pause(5);
            }
        }

        long elapsedMillis() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        }

        long millisOf(long nanoTime) {
            return TimeUnit.NANOSECONDS.toMillis(nanoTime - startNanos);
        }

        void sleep(Duration d) {
            pause(d.toMillis());
        }

        void sleepUntil(long millis) {
            for (long left; (left = millis - elapsedMillis()) > 0; ) {
                pause(left);
            }
        }

        /** Transactions per second completed in [from, to) ms. */
        double rate(long fromMillis, long toMillis) {
            long n = 0;
            for (int b = (int) (fromMillis / BUCKET_MS); b < toMillis / BUCKET_MS; b++) {
                n += done.get(b);
            }
            return n * 1000.0 / (toMillis - fromMillis);
        }

        void stop() {
            stop.set(true);
        }

        boolean join(Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    return false;
                }
            }
            return true;
        }
    }

    private static void pause(long millis) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
