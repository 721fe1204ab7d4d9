package dev.slotpool.jdbc;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The statement cache counts of an origin's connections that have been closed; live connections count in their
 * own {@link StatementCache}, and a snapshot adds the two (as an origin's retired borrows and its connections'
 * borrow counts). Written once per closed connection, off the hot path.
 */
public final class StatementCacheTotals {

    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();

    /**
     * The pool closed a connection: its counts move here and its cache is emptied, so none of its statements is
     * ever handed out again. Called by the pool after the physical close, once per connection (S2); nothing for a
     * connection without a cache.
     */
    public void retire(StatementCache cache) {
        if (cache == null) {
            return;
        }
        cache.close();
        hits.addAndGet(cache.hits);
        misses.addAndGet(cache.misses);
        evictions.addAndGet(cache.evictions);
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }

    public long evictions() {
        return evictions.get();
    }
}
