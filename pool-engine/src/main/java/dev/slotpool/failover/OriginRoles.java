package dev.slotpool.failover;

import dev.slotpool.ServerRole;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Decides, from the roles its servers report, which origins may serve borrows that may write (docs/failover.md,
 * "Primary and standbys"): a primary, or a server with no role query (UNKNOWN: its role is not read); not a
 * standby or a read-only server; and not an old primary that still claims the role on a lower timeline of the same
 * family (cluster) than a primary seen since, until an operator accepts it ({@link #accept}). Independent primaries
 * (different families) never compare timelines. Written by the pool threads that read roles, read by all; the
 * knowledge is one immutable map replaced by CAS.
 */
public final class OriginRoles {

    /** The latest reading of an origin and the timeline an operator accepted for it (0: none). */
    private record Known(RoleReading reading, long acceptedTimeline) {
    }

    /** The highest timeline a primary of a family was seen on, and which origin reported it. */
    private record Highest(String origin, long timeline) {
    }

    private record State(Map<String, Known> origins, Map<String, Highest> highest) {
    }

    private final AtomicReference<State> state = new AtomicReference<>(new State(Map.of(), Map.of()));

    /**
     * Records what the origin's server answered; returns null when the origin may serve borrows that may write,
     * else why not (for the origin's state reason and the event log). UNKNOWN from a server that answered with a
     * role before is no answer (its role query failed: a statement timeout, a recovery conflict's cancel, a lost
     * privilege; the product of a server does not change): the last reading, and its verdict, stand. UNKNOWN from
     * a server never read otherwise is a database without a role query, which takes writes.
     */
    public String judge(String origin, RoleReading reading) {
        State before;
        State after;
        do {
            before = state.get();
            Known old = before.origins.get(origin);
            if (reading.role() == ServerRole.UNKNOWN && old != null && old.reading.role() != ServerRole.UNKNOWN) {
                return refusal(before, origin);
            }
            Map<String, Known> origins = new HashMap<>(before.origins);
            origins.put(origin, new Known(reading, old == null ? 0 : old.acceptedTimeline));
            Map<String, Highest> highest = before.highest;
            if (reading.role() == ServerRole.PRIMARY && reading.cluster() != null && reading.timeline() > 0) {
                Highest h = highest.get(reading.cluster());
                if (h == null || reading.timeline() > h.timeline) {
                    highest = new HashMap<>(highest);
                    highest.put(reading.cluster(), new Highest(origin, reading.timeline()));
                }
            }
            after = new State(Map.copyOf(origins), Map.copyOf(highest));
        } while (!state.compareAndSet(before, after));
        return refusal(after, origin);
    }

    /** Why the origin may not serve borrows that may write, from its latest reading; null when it may (or was
     * never read). */
    public String refusal(String origin) {
        return refusal(state.get(), origin);
    }

    /** Whether the origin takes writes by its own answer but is refused as an outranked primary. */
    private static boolean splitBrain(State s, String origin) {
        return s.origins.get(origin).reading.takesWrites() && refusal(s, origin) != null;
    }

    private static String refusal(State s, String origin) {
        Known k = s.origins.get(origin);
        if (k == null) {
            return null;
        }
        RoleReading r = k.reading;
        if (!r.takesWrites()) {
            return r.detail();
        }
        if (r.role() != ServerRole.PRIMARY || r.cluster() == null) {
            return null;
        }
        Highest h = s.highest.get(r.cluster());
        if (h == null || r.timeline() >= h.timeline || k.acceptedTimeline == r.timeline()) {
            return null;
        }
        return "split brain: primary on timeline " + r.timeline() + " when last asked, but '" + h.origin
                + "' was seen primary on timeline " + h.timeline + " since; takes no writes until an operator marks it"
                + " up";
    }

    /** An operator's markUp: a split brain refusing the origin now is accepted on its current timeline, so it no
     * longer refuses it. With none to accept nothing is recorded, so a later failover's split brain on that same
     * timeline still refuses it. */
    public void accept(String origin) {
        State before;
        State after;
        do {
            before = state.get();
            Known k = before.origins.get(origin);
            if (k == null || !splitBrain(before, origin)) {
                return;
            }
            Map<String, Known> origins = new HashMap<>(before.origins);
            origins.put(origin, new Known(k.reading, k.reading.timeline()));
            after = new State(Map.copyOf(origins), before.highest);
        } while (!state.compareAndSet(before, after));
    }

    /** The origin that takes writes as the primary of the family {@code cluster} (its latest reading PRIMARY, not
     * refused), or null when none does. */
    public String primaryOf(String cluster) {
        State s = state.get();
        for (Map.Entry<String, Known> e : s.origins.entrySet()) {
            RoleReading r = e.getValue().reading;
            if (r.role() == ServerRole.PRIMARY && cluster.equals(r.cluster()) && refusal(s, e.getKey()) == null) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The origin's latest reading, or null if its role was never read. */
    public RoleReading reading(String origin) {
        Known k = state.get().origins.get(origin);
        return k == null ? null : k.reading;
    }
}
