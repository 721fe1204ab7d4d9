package dev.slotpool.bench.pg;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunOrder;
import dev.slotpool.bench.UsageException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * pgbench-like transactions against a real PostgreSQL server (embedded), pools side by side: every platform
 * thread loops borrow, update one account's balance, read it back, commit, return. For each pool size, thread
 * count and run, every pool in turn: transactions per second, latency percentiles beside the ideal latency of
 * Little's law, how evenly the threads were served, and errors. Writes {@code runs.csv}, {@code medians.csv},
 * PNG charts and {@code summary.md}; see {@link TransactionOptions#USAGE} for the command line. Every pool of
 * {@link PoolKind} runs against the server; UCP builds its connections with pgjdbc's {@code PGSimpleDataSource}.
 *
 * <p>Run from the repository root; the Markdown goes to stdout, progress to stderr:
 * <pre>{@code
 * mvn -q -pl benchmarks -am compile exec:java \
 *     -Dexec.mainClass=dev.slotpool.bench.pg.PostgresTransactions \
 *     -Dexec.args="--pools slotpool,hikari,ucp --threads 10,100,1000 --connections 5,10,20 --runs 3"
 * }</pre>
 * or from the shaded jar ({@code mvn -Pbench -pl benchmarks -am package -DskipTests} builds it):
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.slotpool.bench.pg.PostgresTransactions --quick
 * }</pre>
 */
public final class PostgresTransactions {

    /** Transactions per pool before the grid, on one thread. */
    private static final int PRIME_TRANSACTIONS = 200;

    private PostgresTransactions() {
    }

    /**
     * What a whole invocation measured.
     *
     * @param samples        every run, with ratios to HikariCP
     * @param cells          the medians per cell
     * @param committedDelta the sum of every delta the threads committed
     * @param balanceSum     the sum of the table's balances at the end (all were 0 at the start)
     */
    record Outcome(List<TransactionSample> samples, List<CellMedians> cells, long committedDelta, long balanceSum) {
    }

    public static void main(String[] args) throws IOException, InterruptedException, SQLException {
        TransactionOptions options;
        try {
            options = TransactionOptions.parse(args);
        } catch (UsageException e) {
            System.err.println("PostgresTransactions: " + e.getMessage());
            System.err.println();
            System.err.print(TransactionOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(TransactionOptions.USAGE);
            return;
        }
        run(options, System.out, System.err);
    }

    /** Runs the grid on one server, writes the outputs, prints the Markdown to {@code out}, progress to {@code log}. */
    static Outcome run(TransactionOptions options, PrintStream out, PrintStream log)
            throws IOException, InterruptedException, SQLException {
        Path dir = options.out();
        Files.createDirectories(dir);
        String jdk = Runtime.version().toString();
        int total = options.connections().size() * options.threads().size() * options.runs()
                * options.pools().size();
        log.println("Starting PostgreSQL and filling " + options.accounts() + " accounts; then "
                + options.pools().size() + " warm-up runs and " + total + " runs of "
                + Formats.significant(options.warmup().plus(options.window()).toMillis() / 1e3)
                + " s each, plus start-up and teardown.");
        List<TransactionSample> samples = new ArrayList<>();
        long balanceSum;
        long warmUpDelta;
        try (AccountsDatabase database = AccountsDatabase.start(options.accounts(), options.largestPool(),
                options.synchronousCommit())) {
            prime(options, database);
            long expected = database.balanceSum();
            warmUpDelta = warmUp(options, database, log);
            expected += warmUpDelta;
            int done = 0;
            for (int connections : options.connections()) {
                for (int threads : options.threads()) {
                    // Pools interleave within each run, each run one further along, so drift spreads over all of them.
                    for (int run = 1; run <= options.runs(); run++) {
                        for (PoolKind pool : RunOrder.forRun(options.pools(), run)) {
                            TransactionCell cell = new TransactionCell(pool, connections, threads);
                            TransactionSample sample = new TransactionRun(options, database, cell).run(run);
                            expected += sample.committedDelta();
                            sample = sample.with(Measure.BALANCE_DRIFT, database.balanceSum() - expected);
                            samples.add(sample);
                            log.println(progress("[" + ++done + "/" + total + "] ", sample));
                            // Rewritten after every run: a long invocation that dies midway keeps what it measured.
                            TransactionCsv.writeRuns(dir.resolve("runs.csv"), TransactionSample.withRatios(samples),
                                    jdk);
                        }
                    }
                }
            }
            balanceSum = database.balanceSum();
        }
        List<TransactionSample> withRatios = TransactionSample.withRatios(samples);
        List<CellMedians> cells = CellMedians.combine(withRatios);
        TransactionCsv.writeMedians(dir.resolve("medians.csv"), cells, jdk);
        List<String> charts = TransactionCharts.write(dir, cells);
        long committedDelta = warmUpDelta + samples.stream().mapToLong(TransactionSample::committedDelta).sum();
        String summary = TransactionSummary.markdown(options, cells, withRatios, charts, committedDelta, balanceSum);
        Files.writeString(dir.resolve("summary.md"), summary);
        out.print(summary);
        log.println("Done: results in " + dir.toAbsolutePath().normalize());
        return new Outcome(withRatios, cells, committedDelta, balanceSum);
    }

    /**
     * Starts each pool once and runs transactions on one thread, with a delta of 0 so the balances stay as they
     * are: class loading, driver registration (ojdbc's is slow) and a failure to connect at all happen here, not
     * in the first measured run.
     */
    private static void prime(TransactionOptions options, AccountsDatabase database) throws SQLException {
        for (PoolKind kind : options.pools()) {
            try (BenchPool pool = kind.start(new PoolSettings(database.url(), 1, 1,
                    TransactionOptions.BORROW_TIMEOUT, AccountsDatabase.USER, AccountsDatabase.PGJDBC))) {
                AccountTransaction transaction = new AccountTransaction(pool.dataSource());
                for (int i = 0; i < PRIME_TRANSACTIONS; i++) {
                    transaction.run(1 + i % database.accounts(), 0);
                }
            }
        }
    }

    /**
     * One run of the first cell with every pool, not recorded: the JVM compiles the driver's and the harness's code
     * during whichever run comes first, and that run's pool paid for it (docs/benchmarks.md, "The first run of an
     * invocation"). Returns the sum the runs committed, for the balance check.
     */
    private static long warmUp(TransactionOptions options, AccountsDatabase database, PrintStream log)
            throws InterruptedException {
        long committed = 0;
        for (PoolKind pool : options.pools()) {
            TransactionCell cell = new TransactionCell(pool, options.connections().get(0), options.threads().get(0));
            TransactionSample sample = new TransactionRun(options, database, cell).run(0);
            committed += sample.committedDelta();
            log.println(progress("[warm-up, not recorded] ", sample));
        }
        return committed;
    }

    private static String progress(String prefix, TransactionSample s) {
        TransactionCell c = s.cell();
        StringBuilder line = new StringBuilder()
                .append(prefix).append(c.connections())
                .append(" connections, ").append(c.threads()).append(" threads, run ").append(s.run()).append(", ")
                .append(c.pool().id()).append(": ").append(Formats.count(s.get(Measure.TX_PER_S)))
                .append(" tx/s; p50 / p99 / p99.9 ").append(Formats.significant(s.get(Measure.P50_MS))).append(" / ")
                .append(Formats.significant(s.get(Measure.P99_MS))).append(" / ")
                .append(Formats.significant(s.get(Measure.P999_MS))).append(" ms, ideal ")
                .append(Formats.significant(s.get(Measure.IDEAL_MS))).append(" ms, FIFO floor ")
                .append(Formats.twoDecimals(s.get(Measure.FIFO_FLOOR))).append(" × ideal; work ")
                .append(Formats.significant(s.get(Measure.WORK_MS))).append(" ms, busy ")
                .append(Formats.twoDecimals(s.get(Measure.BUSY_SHARE))).append("; machine busy ")
                .append(Formats.twoDecimals(s.get(Measure.MACHINE_BUSY))).append(", client CPU ")
                .append(Formats.significant(s.get(Measure.CLIENT_CPU_US))).append(" µs/tx, server sleeps ")
                .append(Formats.twoDecimals(s.get(Measure.SERVER_SLEEPS))).append("/tx; per thread fewest / median ")
                .append(Formats.count(s.get(Measure.THREAD_MIN))).append(" / ")
                .append(Formats.count(s.get(Measure.THREAD_MEDIAN))).append("; errors ")
                .append(Formats.count(s.get(Measure.ERRORS)));
        if (s.get(Measure.BALANCE_DRIFT) != 0) {
            line.append("; WARNING balances drifted by ").append(Formats.count(s.get(Measure.BALANCE_DRIFT)));
        }
        if (s.get(Measure.STRAGGLERS) > 0) {
            line.append("; WARNING ").append(Formats.count(s.get(Measure.STRAGGLERS))).append(" threads did not end");
        }
        if (s.firstError() != null) {
            line.append("; first error: ").append(s.firstError());
        }
        return line.toString();
    }
}
