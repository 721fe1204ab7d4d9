package dev.slotpool.jdbc;

import java.sql.Statement;

/**
 * A physical connection's idle prepared and callable statements, kept for the connection's next holders
 * (docs/statement-cache.md; {@code statementCacheSize}). One {@link StatementTable} per kind; the two share
 * {@link #capacity} and one age counter. The idle statement that came back last is kept out of the tables, in
 * {@link #recent}: a holder that prepares the same SQL again and again takes it and gives it back without a
 * table's hash, probe, insert or removal; it goes into its table when another statement comes back.
 *
 * <p><b>Bound.</b> Every {@link #put} advances the age counter. A put into a full cache replaces the least
 * recently used idle statement (of either kind) only if it has not been used for more than 4 × capacity puts;
 * otherwise the statement coming back is closed, not cached. So a burst of one-off SQL cannot flush statements
 * that are in steady use, and statements nobody uses any more make room after a while. The idle statements of both
 * kinds are also linked in the order they came back ({@link CachedStatement#older}/{@link CachedStatement#newer}),
 * so the least recently used is the list's head: a put into a full cache reads it, not both tables.
 *
 * <p><b>Ownership.</b> The cache belongs to the physical connection ({@code PooledConnection}) and is used only by
 * the connection's holder, through its {@link ProxyConnection} (S1): a statement is removed while it is lent, so two
 * holders never share one, and every field is plain, written by the holder alone, with no shared write on the hot
 * path. The counters are summed racily by snapshots, like a connection's borrow count; when the pool closes the
 * connection, {@link StatementCacheTotals#retire} adds them to the origin's totals and empties the cache (the
 * driver's connection close releases the statements; JDBC's {@code Connection.close}).
 */
public final class StatementCache {

    /** Entries unused for more than this many puts (per unit of capacity) may be replaced by a put. */
    static final int AGE_FACTOR = 4;

    private final int capacity;
    private final StatementTable prepared;
    private final StatementTable callable;
    /** Puts so far: the age counter. */
    private long age;
    /** The idle statement that came back longest ago and the latest one, both kinds together; null when empty. */
    private CachedStatement oldest;
    private CachedStatement newest;
    /** The latest idle statement while it is in neither table (then it is also {@link #newest}); else null. */
    private CachedStatement recent;
    /** Set when the pool closed the connection: nothing is cached or handed out any more. */
    private boolean closed;

    // Owner-written counters, read racily by snapshots (see the class comment).
    long hits;
    long misses;
    long evictions;

    /** A cache for up to {@code capacity} idle statements, prepared and callable together; capacity ≥ 1. */
    public StatementCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.prepared = new StatementTable(capacity);
        this.callable = new StatementTable(capacity);
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public long evictions() {
        return evictions;
    }

    /** Slots read so far to remove eviction victims (see {@link StatementTable#evictionReads}). */
    long evictionReads() {
        return prepared.evictionReads + callable.evictionReads;
    }

    /** Idle statements now. */
    int idle() {
        return prepared.size() + callable.size() + (recent == null ? 0 : 1);
    }

    /**
     * Removes and returns an idle statement prepared with exactly these arguments (counted as a hit), or null (a
     * miss: the caller prepares one). {@link CachedStatement#NONE} stands for an argument the holder did not give.
     */
    CachedStatement take(boolean isCall, String sql, int type, int concurrency, int holdability, int generatedKeys,
                         int[] columnIndexes, String[] columnNames) {
        CachedStatement found = recent;
        if (found != null && found.isFor(isCall, sql, type, concurrency, holdability, generatedKeys, columnIndexes,
                columnNames)) {
            recent = null; // asked for again by the same SQL string: no hash, no table
        } else {
            found = closed ? null
                    : lookUp(isCall, sql, type, concurrency, holdability, generatedKeys, columnIndexes, columnNames);
        }
        if (found != null) {
            unlink(found);
            hits++;
        } else {
            misses++;
        }
        return found;
    }

    /** Removes and returns an idle statement with this key, {@link #recent} or one from the kind's table. */
    private CachedStatement lookUp(boolean isCall, String sql, int type, int concurrency, int holdability,
                                   int generatedKeys, int[] columnIndexes, String[] columnNames) {
        int hash = CachedStatement.hash(sql, type, concurrency, holdability, generatedKeys);
        CachedStatement r = recent;
        if (r != null && r.callable == isCall
                && r.matches(hash, sql, type, concurrency, holdability, generatedKeys, columnIndexes, columnNames)) {
            recent = null;
            return r;
        }
        return (isCall ? callable : prepared).take(hash, sql, type, concurrency, holdability, generatedKeys,
                columnIndexes, columnNames);
    }

    /**
     * Offers a statement that its holder closed (and that {@link CachedStatement#reset()} made fresh). Returns the
     * driver statement the caller must close: a replaced one, the offered one when the cache keeps it out, or
     * null.
     */
    Statement put(CachedStatement statement) {
        long now = ++age;
        if (closed) {
            return statement.statement;
        }
        if (idle() >= capacity) {
            CachedStatement victim = oldest;
            if (victim == null || now - victim.lastUsed <= (long) AGE_FACTOR * capacity) {
                return statement.statement;
            }
            if (victim == recent) {
                recent = null;
            } else {
                (victim.callable ? callable : prepared).evict(victim);
            }
            unlink(victim);
            evictions++;
            add(statement, now);
            return victim.statement;
        }
        add(statement, now);
        return null;
    }

    /**
     * Adds an idle statement as the newest, and as {@link #recent}: the one there before goes into its table. Puts
     * advance the age, so the list stays ordered by lastUsed.
     */
    private void add(CachedStatement statement, long now) {
        statement.lastUsed = now;
        CachedStatement r = recent;
        if (r != null) {
            (r.callable ? callable : prepared).add(r);
        }
        recent = statement;
        statement.older = newest;
        statement.newer = null;
        if (newest == null) {
            oldest = statement;
        } else {
            newest.newer = statement;
        }
        newest = statement;
    }

    /** Takes a statement that leaves the cache (a hit, a victim) out of the age order. */
    private void unlink(CachedStatement statement) {
        CachedStatement o = statement.older;
        CachedStatement n = statement.newer;
        if (o == null) {
            oldest = n;
        } else {
            o.newer = n;
        }
        if (n == null) {
            newest = o;
        } else {
            n.older = o;
        }
        statement.older = null;
        statement.newer = null;
    }

    /** The pool closed the connection: drop every idle statement (its driver closed them) and cache nothing more. */
    void close() {
        closed = true;
        prepared.clear();
        callable.clear();
        recent = null;
        oldest = null;
        newest = null;
    }
}
