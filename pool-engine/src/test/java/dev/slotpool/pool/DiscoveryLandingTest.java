package dev.slotpool.pool;

import dev.slotpool.CloseReason;
import dev.slotpool.OriginConfig;
import dev.slotpool.PoolEvent;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** Connections a discovery group's URL keeps landing on a drained server (docs/architecture.md, "Origins"). */
class DiscoveryLandingTest {

    private final RecordedEvents recorder = new RecordedEvents();

    @Test
    void landingsOnADrainedServerBackOffAndAreReported() {
        // The URL always lands on the same server, as a multi-host URL whose other servers are gone.
        ConnectionPool pool = new ConnectionPool(SlotPoolDataSource.builder().name("landing").minSize(2).maxSize(4)
                .housekeepingPeriod(Duration.ofMinutes(10)).creationBackoffMax(Duration.ofSeconds(5))
                .listener(recorder)
                .origin(OriginConfig.named("group").url("jdbc:h2:mem:landing;DB_CLOSE_DELAY=-1")
                        .originQuery("SELECT 'only'"))
                .config());
        try {
            Pools.await(pool, p -> p.available() == 2, "min filled");
            pool.operations().drain("only", Duration.ZERO);
            LockSupport.parkNanos(Duration.ofSeconds(3).toNanos());

            long landings = recorder.events.stream().filter(e -> e.type() == PoolEvent.Type.CLOSED
                    && "only".equals(e.origin()) && e.reason() == CloseReason.ORIGIN_NOT_UP).count() - 2;
            // Back-off 50 ms doubling: landings at about 0, 50, 150, 350, 750, 1550 ms and 3150 ms: 6 or 7 in
            // 3 s. At a fixed 50 ms: about 60.
            assertThat(landings).as("connections opened and closed on the drained server in 3 s")
                    .isBetween(1L, 10L);
            assertThat(recorder.events).as("reported").anyMatch(e -> e.type() == PoolEvent.Type.CREATION_FAILED
                    && "group".equals(e.origin()) && e.detail().contains("landed on origin 'only'"));
        } finally {
            pool.close();
        }
    }
}
