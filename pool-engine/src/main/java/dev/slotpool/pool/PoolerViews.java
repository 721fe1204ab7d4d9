package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolerView;
import dev.slotpool.pool.ground.Origin;
import dev.slotpool.pool.ground.PoolLifecycle;
import dev.slotpool.pool.ground.PoolThreads;
import dev.slotpool.pooler.PgBouncerAdmin;

import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The pooler's own view of each origin that has a {@code poolerAdminUrl} (docs/poolers.md, "Sizing a fleet"):
 * read from its admin console every {@code housekeepingPeriod} on a thread of its own, so a slow console delays no
 * other pool work; snapshots read the latest view. A pool without such an origin starts no thread.
 */
final class PoolerViews {

    private final List<Console> consoles;
    private final Map<String, Reading> latest = new ConcurrentHashMap<>();
    private final PoolLifecycle lifecycle;
    private final long periodNanos;
    private final Duration timeout;
    private final Thread thread;

    private record Console(String origin, String database, PgBouncerAdmin admin) {
    }

    /** The last read of a console: its view, or why it failed (never both). */
    record Reading(PoolerView view, String error) {
    }

    PoolerViews(PoolConfig config, PoolLifecycle lifecycle) {
        this.lifecycle = lifecycle;
        this.periodNanos = config.housekeepingPeriod().toNanos();
        this.timeout = config.validationTimeout();
        this.consoles = config.origins().stream().filter(o -> o.poolerAdminUrl() != null)
                .map(o -> new Console(o.name(), database(o), PgBouncerAdmin.at(o.poolerAdminUrl()))).toList();
        this.thread = consoles.isEmpty() ? null : new PoolThreads(config).newThread(this::run, "pooler-views");
    }

    /** The database a client names in the origin's URL: the name PgBouncer's pools go by. */
    private static String database(OriginConfig o) {
        String url = o.url().startsWith("jdbc:") ? o.url().substring(5) : o.url();
        try {
            String path = URI.create(url).getPath();
            return path == null || path.length() <= 1 ? "postgres" : path.substring(1);
        } catch (IllegalArgumentException e) {
            return "postgres";
        }
    }

    void start() {
        if (thread != null) {
            thread.start();
        }
    }

    /**
     * The latest read of a configured origin's console, or of a discovered origin's group's; null if none yet. One
     * read gives a snapshot both its view and its error, so they never come from two reads.
     */
    Reading reading(Origin o) {
        return latest.get(o.parent != null ? o.parent.name : o.name);
    }

    private void run() {
        while (!lifecycle.closed()) {
            for (Console c : consoles) {
                try {
                    latest.put(c.origin, new Reading(c.admin.showPools(c.database, timeout), null));
                } catch (IOException | SQLException | RuntimeException e) {
                    // A console that does not answer shows as no view, not a stale one, and says why. The message
                    // is PgBouncerAdmin's or the socket's: it never holds the console URL, so no password.
                    latest.put(c.origin, new Reading(null, e.getMessage() != null ? e.getMessage()
                            : e.getClass().getSimpleName()));
                }
            }
            LockSupport.parkNanos(this, periodNanos);
        }
    }
}
