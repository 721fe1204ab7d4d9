package dev.slotpool.lending;

import dev.slotpool.OriginState;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.OriginStatus;
import dev.slotpool.origins.Origins;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * Whether the pool knows that no borrow can be served until an origin comes back (docs/architecture.md, "Borrow",
 * step 4): every configured origin is DOWN by the failure detector's own finding and the outage is confirmed (a
 * probe failed since its connects began to fail, and none succeeded since), and none of the origins connections
 * belong to (a discovery group's discovered ones included) is UP. No connection of such an origin is lent (S7) and none is
 * opened for it but a probe's, so a borrow would only wait for its timeout. Not known: connects that failed for a
 * moment (a pooler's KILL and RESUME) until the first probe, which a back-off follows; an origin UP, however slow
 * or refusing new sessions, or not yet tried; a DOWN for broken sessions whose server still takes connects (its
 * probe usually brings it back within a borrow timeout) until a probe fails; a DOWN set by an operator, a
 * suspension or the role watch (each ends by a decision, often within a borrow timeout).
 * Read on the borrow's slow path only, and by the housekeeper at each wake.
 */
public final class KnownOutage {

    /** What a borrow refused for a known outage throws through the table's {@code onShortage}; the borrow turns it
     * into {@link #failure}. Carries nothing: no stack, no message. */
    static final class Refusal extends RuntimeException {
        Refusal() {
            super(null, null, false, false);
        }
    }

    private static final Refusal REFUSAL = new Refusal();

    private final String poolName;
    private final Origins origins;

    public KnownOutage(String poolName, Origins origins) {
        this.poolName = poolName;
        this.origins = origins;
    }

    public boolean known() {
        for (Origin o : origins.configured()) {
            OriginStatus st = o.status();
            if (st.state() != OriginState.DOWN || !st.detected() || !o.health.outageConfirmed()) {
                return false;
            }
        }
        for (Origin o : origins.lending()) {
            if (o.isUp()) {
                return false;
            }
        }
        return true;
    }

    /** Throws {@link Refusal} if the outage is known. */
    void refuseIfKnown() {
        if (known()) {
            throw REFUSAL;
        }
    }

    /**
     * The failure a borrow gets at once: each configured origin with its current reason, the last connect or probe
     * failure (it follows the cause as it changes), else the reason it went DOWN (a run that ended meanwhile); the
     * last such failure, in configuration order, chained.
     */
    SQLException failure() {
        StringBuilder msg = new StringBuilder("pool '").append(poolName)
                .append("': every origin is DOWN (found by the failure detector), so no connection can be had "
                        + "until one answers a probe; failing at once rather than after the borrow timeout");
        SQLException cause = null;
        for (Origin o : origins.configured()) {
            SQLException current = o.health.currentFailure();
            if (current != null) { // a sanitized failure names its origin
                msg.append("; ").append(current.getMessage());
                cause = current;
            } else {
                msg.append("; origin '").append(o.name).append("': ").append(o.status().reason());
            }
        }
        String state = cause != null && cause.getSQLState() != null ? cause.getSQLState() : "08001";
        return new SQLTransientConnectionException(msg.toString(), state, cause);
    }
}
