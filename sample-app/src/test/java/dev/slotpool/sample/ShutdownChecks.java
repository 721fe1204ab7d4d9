package dev.slotpool.sample;

import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.load.LoadSettings;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.test.annotation.DirtiesContext;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs last and leaves the load running; Spring then closes the context ({@link DirtiesContext} after the method)
 * and {@link #verifyClosed} (called from the test class's {@code @AfterAll}) checks what the close left: the load
 * stopped before the pool closed (no failed transaction), no worker or pool thread, no server connection, and
 * nothing the app printed from startup to shutdown contains the databases' password.
 *
 * <p>The context is closed by Spring, not by the test: Spring's test context cache restarts a cached context it
 * finds stopped, so a context closed behind its back fails every later test listener.
 */
interface ShutdownChecks extends SampleApp {

    /** The app whose context the last test left to close, and its failure count then. */
    record Closing(SampleApp app, long failedBefore) {
    }

    AtomicReference<Closing> CLOSING = new AtomicReference<>();

    @Test
    @Order(Integer.MAX_VALUE)
    @DirtiesContext(methodMode = DirtiesContext.MethodMode.AFTER_METHOD)
    default void theContextClosesUnderLoad() {
        long failedBefore = load().status().failed();
        load().apply(new LoadSettings(4, Duration.ofMillis(5)));
        await().atMost(PATIENCE).until(() -> load().status().completed() > 50);
        assertThat(load().status().running()).isTrue();
        CLOSING.set(new Closing(this, failedBefore));
    }

    /** After the context closed; does nothing when {@link #theContextClosesUnderLoad} did not run. */
    static void verifyClosed(CapturedOutput output) throws SQLException {
        Closing closing = CLOSING.getAndSet(null);
        if (closing == null) {
            return;
        }
        SampleApp app = closing.app();
        assertThat(app.context().isActive()).as("context closed").isFalse();
        assertThat(app.load().status().running()).isFalse();
        assertThat(app.load().status().failed() - closing.failedBefore())
                .as("failures at shutdown; last: %s", app.load().status().lastFailure()).isZero();
        assertThat(app.pool().isClosed()).isTrue();
        String poolThreads = "slotpool-" + app.pool().config().name() + "-";
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(liveThreads()).as("threads left")
                .noneMatch(n -> n.startsWith(LoadGenerator.THREAD_PREFIX) || n.startsWith(poolThreads)));
        await().atMost(PATIENCE).untilAsserted(() -> {
            for (String origin : ORIGINS) {
                assertThat(app.serverConnections(origin)).as("server connections of %s after close", origin).isZero();
            }
        });

        assertThat(output.getAll()).as("the capture holds the startup").contains("Started ");
        assertThat(output.getAll()).as("the log").doesNotContain(DB_PASSWORD);
    }

    private static List<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName).toList();
    }
}
