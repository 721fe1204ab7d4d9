package dev.slotpool;

/**
 * The monotonic clock the pool's timers read (ages, idle and held times, lifetimes) and borrow deadlines are set
 * on: a borrow's deadline is one absolute time on it, from the DataSource to the park. Tests inject a manual one
 * to drive timers without sleeping; a waiting borrower reads it again at each wake, so a manual clock moved past
 * its deadline ends the wait at its next wake.
 */
@FunctionalInterface
public interface Ticker {

    /** The system's monotonic clock. */
    Ticker SYSTEM = System::nanoTime;

    /** {@return the current time in nanoseconds from an arbitrary origin}: only differences matter. */
    long nanoTime();
}
