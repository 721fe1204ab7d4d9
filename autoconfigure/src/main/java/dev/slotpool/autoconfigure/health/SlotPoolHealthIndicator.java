package dev.slotpool.autoconfigure.health;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pool's health with each origin's state and counts. UP while at least one origin is UP: a drained or
 * down origin is an operator's or the detector's decision the pool routes around, not an outage. DOWN when no
 * origin can serve (a database down since the app started included: the app starts, this reports it) or the pool
 * is closed. Reads a snapshot only, so it never borrows or opens a connection and answers at once; a bean-style
 * pool not started yet is UNKNOWN, as reading a snapshot would start it.
 */
public final class SlotPoolHealthIndicator implements HealthIndicator {

    private final SlotPoolDataSource pool;

    public SlotPoolHealthIndicator(SlotPoolDataSource pool) {
        this.pool = pool;
    }

    @Override
    public Health health() {
        if (!pool.isStarted()) {
            return Health.unknown().withDetail("reason", "not started: the pool starts at its first use").build();
        }
        PoolSnapshot s = pool.snapshot();
        Map<String, Object> origins = new LinkedHashMap<>();
        long serving = 0;
        for (OriginSnapshot o : s.origins()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("state", o.state());
            if (o.stateReason() != null) {
                d.put("reason", o.stateReason());
            }
            if (o.refusingNewSessions()) {
                d.put("refusingNewSessions", true); // still UP: its sessions serve
            }
            d.put("total", o.total());
            d.put("available", o.available());
            d.put("borrowed", o.borrowed());
            d.put("weight", o.weight());
            origins.put(o.name(), d);
            if (o.state() == OriginState.UP) {
                serving++;
            }
        }
        Health.Builder h = (!s.closed() && serving > 0) ? Health.up() : Health.down();
        h.withDetail("pool", s.name()).withDetail("total", s.total()).withDetail("available", s.available())
                .withDetail("borrowed", s.borrowed()).withDetail("waiting", s.waiting())
                .withDetail("max", s.maxSize()).withDetail("origins", origins);
        if (s.closed()) {
            h.withDetail("reason", "pool is closed");
        } else if (serving == 0) {
            h.withDetail("reason", "no origin is UP");
        }
        s.lastCreationFailure().ifPresent(f -> h.withDetail("lastCreationFailure", f));
        return h.build();
    }
}
