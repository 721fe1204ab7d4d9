package dev.slotpool.supply;

import dev.slotpool.PoolConfig;
import dev.slotpool.PoolInitializationException;
import dev.slotpool.kernel.Loggers;
import dev.slotpool.origins.Origin;
import dev.slotpool.origins.Origins;
import dev.slotpool.table.Parking;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The start check of {@code initializationFailTimeout} (docs/architecture.md, "Creation"): the thread that builds
 * the pool waits until the creators opened a first connection on any origin. It fails once the timeout has passed
 * and every origin has had a failed attempt (a first connect unanswered for {@code connectTimeout} counts, as for
 * detection), or at the latest {@code connectTimeout} later. The builder's thread only polls: it opens nothing
 * itself (S6).
 */
public final class FirstConnection {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private FirstConnection() {
    }

    /**
     * Returns once the pool has opened a connection, or at once when the check is off (a negative timeout) or
     * nothing is opened at start ({@code initialSize} 0). Otherwise throws (the pool closes itself).
     *
     * @throws PoolInitializationException naming each origin and its last failure
     */
    public static void await(PoolConfig config, Origins origins) {
        long timeout = config.initializationFailTimeout().toNanos();
        if (timeout < 0 || config.initialSize() == 0) {
            Loggers.POOL.log(System.Logger.Level.INFO, () -> "[" + config.name() + "] start completed without "
                    + "waiting for a first connection (" + (timeout < 0 ? "initializationFailTimeout is negative"
                    : "initialSize is 0") + ")");
            return;
        }
        long start = System.nanoTime();
        long connectTimeout = config.connectTimeout().toNanos();
        while (!anyOriginAnswered(origins)) {
            long waited = System.nanoTime() - start;
            if (waited >= timeout && (everyOriginFailed(origins) || waited >= timeout + connectTimeout)) {
                throw failure(config, origins, waited);
            }
            Parking.park(FirstConnection.class, POLL_NANOS);
        }
        long waited = System.nanoTime() - start;
        Loggers.POOL.log(System.Logger.Level.INFO, () -> "[" + config.name() + "] start completed: first connection in "
                + TimeUnit.NANOSECONDS.toMillis(waited) + " ms; " + describe(origins));
    }

    /** The configured origins, named with their redacted URLs, for the start lines. */
    public static String describe(Origins origins) {
        StringBuilder sb = new StringBuilder(origins.configured().length == 1 ? "origin " : "origins ");
        for (Origin o : origins.configured()) {
            sb.append(sb.charAt(sb.length() - 1) == ' ' ? "" : ", ").append(Origin.describe(o.config));
        }
        return sb.toString();
    }

    /** Whether an origin's last connect gave a usable connection: its mean connect time is kept from the first
     * success on and reset by a failure. Not the opened count, which also counts a connection whose init SQL
     * failed. */
    private static boolean anyOriginAnswered(Origins origins) {
        for (Origin o : origins.configured()) {
            if (o.health.meanConnectNanos() > 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean everyOriginFailed(Origins origins) {
        for (Origin o : origins.configured()) {
            if (o.weight > 0 && o.health.connectFailures() == 0) {
                return false;
            }
        }
        return true;
    }

    private static PoolInitializationException failure(PoolConfig config, Origins origins, long waitedNanos) {
        Map<String, String> failures = new LinkedHashMap<>();
        StringBuilder m = new StringBuilder("pool '").append(config.name())
                .append("' could not open a first connection in ").append(TimeUnit.NANOSECONDS.toMillis(waitedNanos))
                .append(" ms (initializationFailTimeout is ").append(config.initializationFailTimeout().toMillis())
                .append(" ms; a negative value starts the pool without waiting):");
        SQLException newest = null;
        for (Origin o : origins.configured()) {
            SQLException last = o.health.lastFailure();
            String why = last != null ? last.getMessage()
                    : o.weight == 0 ? "not tried (weight 0)" : "no attempt ended yet";
            failures.put(o.name, why);
            m.append("\n    origin ").append(Origin.describe(o.config)).append(": ").append(why);
            if (last != null) {
                newest = last;
            }
        }
        return new PoolInitializationException(m.toString(), failures, newest);
    }
}
