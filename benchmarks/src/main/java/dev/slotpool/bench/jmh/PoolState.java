package dev.slotpool.bench.jmh;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.testsupport.StubDatabase;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One pool of the comparison, started for a trial with a fixed number of connections; subclasses fix the size so
 * each benchmark method pairs its {@code @Threads} with the pool size it is meant for.
 */
@State(Scope.Benchmark)
public abstract class PoolState {

    /** Long enough that a constrained borrow never times out: a timeout would end the run, not skew it. */
    static final Duration BORROW_TIMEOUT = Duration.ofSeconds(30);

    /** A {@link PoolKind#id()}. */
    @Param({"slotpool", "hikari", "ucp", "dbcp2", "tomcat", "vibur"})
    public String pool;

    DataSource dataSource;
    private BenchPool started;

    /** Connections in the pool (minimum = maximum). */
    protected abstract int size();

    @Setup(Level.Trial)
    public void start() throws SQLException {
        // A fresh stub database per trial, so counters and settings never leak between pools in one JVM.
        String url = StubDatabase.reset("jmh-" + pool + "-" + size()).url();
        started = start(PoolKind.valueOf(pool.toUpperCase(Locale.ROOT)),
                PoolSettings.fixed(url, size(), BORROW_TIMEOUT));
        dataSource = started.dataSource();
        fill(dataSource, size());
    }

    @TearDown(Level.Trial)
    public void stop() throws SQLException {
        try {
            beforeClose();
        } finally {
            started.close();
        }
    }

    /** Starts the pool of the trial; a subclass with pool-specific parameters starts it its own way. */
    protected BenchPool start(PoolKind kind, PoolSettings settings) {
        return kind.start(settings);
    }

    /** Runs once every benchmark thread has finished, before the pool closes. */
    protected void beforeClose() throws SQLException {
    }

    /**
     * Borrows {@code size} connections at once and returns them, so the pool holds all of them before the first
     * iteration: slotpool and HikariCP open their initial connections in the background and UCP opens them on the
     * first borrow, and measuring while a pool still fills would count connects.
     */
    static void fill(DataSource dataSource, int size) throws SQLException {
        List<Connection> held = new ArrayList<>(size);
        try {
            for (int i = 0; i < size; i++) {
                held.add(dataSource.getConnection());
            }
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }
}
