package dev.slotpool.origins;

import dev.slotpool.jdbc.StatementCache;
import dev.slotpool.jdbc.StatementCacheTotals;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What an origin's closed connections leave behind for its snapshot: their borrows and their statement caches'
 * counts (live connections count in their own entry and cache, and a snapshot adds the two). Written by
 * {@code Closing} alone, once per closed connection on the closer's thread (S2); read by snapshots.
 */
public final class ClosedConnections {

    private final AtomicLong borrows = new AtomicLong();
    private final StatementCacheTotals statements = new StatementCacheTotals();

    /** A connection was closed: its borrows and its statement cache's counts (null: none) move here, and the
     * cache is emptied. */
    public void add(long borrowCount, StatementCache cache) {
        borrows.addAndGet(borrowCount);
        statements.retire(cache);
    }

    /** Borrows of this origin's connections that have since been closed. */
    public long borrows() {
        return borrows.get();
    }

    /** The statement cache counts of this origin's closed connections. */
    public StatementCacheTotals statements() {
        return statements;
    }
}
