package dev.slotpool.autoconfigure.crac;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPools;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.Lifecycle;

import javax.sql.DataSource;
import javax.tools.ToolProvider;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checkpoint/restore lifecycle through its Lifecycle API, as Spring's lifecycle processor drives it around a
 * checkpoint: stop closes every physical connection (a borrowed one at the pool's shutdown timeout), borrowers
 * fail with the reason, start refills to minSize.
 */
class SlotPoolCheckpointRestoreLifecycleTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                    SlotPoolCheckpointRestoreAutoConfiguration.class));

    @Test
    void stopClosesEveryConnectionAndStartRefills() {
        StubDatabase db = StubDatabase.reset("checkpoint-restore");
        runner.withPropertyValues("spring.datasource.url=" + db.url(), "slotpool.min-size=2", "slotpool.max-size=4",
                "slotpool.borrow-timeout=300ms", "slotpool.shutdown-timeout=500ms",
                "slotpool.housekeeping-period=100ms").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            SlotPoolCheckpointRestoreLifecycle lifecycle = new SlotPoolCheckpointRestoreLifecycle(
                    SlotPools.of(ctx.getBeansOfType(DataSource.class)), ctx);
            await(() -> db.live() == 2, "minSize connections", db);
            assertThat(lifecycle.isRunning()).isTrue();
            Connection held = pool.getConnection();

            lifecycle.stop();
            assertThat(db.live()).as("physical connections open after stop").isZero();
            assertThat(lifecycle.isRunning()).isFalse();
            assertThat(held.isValid(1)).as("the connection still borrowed at the timeout was aborted").isFalse();
            held.close();
            assertThatThrownBy(pool::getConnection).isInstanceOf(SQLTransientConnectionException.class)
                    .hasMessageContaining("suspended for checkpoint");
            assertThat(db.live()).isZero();

            lifecycle.start();
            assertThat(lifecycle.isRunning()).isTrue();
            await(() -> db.live() == 2, "refilled to minSize", db);
            try (Connection c = pool.getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        });
    }

    @Test
    void withoutCheckpointSupportThereIsNoLifecycle() {
        StubDatabase db = StubDatabase.reset("checkpoint-absent");
        runner.withPropertyValues("spring.datasource.url=" + db.url()).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(SlotPoolDataSource.class)
                    .doesNotHaveBean(SlotPoolCheckpointRestoreLifecycle.class);
        });
    }

    /** With {@code org.crac} on the class path (compiled here: the JDK's own CRaC API is not on this one). */
    @Test
    void withCheckpointSupportTheLifecycleIsRegistered(@TempDir Path dir) throws Exception {
        Path source = Files.createDirectories(dir.resolve("src/org/crac")).resolve("Resource.java");
        Files.writeString(source, "package org.crac; public interface Resource { }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                source.toString());
        assertThat(compiled).isZero();
        StubDatabase db = StubDatabase.reset("checkpoint-present");
        try (URLClassLoader crac = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            runner.withClassLoader(crac).withPropertyValues("spring.datasource.url=" + db.url()).run(ctx -> {
                assertThat(ctx).hasNotFailed().hasSingleBean(SlotPoolCheckpointRestoreLifecycle.class);
                assertThat(ctx.getBeansOfType(Lifecycle.class)).containsValue(
                        ctx.getBean(SlotPoolCheckpointRestoreLifecycle.class));
            });
        }
    }

    /** Waits for the stub's count, failing after 20 s: a bound for a broken pool, not a timing assertion. */
    private static void await(BooleanSupplier condition, String what, StubDatabase db) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what + " (live " + db.live() + ")");
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }
}
