package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.ConsoleView;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The bound on open streams, and the shared thread's life. */
class ConsoleStreamsTest {

    private static final ConsoleView EMPTY = new ConsoleView(null, null, List.of());

    @Test
    void refusesStreamsBeyondTheLimitAndClosesTheRest() {
        ConsoleStreams streams = new ConsoleStreams(() -> EMPTY, 2, 2, Duration.ofHours(1));
        try {
            assertThat(streams.open("a").emitter()).isNotNull();
            assertThat(streams.open("b").emitter()).isNotNull();
            assertThat(streams.open("c").refusal()).as("a third stream").isEqualTo(ConsoleStreams.Refusal.ALL_IN_USE);
            assertThat(streams.openStreams()).isEqualTo(2);
            assertThat(streams.openStreams("c")).as("a refused stream holds no place").isZero();
        } finally {
            streams.close();
        }
        assertThat(streams.openStreams()).as("closed at context close").isZero();
        assertThat(streams.openStreams("a")).isZero();
    }

    /** One client gets {@code maxPerClient} streams; the others keep theirs, and a closed stream frees a place. */
    @Test
    void oneClientHoldsAtMostItsShare() {
        ConsoleStreams streams = new ConsoleStreams(() -> EMPTY, 8, 3, Duration.ofHours(1));
        try {
            List<org.springframework.web.servlet.mvc.method.annotation.SseEmitter> greedy = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                greedy.add(streams.open("greedy").emitter());
            }
            assertThat(greedy).doesNotContainNull();
            assertThat(streams.open("greedy").refusal()).isEqualTo(ConsoleStreams.Refusal.CLIENT_LIMIT);
            assertThat(streams.open("other").emitter()).isNotNull();
            assertThat(streams.openStreams("greedy")).isEqualTo(3);
            streams.open("greedy"); // refused again: holds nothing
            assertThat(streams.openStreams()).isEqualTo(4);
        } finally {
            streams.close();
        }
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
