package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.PoolerView;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotPoolDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pooler's view as meters (docs/operations.md, Meters): gauges per origin with a pooler admin URL, read from
 * the snapshot's {@link PoolerView}, NaN while the console does not answer; none for an origin without one. The
 * snapshots here are made by hand through the public API (a real PgBouncer's are in the sample app's
 * {@code PoolerConsoleBrowserTest}).
 */
class PoolerMetersTest {

    private static final String CONSOLE_PASSWORD = "Console-pw-3Kd8-never-shown";

    @Test
    void thePoolersViewIsGaugedPerOriginWithAConsoleAndNaNWhileItDoesNotAnswer() {
        PoolConfig config = SlotPoolDataSource.builder().name("fleet").maxSize(4)
                .origin(OriginConfig.named("bouncer-a").url("jdbc:postgresql://127.0.0.1:6432/shop")
                        .poolerAdminUrl("postgresql://127.0.0.1:6432/pgbouncer?user=stats&password=" + CONSOLE_PASSWORD))
                .origin(OriginConfig.named("direct").url("jdbc:postgresql://127.0.0.1:5432/shop"))
                .config();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SlotPoolMetrics metrics = new SlotPoolMetrics(registry);
        metrics.onStart(config);
        AtomicReference<PoolSnapshot> snapshot = new AtomicReference<>(snapshot(
                new PoolerView(100, 7, 10, 0, 0, 1_500_000, Instant.parse("2026-11-26T18:00:00Z")), null));
        metrics.attach(snapshot::get);

        assertThat(gauge("slotpool.pooler.clients", "bouncer-a", "active", registry)).isEqualTo(100);
        assertThat(gauge("slotpool.pooler.clients", "bouncer-a", "waiting", registry)).isEqualTo(7);
        assertThat(gauge("slotpool.pooler.servers", "bouncer-a", "active", registry)).isEqualTo(10);
        assertThat(gauge("slotpool.pooler.servers", "bouncer-a", "idle", registry)).isZero();
        assertThat(gauge("slotpool.pooler.servers", "bouncer-a", "used", registry)).isZero();
        TimeGauge maxWait = registry.get("slotpool.pooler.max.wait").tags("pool", "fleet", "origin", "bouncer-a")
                .timeGauge();
        assertThat(maxWait.value(TimeUnit.SECONDS)).isEqualTo(1.5);
        assertThat(registry.find("slotpool.pooler.clients").tag("origin", "direct").gauges())
                .as("an origin without a pooler console has no pooler meters").isEmpty();
        assertThat(registry.find("slotpool.pooler.max.wait").tag("origin", "direct").timeGauge()).isNull();

        String scrape = registry.scrape();
        assertThat(scrape).contains(
                "slotpool_pooler_clients{origin=\"bouncer-a\",pool=\"fleet\",state=\"active\"} 100.0",
                "slotpool_pooler_clients{origin=\"bouncer-a\",pool=\"fleet\",state=\"waiting\"} 7.0",
                "slotpool_pooler_servers{origin=\"bouncer-a\",pool=\"fleet\",state=\"active\"} 10.0",
                "slotpool_pooler_servers{origin=\"bouncer-a\",pool=\"fleet\",state=\"used\"} 0.0",
                "slotpool_pooler_max_wait_seconds{origin=\"bouncer-a\",pool=\"fleet\"} 1.5")
                .doesNotContain("origin=\"direct\",pool=\"fleet\",state=\"waiting\"")
                .doesNotContain(CONSOLE_PASSWORD);

        // The console stops answering: no view, so no value (not the last one, not a zero). A second binding, as
        // the first one's gauges read its cached snapshot for up to a second.
        snapshot.set(snapshot(null, "Connection refused"));
        PrometheusMeterRegistry second = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SlotPoolMetrics unanswered = new SlotPoolMetrics(second);
        unanswered.onStart(config);
        unanswered.attach(snapshot::get);
        assertThat(gauge("slotpool.pooler.clients", "bouncer-a", "waiting", second)).isNaN();
        assertThat(second.get("slotpool.pooler.max.wait").tag("origin", "bouncer-a").timeGauge()
                .value(TimeUnit.SECONDS)).isNaN();
    }

    private static double gauge(String name, String origin, String state, PrometheusMeterRegistry registry) {
        Gauge g = registry.get(name).tags("pool", "fleet", "origin", origin, "state", state).gauge();
        return g.value();
    }

    private static PoolSnapshot snapshot(PoolerView view, String error) {
        return new PoolSnapshot("fleet", false, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Optional.empty(), List.of(
                origin("bouncer-a", view, error), origin("direct", null, null)));
    }

    private static OriginSnapshot origin(String name, PoolerView view, String error) {
        return new OriginSnapshot(name, "jdbc:postgresql://127.0.0.1/shop", null, null, null, null, OriginState.UP,
                "configured", false, ServerRole.UNKNOWN, -1, 1, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), view,
                error, null);
    }
}
