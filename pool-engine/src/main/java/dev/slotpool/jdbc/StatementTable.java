package dev.slotpool.jdbc;

import java.util.Arrays;

/**
 * The idle statements of one kind (prepared or callable) of a {@link StatementCache}: open addressing with linear
 * probing over one array, at most half full, so a lookup compares the fields of a few entries and allocates
 * nothing. Several idle statements may share a key (a holder that used two at once gives both back). Removal
 * shifts the following run back instead of leaving tombstones, so lookups never slow down as entries come and go.
 * Each entry knows its slot ({@link CachedStatement#index}), so evicting a given entry does not probe.
 *
 * <p>Plain fields: only the connection's holder uses it (S1).
 */
final class StatementTable {

    private final CachedStatement[] slots;
    private final int mask;
    private int size;
    /** Slots read to remove eviction victims: a plain count (the holder's, S1) by which StatementCacheTest bounds
     * the cost of a put into a full cache. */
    long evictionReads;

    /** A table for up to {@code capacity} idle statements. */
    StatementTable(int capacity) {
        int length = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1; // a power of two ≥ 2 × capacity
        slots = new CachedStatement[length];
        mask = length - 1;
    }

    int size() {
        return size;
    }

    /** Removes and returns an idle statement prepared with exactly these arguments ({@code hash} is
     * {@link CachedStatement#hash} of them), or null. */
    CachedStatement take(int hash, String sql, int type, int concurrency, int holdability, int generatedKeys,
                         int[] columnIndexes, String[] columnNames) {
        CachedStatement[] s = slots;
        for (int i = hash & mask; s[i] != null; i = (i + 1) & mask) {
            if (s[i].matches(hash, sql, type, concurrency, holdability, generatedKeys, columnIndexes, columnNames)) {
                CachedStatement found = s[i];
                removeAt(i);
                return found;
            }
        }
        return null;
    }

    /** Adds an idle statement; the caller keeps the table within its capacity. */
    void add(CachedStatement statement) {
        CachedStatement[] s = slots;
        int i = statement.hash & mask;
        while (s[i] != null) {
            i = (i + 1) & mask;
        }
        s[i] = statement;
        statement.index = i;
        size++;
    }

    /** Removes an eviction victim, counting the slots read ({@link #evictionReads}). */
    void evict(CachedStatement victim) {
        evictionReads += removeAt(victim.index);
    }

    /** Drops every idle statement. */
    void clear() {
        Arrays.fill(slots, null);
        size = 0;
    }

    /**
     * Empties slot {@code i} and moves back each entry of the run after it whose home slot is not in (i, j], so
     * every entry stays reachable from its home slot without a gap. Returns the slots read: the emptied one and
     * the run after it.
     */
    private int removeAt(int i) {
        CachedStatement[] s = slots;
        s[i] = null;
        size--;
        int reads = 1;
        for (int j = (i + 1) & mask; s[j] != null; j = (j + 1) & mask) {
            reads++;
            int home = s[j].hash & mask;
            boolean stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!stays) {
                s[i] = s[j];
                s[i].index = i;
                s[j] = null;
                i = j;
            }
        }
        return reads;
    }
}
