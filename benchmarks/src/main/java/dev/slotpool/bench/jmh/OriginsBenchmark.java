package dev.slotpool.bench.jmh;

import dev.slotpool.LabeledConnection;
import dev.slotpool.LabelingCallback;
import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.SlotSnapshot;
import dev.slotpool.testsupport.StubDatabase;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What slotpool's origins and labels cost (slotpool only): the connection cycle over one origin against three
 * weighted ones, and labeled against plain borrows on a pool of 1,000 slots. Two threads, as in the
 * unconstrained connection cycle.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = RunDefaults.FORKS, jvmArgsAppend = {RunDefaults.HEAP_MIN, RunDefaults.HEAP_MAX})
@Warmup(iterations = RunDefaults.WARMUP_ITERATIONS, time = RunDefaults.WARMUP_SECONDS)
@Measurement(iterations = RunDefaults.MEASUREMENT_ITERATIONS, time = RunDefaults.MEASUREMENT_SECONDS)
@Threads(2)
public class OriginsBenchmark {

    static final Map<String, String> TENANT = Map.of("tenant", "t1");

    @Benchmark
    public Connection weightedCycle(WeightedPool pool) throws SQLException {
        Connection c = pool.dataSource.getConnection();
        c.close();
        return c;
    }

    /** Borrows a label some connections carry: the scan stops at the first available one (cost 0). */
    @Benchmark
    public Connection labeledCycle(LabeledPool pool) throws SQLException {
        Connection c = pool.dataSource.getConnection(TENANT);
        c.close();
        return c;
    }

    /** The plain cycle on the same 1,000-slot pool, as the baseline of {@link #labeledCycle}. */
    @Benchmark
    public Connection plainCycle1000(LargePool pool) throws SQLException {
        Connection c = pool.dataSource.getConnection();
        c.close();
        return c;
    }

    /** Ten connections, over one origin or over three weighted 50/30/20 (5/3/2 connections), each its own database. */
    @State(Scope.Benchmark)
    public static class WeightedPool {

        static final int SIZE = 10;

        @Param({"1", "3"})
        public int origins;

        SlotPoolDataSource dataSource;

        @Setup(Level.Trial)
        public void start() throws SQLException {
            SlotPoolBuilder b = builder("jmh-origins", SIZE);
            if (origins == 1) {
                b.url(StubDatabase.reset("jmh-origin-a").url());
            } else {
                b.origin(OriginConfig.named("a").url(StubDatabase.reset("jmh-origin-a").url()).weight(50))
                        .origin(OriginConfig.named("b").url(StubDatabase.reset("jmh-origin-b").url()).weight(30))
                        .origin(OriginConfig.named("c").url(StubDatabase.reset("jmh-origin-c").url()).weight(20));
            }
            dataSource = b.build();
            PoolState.fill(dataSource, SIZE);
        }

        @TearDown(Level.Trial)
        public void stop() {
            dataSource.close();
        }
    }

    /** 1,000 connections with a labeling callback and no labels yet. */
    @State(Scope.Benchmark)
    public static class LargePool {

        static final int SIZE = 1000;

        SlotPoolDataSource dataSource;

        @Setup(Level.Trial)
        public void start() throws SQLException {
            dataSource = builder("jmh-labels", SIZE).url(StubDatabase.reset("jmh-labels").url())
                    .labeling(new TenantLabeling()).build();
            PoolState.fill(dataSource, SIZE);
            prepare();
        }

        /** Runs once the pool is full, before the first iteration. */
        protected void prepare() throws SQLException {
        }

        @TearDown(Level.Trial)
        public void stop() {
            dataSource.close();
        }
    }

    /**
     * The 1,000-slot pool with {@code labeledPercent} % of its connections labeled, in every n-th slot of the table
     * (slots n - 1, 2n - 1, ...): a labeled borrow scans from the first slot, so it passes n - 1 unlabeled ones
     * before a match, as it would on average with labels spread at random, but the same in every fork. (Labeling
     * them by labeled borrows would pack them into the first slots, each such borrow configuring the first
     * cheapest connection, and the scan would be trivially short.)
     */
    public static class LabeledPool extends LargePool {

        /** A temporary label that tells which connection sits in which slot, as only a snapshot shows slots. */
        private static final String ORDER = "bench.borrowOrder";

        @Param({"1", "10"})
        public int labeledPercent;

        @Override
        protected void prepare() throws SQLException {
            List<Connection> all = new ArrayList<>(SIZE);
            for (int i = 0; i < SIZE; i++) {
                Connection c = dataSource.getConnection();
                c.unwrap(LabeledConnection.class).applyLabel(ORDER, Integer.toString(i));
                all.add(c);
            }
            int[] slotOf = new int[SIZE];
            for (OriginSnapshot origin : dataSource.snapshot().origins()) {
                for (SlotSnapshot slot : origin.slots()) {
                    slotOf[Integer.parseInt(slot.labels().get(ORDER))] = slot.index();
                }
            }
            int every = 100 / labeledPercent;
            for (int i = 0; i < SIZE; i++) {
                Connection c = all.get(i);
                c.unwrap(LabeledConnection.class).removeLabel(ORDER);
                if (slotOf[i] % every == every - 1) {
                    TenantLabeling.label(c, TENANT);
                }
                c.close();
            }
        }
    }

    /** Cost 0 for a connection carrying every requested label; 1 (label it in configure) for any other. */
    static final class TenantLabeling implements LabelingCallback {

        @Override
        public int cost(Map<String, String> requested, Map<String, String> current) {
            return current.entrySet().containsAll(requested.entrySet()) ? 0 : 1;
        }

        @Override
        public boolean configure(Map<String, String> requested, Connection connection) throws SQLException {
            label(connection, requested);
            return true;
        }

        static void label(Connection connection, Map<String, String> labels) throws SQLException {
            LabeledConnection labeled = connection.unwrap(LabeledConnection.class);
            for (Map.Entry<String, String> e : labels.entrySet()) {
                labeled.applyLabel(e.getKey(), e.getValue());
            }
        }
    }

    /** A fixed-size slotpool with the settings {@code PoolKind.SLOTPOOL} gives the other benchmarks. */
    static SlotPoolBuilder builder(String name, int size) {
        return SlotPoolDataSource.builder().name(name).minSize(size).maxSize(size).initialSize(size)
                .borrowTimeout(PoolState.BORROW_TIMEOUT);
    }
}
