package dev.slotpool.table;

/**
 * Which entries a scan may take. Read on entries of {@code AVAILABLE} slots without owning them, so an
 * implementation must read only fields that are final or racy-but-benign; the caller re-checks what matters
 * once it owns the slot.
 */
@FunctionalInterface
public interface EntryFilter<T> {
    boolean accept(T entry);
}
