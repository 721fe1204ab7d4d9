package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubConnection;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Spring context shutdown with connections still borrowed (docs/reliability.md, "Shutdown"): closing the context closes the pool
 * (the bean's destroy method), so a borrower blocked in getConnection() gets a clear error, the connections
 * never returned are aborted after {@code slotpool.shutdown-timeout}, no pool thread survives, and a later
 * close() of the data source is harmless.
 */
class ContextShutdownTest {

    private static final long SHUTDOWN_TIMEOUT_MILLIS = 500;
    /** What closing the context may add to the shutdown timeout on a loaded machine. */
    private static final long CLOSE_SLACK_MILLIS = 2_000;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class));

    private static List<String> poolThreads(String poolName) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("slotpool-" + poolName + "-")).toList();
    }

    @Test
    void closingTheContextClosesThePoolWithConnectionsStillBorrowed() {
        StubDatabase db = StubDatabase.reset("context-shutdown");
        runner.withPropertyValues("spring.datasource.url=" + db.url(),
                "slotpool.name=ctx-shutdown", "slotpool.min-size=2", "slotpool.max-size=2",
                "slotpool.borrow-timeout=60s", "slotpool.shutdown-timeout=" + SHUTDOWN_TIMEOUT_MILLIS + "ms")
                .run(ctx -> {
                    SlotPoolDataSource ds = ctx.getBean(SlotPoolDataSource.class);
                    Connection a = ds.getConnection();
                    Connection b = ds.getConnection();
                    StubConnection physicalA = a.unwrap(StubConnection.class);
                    AtomicReference<SQLException> blocked = new AtomicReference<>();
                    CountDownLatch borrowerDone = new CountDownLatch(1);
                    Thread borrower = new Thread(() -> {
                        try {
                            ds.getConnection().close();
                        } catch (SQLException e) {
                            blocked.set(e);
                        } finally {
                            borrowerDone.countDown();
                        }
                    }, "blocked-borrower");
                    borrower.start();
                    await("a borrower waiting", () -> ds.snapshot().waiting() == 1);
                    assertThat(poolThreads("ctx-shutdown")).isNotEmpty();

                    long start = System.nanoTime();
                    ctx.close();
                    long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

                    assertThat(ds.isClosed()).isTrue();
                    assertThat(poolThreads("ctx-shutdown")).as("pool threads after the context closed").isEmpty();
                    assertThat(closeMillis).isGreaterThanOrEqualTo(SHUTDOWN_TIMEOUT_MILLIS)
                            .isLessThanOrEqualTo(SHUTDOWN_TIMEOUT_MILLIS + CLOSE_SLACK_MILLIS);
                    assertThat(borrowerDone.await(20, TimeUnit.SECONDS)).isTrue();
                    assertThat((Throwable) blocked.get()).hasMessage("pool 'ctx-shutdown' is closed");
                    assertThat(blocked.get().getSQLState()).isEqualTo("08003");
                    assertThat(db.aborted()).as("the two connections never returned").isEqualTo(2);
                    assertThat(db.live()).isZero();
                    assertThat(physicalA.isClosed()).isTrue();
                    Throwable late = catchThrowable(() -> {
                        try (Statement st = b.createStatement()) {
                            st.execute("SELECT 1");
                        }
                    });
                    assertThat(late).hasMessageContaining("connection is closed");
                    a.close();
                    b.close();
                    ds.close(); // harmless after the context closed it
                    assertThat(db.opened()).isEqualTo(db.closed() + db.aborted());
                    System.out.printf("shutdown: Spring context closed with 2 connections borrowed and 1 borrower "
                            + "waiting: %d ms (shutdown-timeout %d ms); 2 aborted; pool threads after 0%n",
                            closeMillis, SHUTDOWN_TIMEOUT_MILLIS);
                });
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
