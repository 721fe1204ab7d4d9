package dev.slotpool.bench.scaling;

import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.UsageException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CI smoke test of the thread-per-request harness: a --quick run in-process (a second or two, JDK 21+ only). */
class PerRequestSmokeTest {

    @TempDir
    Path out;

    @Test
    void quickRunOfBothPoolsWritesRunsAndSummaryWithRequestsServed() throws Exception {
        Assumptions.assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<PerRequest.Result> results = PerRequest.run(PerRequestOptions.parse("--quick", "--statement",
                "--out", out.toString()), stream(printed), stream(log));

        assertThat(results).extracting(PerRequest.Result::pool).containsExactly(PoolKind.SLOTPOOL, PoolKind.HIKARI);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.requests()).as("requests of %s", r.pool()).isPositive();
            assertThat(r.errors()).as("errors of %s: %s", r.pool(), r.firstError()).isZero();
            assertThat(r.stragglers()).as("chains of %s that did not end", r.pool()).isZero();
        });
        assertThat(Files.readAllLines(out.resolve("runs.csv"))).hasSize(3);
        assertThat(Files.readString(out.resolve("summary.md")))
                .contains("| slotpool |", "| hikari |", "÷ hikari", "borrow → SELECT 1 → close");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("20 requests in flight");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("run 1/1, slotpool: ", "run 1/1, hikari: ");
    }

    @Test
    void quickRunThroughDispatchersServesEveryChainAndReportsTheDispatchers() throws Exception {
        Assumptions.assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<PerRequest.Result> results = PerRequest.run(PerRequestOptions.parse("--quick", "--arrivals", "dispatch",
                "--dispatchers", "2", "--out", out.toString()), stream(printed), stream(new ByteArrayOutputStream()));

        assertThat(results).allSatisfy(r -> {
            assertThat(r.chains().min()).as("fewest requests of a chain of %s", r.pool()).isPositive();
            assertThat(r.errors()).as("errors of %s: %s", r.pool(), r.firstError()).isZero();
            assertThat(r.stragglers()).as("chains of %s that did not end", r.pool()).isZero();
            assertThat(r.queuedAtDispatch()).as("chains queued at the dispatchers").isNotNaN();
        });
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("started by 2 platform dispatcher threads", "chains queued at the dispatchers");
    }

    @Test
    void holdImpliesTheStatementAndBadValuesNameTheirOption() {
        PerRequestOptions o = PerRequestOptions.parse("--hold", "50us", "--in-flight", "300");
        assertThat(o.statement()).isTrue();
        assertThat(o.hold()).isEqualTo(Duration.ofNanos(50_000));
        assertThat(o.inFlight()).isEqualTo(300);
        assertThat(PerRequestOptions.parse().statement()).isFalse();
        assertThat(PerRequestOptions.parse().arrivals()).isEqualTo(PerRequestOptions.Arrivals.CHAIN);
        assertThatThrownBy(() -> PerRequestOptions.parse("--arrivals", "poller"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--arrivals");
        assertThatThrownBy(() -> PerRequestOptions.parse("--dispatchers", "0"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--dispatchers");
        assertThatThrownBy(() -> PerRequestOptions.parse("--in-flight", "0"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--in-flight");
        assertThatThrownBy(() -> PerRequestOptions.parse("--pools", "all"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--pools");
    }

    private static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
