/**
 * The slot table: a fixed array of slots changed only by CAS, and the hand-off of a returned slot to the
 * longest waiter. It is generic over its entry and knows nothing of JDBC, so it can be reasoned about and
 * model-checked on its own.
 *
 * <h2>Memory-ordering vocabulary</h2>
 * Every access to shared state names its {@link java.lang.invoke.VarHandle} access mode:
 * <ul>
 *   <li><b>plain</b>: no ordering; used only for fields owned by one thread at a time (the slot's holder) or
 *       published by a later release/volatile write;</li>
 *   <li><b>opaque</b>: atomic and eventually visible, no ordering with other fields; used for statistics that
 *       are racy but benign;</li>
 *   <li><b>acquire / release</b>: a release write publishes every earlier write to a thread whose acquire read
 *       sees it;</li>
 *   <li><b>volatile</b>: sequentially consistent; used where a thread writes one location and then reads
 *       another that a second thread writes in the opposite order (the Dekker pattern between a returner
 *       that makes a slot available and then looks for waiters, and a waiter that enqueues and then looks for
 *       available slots). A successful CAS is volatile.</li>
 * </ul>
 * Invariants are cited as S1–S7; they are defined in {@code docs/architecture.md}.
 */
package dev.slotpool.table;
