package dev.slotpool.kernel;

import dev.slotpool.PoolConfig;

/**
 * The kernel feature's door: the pool's lifecycle, its threads' factory, its events and the one door for user code
 * (docs/architecture.md, "Map"), built once per pool.
 */
public final class Kernel {

    private final PoolLifecycle lifecycle = new PoolLifecycle();
    private final PoolThreads threads;
    private final UserCode userCode;
    private final Events events;

    public Kernel(PoolConfig config) {
        this.threads = new PoolThreads(config);
        // Every call into user code goes through it (docs/architecture.md, "User code").
        this.userCode = new UserCode(config.name());
        this.events = new Events(config.name(), config.listeners(), userCode);
    }

    /** Whether the pool is open: the one shutdown state, read by every class that must know. */
    public PoolLifecycle lifecycle() {
        return lifecycle;
    }

    public PoolThreads threads() {
        return threads;
    }

    public UserCode userCode() {
        return userCode;
    }

    public Events events() {
        return events;
    }
}
