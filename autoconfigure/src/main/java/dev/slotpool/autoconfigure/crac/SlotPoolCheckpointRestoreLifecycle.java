package dev.slotpool.autoconfigure.crac;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPools;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.Lifecycle;

import java.util.Collection;

/**
 * Suspends every slotpool of the application before a JVM checkpoint and resumes them after the restore, as Boot's
 * {@code HikariCheckpointRestoreLifecycle} does for HikariCP (docs/operations.md, Checkpoint and restore). Spring's
 * lifecycle processor calls {@link #stop()} before the checkpoint: each pool closes its idle connections at once
 * and its borrowed ones at return, aborting those still out after the pool's {@code shutdownTimeout}, and creates
 * none ({@link SlotPoolDataSource#suspend}). {@link #start()} after the restore brings each back to
 * {@code minSize}. At the context's close it does nothing: closing the pools is their own {@code close()}.
 */
public final class SlotPoolCheckpointRestoreLifecycle implements Lifecycle {

    private static final Log logger = LogFactory.getLog(SlotPoolCheckpointRestoreLifecycle.class);

    private final Collection<SlotPoolDataSource> pools;
    private final ConfigurableApplicationContext context;

    public SlotPoolCheckpointRestoreLifecycle(SlotPools pools, ConfigurableApplicationContext context) {
        this.pools = pools.all().values();
        this.context = context;
    }

    @Override
    public void start() {
        for (SlotPoolDataSource pool : pools) {
            if (!pool.isClosed()) {
                pool.resume();
            }
        }
    }

    @Override
    public void stop() {
        if (context.isClosed()) {
            return;
        }
        for (SlotPoolDataSource pool : pools) {
            if (pool.isClosed() || pool.isSuspended()) {
                continue;
            }
            try {
                if (!pool.suspend(pool.config().shutdownTimeout())) {
                    logger.warn("slotpool '" + pool.config().name() + "' still had connections open after "
                            + pool.config().shutdownTimeout().toMillis() + " ms: " + pool.snapshot().summary());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Running while some pool is open and not suspended. */
    @Override
    public boolean isRunning() {
        return pools.stream().anyMatch(p -> !p.isClosed() && !p.isSuspended());
    }
}
