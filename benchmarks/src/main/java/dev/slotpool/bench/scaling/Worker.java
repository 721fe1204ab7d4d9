package dev.slotpool.bench.scaling;

import dev.slotpool.bench.LoopControl;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Locale;

/**
 * One benchmark thread. It loops from the moment it starts (no start latch: a latch's wake-up chain is itself
 * starved under contention and would hide what the pool does) until the phase is STOP, counting into its own
 * {@link Tally} block. The loop takes no lock, writes only its own cache lines and allocates nothing beyond
 * what the pool and driver do.
 */
abstract class Worker implements Runnable {

    private final int index;
    private final Tally tally;
    private final LoopControl control;
    final DataSource dataSource;
    /** The first failure this thread saw before STOP, for the run's report; written once by this thread. */
    private volatile String firstError;

    private Worker(int index, DataSource dataSource, Tally tally, LoopControl control) {
        this.index = index;
        this.dataSource = dataSource;
        this.tally = tally;
        this.control = control;
    }

    static Worker create(Mode mode, int index, DataSource dataSource, Tally tally, LoopControl control) {
        return mode == Mode.HELD
                ? new Held(index, dataSource, tally, control)
                : new BorrowClose(index, dataSource, tally, control);
    }

    @Override
    public final void run() {
        control.enteredLoop();
        long borrows = 0;
        long timeouts = 0;
        long errors = 0;
        while (!control.stopping()) {
            try {
                borrowOnce();
                tally.set(index, Tally.BORROWS, ++borrows);
            } catch (SQLException | RuntimeException e) {
                if (control.stopping()) {
                    break; // the pool closing under a late borrow is not a failure of the pool
                }
                tally.set(index, Tally.ERRORS, ++errors);
                if (isTimeout(e)) {
                    tally.set(index, Tally.TIMEOUTS, ++timeouts);
                }
                if (firstError == null) {
                    firstError = e.toString();
                }
            }
        }
    }

    /** One borrow and return. */
    abstract void borrowOnce() throws SQLException;

    /** Whether the window is open now. */
    final boolean inWindow() {
        return control.phase() == LoopControl.Phase.MEASURE;
    }

    /** This thread's borrow waits in the window, or null when the mode does not time borrows. */
    WaitHistogram waits() {
        return null;
    }

    String firstError() {
        return firstError;
    }

    /**
     * A timed-out borrow, by type or message of the exception or one of its causes: each pool words it
     * differently. UCP says neither: after waiting its connection wait duration it throws UCP-29 caused by
     * UCP-45064 "All connections in the Universal Connection Pool are in use".
     */
    static boolean isTimeout(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLTimeoutException) {
                return true;
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (m.contains("timeout") || m.contains("timed out") || m.contains("ucp-45064")) {
                return true;
            }
        }
        return false;
    }

    /** Mode SCALING: borrow and return at once. */
    private static final class BorrowClose extends Worker {

        BorrowClose(int index, DataSource dataSource, Tally tally, LoopControl control) {
            super(index, dataSource, tally, control);
        }

        @Override
        void borrowOnce() throws SQLException {
            dataSource.getConnection().close();
        }
    }

    /** Mode HELD: time the borrow, hold the connection for one statement (the stub's query delay), return it. */
    private static final class Held extends Worker {

        private static final String SQL = "SELECT 1";
        private final WaitHistogram waits = new WaitHistogram();

        Held(int index, DataSource dataSource, Tally tally, LoopControl control) {
            super(index, dataSource, tally, control);
        }

        @Override
        void borrowOnce() throws SQLException {
            long start = System.nanoTime();
            Connection connection;
            try {
                connection = dataSource.getConnection();
            } finally {
                // Waits that end in the window, like the borrows counted; a timed-out borrow waited too.
                long waited = System.nanoTime() - start;
                if (inWindow()) {
                    waits.record(waited);
                }
            }
            try (connection; Statement statement = connection.createStatement()) {
                statement.execute(SQL);
            }
        }

        @Override
        WaitHistogram waits() {
            return waits;
        }
    }
}
