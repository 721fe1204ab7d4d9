package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.ConsoleView;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The bound on open streams, and the shared thread's life. */
class ConsoleStreamsTest {

    private static final ConsoleView EMPTY = new ConsoleView(null, List.of(), List.of());

    @Test
    void refusesStreamsBeyondTheLimitAndClosesTheRest() {
        ConsoleStreams streams = new ConsoleStreams(() -> EMPTY, 2, Duration.ofHours(1));
        try {
            assertThat(streams.open()).isPresent();
            assertThat(streams.open()).isPresent();
            assertThat(streams.open()).as("a third stream").isEmpty();
            assertThat(streams.openStreams()).isEqualTo(2);
        } finally {
            streams.close();
        }
        assertThat(streams.openStreams()).as("closed at context close").isZero();
    }

    @Test
    void theEventLogKeepsTheNewestEventsUpToItsCapacity() {
        ConsoleEventLog log = new ConsoleEventLog();
        for (int i = 0; i < ConsoleEventLog.CAPACITY + 50; i++) {
            log.onEvent(new dev.slotpool.PoolEvent(dev.slotpool.PoolEvent.Type.CREATED, "east", null, "n" + i,
                    java.time.Instant.EPOCH));
        }
        List<ConsoleViews.EventRow> rows = log.recent();
        assertThat(rows).hasSize(ConsoleEventLog.CAPACITY);
        assertThat(rows.get(0).detail()).as("newest first").isEqualTo("n" + (ConsoleEventLog.CAPACITY + 49));
        assertThat(rows.get(rows.size() - 1).detail()).isEqualTo("n50");
    }
}
