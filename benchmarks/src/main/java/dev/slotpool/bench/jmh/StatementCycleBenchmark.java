package dev.slotpool.bench.jmh;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Statement Cycle of HikariCP's own JMH suite: {@code prepareStatement}, {@code execute} and {@code close}
 * through each pool's proxies on a connection every thread borrowed for the whole trial, so no borrow is measured.
 *
 * <p>{@code statementCacheSize} is slotpool's statement cache (docs/statement-cache.md), 0 (off, as shipped) unless
 * given: {@code -p pool=slotpool -p statementCacheSize=0,16} measures it off and on. A size above 0 with another
 * pool fails the trial: the others are compared as they ship.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = RunDefaults.FORKS, jvmArgsAppend = {RunDefaults.HEAP_MIN, RunDefaults.HEAP_MAX})
@Warmup(iterations = RunDefaults.WARMUP_ITERATIONS, time = RunDefaults.WARMUP_SECONDS)
@Measurement(iterations = RunDefaults.MEASUREMENT_ITERATIONS, time = RunDefaults.MEASUREMENT_SECONDS)
public class StatementCycleBenchmark {

    @Benchmark
    @Threads(2)
    public PreparedStatement statementCycle(HeldConnection held, Blackhole bh) throws SQLException {
        PreparedStatement st = held.connection.prepareStatement("SELECT 1");
        bh.consume(st.execute());
        st.close();
        return st;
    }

    /**
     * Eight connections, one lent to each benchmark thread for the trial. The pool closes the lent ones itself:
     * JMH tears a shared state down on whichever thread gets there first, possibly before another thread's own
     * teardown ran, so a thread closing its connection could find the pool already closed.
     */
    public static class Pool8 extends PoolState {

        private final Queue<Connection> lent = new ConcurrentLinkedQueue<>();

        /** slotpool's statementCacheSize. */
        @Param({"0"})
        public int statementCacheSize;

        @Override
        protected int size() {
            return 8;
        }

        @Override
        protected BenchPool start(PoolKind kind, PoolSettings settings) {
            if (statementCacheSize == 0) {
                return kind.start(settings);
            }
            if (kind != PoolKind.SLOTPOOL) {
                throw new IllegalArgumentException("statementCacheSize applies to slotpool only, not " + kind);
            }
            return PoolKind.slotpool(settings, statementCacheSize);
        }

        Connection lend() throws SQLException {
            Connection c = dataSource.getConnection();
            lent.add(c);
            return c;
        }

        @Override
        protected void beforeClose() throws SQLException {
            Connection c;
            while ((c = lent.poll()) != null) {
                c.close();
            }
        }
    }

    /** The connection one benchmark thread holds from its first to its last iteration. */
    @State(Scope.Thread)
    public static class HeldConnection {

        Connection connection;

        @Setup(Level.Trial)
        public void borrow(Pool8 pool) throws SQLException {
            connection = pool.lend();
        }
    }
}
