package dev.slotpool.bench;

import javax.sql.DataSource;

/** A started pool under test: its DataSource, what it reports of its state, and how to stop it. */
public interface BenchPool extends AutoCloseable {

    /** Which pool this is. */
    PoolKind kind();

    /** The pool as a DataSource; {@code getConnection()} borrows, {@code close()} on the connection returns. */
    DataSource dataSource();

    /**
     * The pool's own counts now, as far as it reports them; -1 for what it does not report. Cheap enough to
     * call every 250 µs (the spike harness samples at that rate).
     */
    PoolCounts counts();

    @Override
    void close();

    /** Connections total / borrowed / idle and threads waiting; -1 = the pool does not report it. */
    record PoolCounts(int total, int active, int idle, int waiting) {
    }
}
