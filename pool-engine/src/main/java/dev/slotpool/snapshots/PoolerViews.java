package dev.slotpool.snapshots;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.PoolerView;
import dev.slotpool.kernel.PoolLifecycle;
import dev.slotpool.kernel.PoolThreads;
import dev.slotpool.origins.Origin;
import dev.slotpool.pooler.PgBouncerAdmin;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The pooler's own view of each origin that has a {@code poolerAdminUrl} (docs/poolers.md, "Sizing a fleet"):
 * read from its admin console every {@code housekeepingPeriod} on a thread of its own, so a slow console delays no
 * other pool work; snapshots read the latest view. A pool without such an origin starts no thread. The thread
 * survives whatever a read throws ({@code Error}s included); a reading older than two rounds of reads says so, so a
 * view is never shown as current when nothing has read the console since. {@link #close()} wakes and joins the
 * thread.
 */
public final class PoolerViews {

    /** How a stale reading's error begins. */
    private static final String STALE = "stale: the console was last read ";

    private final List<Console> consoles;
    private final Map<String, Reading> latest = new ConcurrentHashMap<>();
    private final PoolLifecycle lifecycle;
    private final long periodNanos;
    private final Duration timeout;
    /** How old a reading may be before it is stale: two rounds of reads, each console taking its timeout. */
    private final long staleNanos;
    private final Thread thread;

    private record Console(String origin, String database, PgBouncerAdmin admin) {
    }

    /** The last read of a console: its view, or why it failed; both once it is stale (the last view, and how old
     * it is). {@code at} is when it was read (System.nanoTime). */
    public record Reading(PoolerView view, String error, long at) {
    }

    public PoolerViews(PoolConfig config, PoolLifecycle lifecycle) {
        this.lifecycle = lifecycle;
        this.periodNanos = config.housekeepingPeriod().toNanos();
        this.timeout = config.validationTimeout();
        this.consoles = config.origins().stream().filter(o -> o.poolerAdminUrl() != null)
                .map(o -> new Console(o.name(), database(o), PgBouncerAdmin.at(o.poolerAdminUrl()))).toList();
        this.staleNanos = 2 * (periodNanos + consoles.size() * timeout.toNanos());
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

    public void start() {
        if (thread != null) {
            thread.start();
        }
    }

    /**
     * The latest read of a configured origin's console, or of a discovered origin's group's; null if none yet. One
     * read gives a snapshot both its view and its error, so they never come from two reads.
     */
    public Reading reading(Origin o) {
        return reading(o.parent != null ? o.parent.name : o.name);
    }

    /** The latest read of the console of the configured origin named {@code origin}, marked stale if it is. */
    public Reading reading(String origin) {
        Reading r = latest.get(origin);
        long age = r == null ? 0 : System.nanoTime() - r.at();
        if (age <= staleNanos) {
            return r;
        }
        return new Reading(r.view(), STALE + TimeUnit.NANOSECONDS.toMillis(age) + " ms ago (read every "
                + TimeUnit.NANOSECONDS.toMillis(periodNanos) + " ms)" + (r.error() == null ? "" : ": " + r.error()),
                r.at());
    }

    /** Wakes the thread and waits for it to end: at most one console read's timeout, since it looks at the
     * lifecycle before each read and close() has moved it out of OPEN before calling this. */
    public void close() {
        if (thread != null && thread.isAlive()) {
            LockSupport.unpark(thread);
            PoolThreads.joinUntil(thread, System.nanoTime() + timeout.toNanos() + TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private void run() {
        while (!lifecycle.closed()) {
            readAll();
            if (!lifecycle.closed()) {
                LockSupport.parkNanos(this, periodNanos);
            }
        }
    }

    /** One read of every console. Whatever a read throws is its reading's error: this thread must not die of it,
     * or the last views would be shown as current. */
    public void readAll() {
        for (Console c : consoles) {
            if (lifecycle.closed()) {
                return;
            }
            try {
                latest.put(c.origin, new Reading(c.admin.showPools(c.database, timeout), null, System.nanoTime()));
            } catch (Throwable e) {
                // A console that does not answer shows as no view, not a stale one, and says why. The message is
                // PgBouncerAdmin's or the socket's: it never holds the console URL, so no password.
                latest.put(c.origin, new Reading(null, e.getMessage() != null ? e.getMessage()
                        : e.getClass().getSimpleName(), System.nanoTime()));
            }
        }
    }
}
