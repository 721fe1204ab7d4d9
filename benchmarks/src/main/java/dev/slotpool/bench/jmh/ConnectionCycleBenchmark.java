package dev.slotpool.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * The Connection Cycle of HikariCP's own JMH suite: one {@code getConnection()} and {@code close()} per operation,
 * on each pool. Each method fixes threads and connections together (method name = threads "t", connections "c"), so
 * do not pass {@code -t}: it would override all three. Unconstrained has more connections than threads; constrained
 * has twice as many threads as connections, once within the 2 cores (2 over 1) and once beyond them (4 over 2),
 * where a waiting borrower competes with the holder for a core.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = RunDefaults.FORKS, jvmArgsAppend = {RunDefaults.HEAP_MIN, RunDefaults.HEAP_MAX})
@Warmup(iterations = RunDefaults.WARMUP_ITERATIONS, time = RunDefaults.WARMUP_SECONDS)
@Measurement(iterations = RunDefaults.MEASUREMENT_ITERATIONS, time = RunDefaults.MEASUREMENT_SECONDS)
public class ConnectionCycleBenchmark {

    /** Returning the closed connection keeps the JIT from dropping the cycle (as HikariCP's own benchmarks do). */
    @Benchmark
    @Threads(2)
    public Connection unconstrained2t8c(Pool8 pool) throws SQLException {
        Connection c = pool.dataSource.getConnection();
        c.close();
        return c;
    }

    @Benchmark
    @Threads(2)
    public Connection constrained2t1c(Pool1 pool) throws SQLException {
        Connection c = pool.dataSource.getConnection();
        c.close();
        return c;
    }

    @Benchmark
    @Threads(4)
    public Connection constrained4t2c(Pool2 pool) throws SQLException {
        Connection c = pool.dataSource.getConnection();
        c.close();
        return c;
    }

    public static class Pool8 extends PoolState {
        @Override
        protected int size() {
            return 8;
        }
    }

    public static class Pool1 extends PoolState {
        @Override
        protected int size() {
            return 1;
        }
    }

    public static class Pool2 extends PoolState {
        @Override
        protected int size() {
            return 2;
        }
    }
}
