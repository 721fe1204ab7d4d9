package dev.slotpool.autoconfigure.metrics;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotPoolDataSource;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each origin's role and a standby's replica lag as meters (docs/operations.md, Meters; docs/failover.md, "Primary
 * and standbys"): the role as a 1-of-n gauge, the lag as a time gauge that is NaN where no lag is known (a primary,
 * or a standby whose lag could not be read). The snapshot is made by hand through the public API.
 */
class RoleMetersTest {

    @Test
    void theRoleIsOneOfNAndAStandbysReplicaLagATimeGauge() {
        PoolConfig config = SlotPoolDataSource.builder().name("ha").maxSize(4)
                .origin(OriginConfig.named("first").url("jdbc:postgresql://127.0.0.1:5432/shop"))
                .origin(OriginConfig.named("second").url("jdbc:postgresql://127.0.0.1:5433/shop"))
                .config();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SlotPoolMetrics metrics = new SlotPoolMetrics(registry);
        metrics.onStart(config);
        PoolSnapshot snapshot = new PoolSnapshot("ha", false, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                Optional.empty(), List.of(origin("first", ServerRole.PRIMARY, -1),
                origin("second", ServerRole.STANDBY, 814)));
        metrics.attach(() -> snapshot);

        assertThat(registry.get("slotpool.origin.role").tags("origin", "first", "role", "PRIMARY").gauge().value())
                .isEqualTo(1);
        assertThat(registry.get("slotpool.origin.role").tags("origin", "first", "role", "STANDBY").gauge().value())
                .isZero();
        assertThat(registry.get("slotpool.origin.role").tags("origin", "second", "role", "STANDBY").gauge().value())
                .isEqualTo(1);
        assertThat(registry.get("slotpool.origin.replica.lag").tags("origin", "second").timeGauge()
                .value(TimeUnit.MILLISECONDS)).isEqualTo(814);
        assertThat(registry.get("slotpool.origin.replica.lag").tags("origin", "first").timeGauge()
                .value(TimeUnit.MILLISECONDS)).as("no lag known for a primary").isNaN();
        assertThat(registry.scrape()).contains(
                "slotpool_origin_replica_lag_seconds{origin=\"second\",pool=\"ha\"} 0.814",
                "slotpool_origin_role{origin=\"second\",pool=\"ha\",role=\"STANDBY\"} 1.0");
    }

    private static OriginSnapshot origin(String name, ServerRole role, long lagMillis) {
        return new OriginSnapshot(name, "jdbc:postgresql://127.0.0.1/shop", null, null, null, null, OriginState.UP,
                "configured", false, role, lagMillis, 1, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), null,
                null, null);
    }
}
