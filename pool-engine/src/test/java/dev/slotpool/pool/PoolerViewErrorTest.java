package dev.slotpool.pool;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginConfig;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An origin whose pooler console does not answer has no pooler view and says why in its snapshot
 * ({@code OriginSnapshot.poolerError}, docs/poolers.md "Sizing a fleet"), with no password of the console's URL;
 * an origin without a console has neither. The answering console is read in {@code PgBouncerOperationsTest}.
 */
class PoolerViewErrorTest {

    private static final String CONSOLE_PASSWORD = "Console-pw-7Qx2-never-shown";

    @Test
    void aConsoleThatDoesNotAnswerShowsItsErrorAndNoView() throws IOException {
        StubDatabase east = StubDatabase.reset("pooler-error-east");
        StubDatabase west = StubDatabase.reset("pooler-error-west");
        int closedPort = closedLoopbackPort();
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().name("pooler-error").minSize(0).maxSize(2)
                .housekeepingPeriod(Duration.ofMillis(100)).keepaliveInterval(Duration.ZERO)
                .origin(OriginConfig.named("east").url(east.url()).username("app").password("s3cret-pw")
                        .poolerAdminUrl("postgresql://127.0.0.1:" + closedPort + "/pgbouncer?user=stats&password="
                                + CONSOLE_PASSWORD))
                .origin(OriginConfig.named("west").url(west.url()).username("app").password("s3cret-pw"))
                .build()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            OriginSnapshot e = ds.snapshot().origin("east").orElseThrow();
            while (e.poolerError() == null && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
                e = ds.snapshot().origin("east").orElseThrow();
            }
            assertThat(e.poolerError()).as("east's console error").isNotNull().containsIgnoringCase("refused")
                    .doesNotContain(CONSOLE_PASSWORD);
            assertThat(e.pooler()).isNull();
            OriginSnapshot w = ds.snapshot().origin("west").orElseThrow();
            assertThat(w.pooler()).isNull();
            assertThat(w.poolerError()).isNull();
            assertThat(ds.snapshot().toString()).doesNotContain(CONSOLE_PASSWORD);
        }
    }

    /** A loopback port nothing listens on: connecting to it is refused at once. */
    private static int closedLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
