package dev.slotpool.slots;

import dev.slotpool.CloseReason;

/**
 * What the pool's features tell the pool happened (docs/architecture.md, "Signals"). A feature names the event; the
 * pool alone decides who acts on it, so no feature holds another's wake-up or callback, and every collaborator is
 * complete when it is built. Signals are sent on pool threads and user threads alike: each implementation only
 * wakes a thread or moves state by CAS (S4), and none runs user code.
 */
public interface Signals {

    /** A connection's physical close is done (on the closer's thread): its slot and room are free again (S2, S3). */
    void closed(PooledConnection e, CloseReason reason);

    /** There may be something to open: room came free, an origin came back, weights or roles changed. */
    void creationWanted();

    /** A borrower found nothing free: creators wake if a connection could be made (room, or a drain to close). */
    void borrowerShort();

    /** Timed work changed before the next housekeeping visit (a drain, an abort deadline, a DOWN to probe). */
    void housekeepingDue();
}
