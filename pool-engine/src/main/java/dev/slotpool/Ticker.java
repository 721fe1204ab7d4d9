package dev.slotpool;

/**
 * The monotonic clock the pool's timers read (ages, idle and held times, lifetimes). Tests inject a manual one
 * to drive timers without sleeping; borrow timeouts always use {@link System#nanoTime()} because they park
 * real threads.
 */
@FunctionalInterface
public interface Ticker {

    /** The system's monotonic clock. */
    Ticker SYSTEM = System::nanoTime;

    /** Current time in nanoseconds from an arbitrary origin; only differences matter. */
    long nanoTime();
}
