package dev.slotpool.bench.spike;

import dev.slotpool.bench.PoolKind;

import java.util.Locale;

/**
 * One pool's outcome in one run.
 *
 * @param pool                 the pool
 * @param run                  1-based run number
 * @param requests             requests released
 * @param completed            requests that finished without an error
 * @param connectionsAtEnd     the pool's total when sampling stopped (the tail after the last request)
 * @param openedBeforeSpike    connections the stub database had opened when the requests were released
 * @param createdBySpike       connections opened from the release until sampling stopped
 * @param maxOpen              most connections open at once at the database over the whole run
 * @param allDoneMillis        from the release until the last request ended
 * @param slowestRequestMillis longest request, borrow start to close end
 * @param slowestWaitMillis    longest borrow
 * @param waitedConnectTime    whether some borrow took at least one connect time
 * @param timeline             the samples
 */
record RunResult(PoolKind pool, int run, int requests, int completed, int connectionsAtEnd,
                 long openedBeforeSpike, long createdBySpike, long maxOpen, double allDoneMillis,
                 double slowestRequestMillis, double slowestWaitMillis, boolean waitedConnectTime,
                 Timeline timeline) {

    /** One line of progress for the console. */
    String describe() {
        return String.format(Locale.ROOT,
                "%-8s run %d: %d/%d done in %.1f ms, slowest %.1f ms (wait %.1f ms), %d connections at end, %d created",
                pool.id(), run, completed, requests, allDoneMillis, slowestRequestMillis, slowestWaitMillis,
                connectionsAtEnd, createdBySpike);
    }
}
