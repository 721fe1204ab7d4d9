package dev.slotpool;

import java.util.Map;

/**
 * One slot as a snapshot saw it. Times are in milliseconds; -1 where they do not apply (no connection, not
 * borrowed).
 *
 * @param index          position in the table
 * @param state          the slot's state
 * @param retiring       borrowed and marked to be closed at return (drain, max lifetime)
 * @param borrowCount    borrows of the current connection
 * @param ageMillis      age of the current connection
 * @param idleMillis     time since the connection was last returned (available slots)
 * @param heldMillis     time since it was borrowed (borrowed slots)
 * @param holderThread   name of the thread holding it, or null
 * @param labels         the connection's labels
 * @param borrowStack    the holder's stack at borrow when leak tracing or the leak detection threshold is on, else null
 */
public record SlotSnapshot(int index, SlotState state, boolean retiring, long borrowCount, long ageMillis,
                           long idleMillis, long heldMillis, String holderThread, Map<String, String> labels,
                           String borrowStack) {
}
