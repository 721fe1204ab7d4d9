package dev.slotpool.failover;

import dev.slotpool.OriginState;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;

import java.sql.SQLException;

/**
 * What a probe's outcome means ({@link Probes} report here): it counts like a connect's ({@link FailureDetector}),
 * and one that answers brings back an origin the pool marked DOWN, unless its role refuses it (docs/failover.md,
 * "Primary and standbys": an old primary outranked while dead) and it is not a standby kept for reads. Registered by the pool's wiring, so the
 * detector and its outcomes do not name each other.
 */
final class ProbeOutcomes implements Probes.Outcomes {

    private final FailureDetector detector;
    private final OriginOperations operations;
    private final RoleWatch roles;

    ProbeOutcomes(FailureDetector detector, OriginOperations operations, RoleWatch roles) {
        this.detector = detector;
        this.operations = operations;
        this.roles = roles;
    }

    @Override
    public void answered(Origin o, OriginStatus before, long now) {
        detector.connected(o);
        if (before.state() == OriginState.DOWN && (roles.roles().refusal(o.name) == null || o.keptForReads())) {
            operations.upIfStill(o, before, "probe succeeded");
        }
    }

    @Override
    public void failed(Origin o, SQLException sanitized, long now) {
        detector.probeFailed(o, sanitized, now);
    }

    @Override
    public long unansweredAfterNanos(Origin o) {
        return detector.unansweredAfterNanos(o);
    }
}
