package dev.slotpool.bench.pg;

import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.bench.RunOrder;
import dev.slotpool.bench.UsageException;
import dev.slotpool.pooler.PgBouncerAdmin;
import dev.slotpool.testsupport.PgBouncerServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Many app instances through one real PgBouncer in transaction mode (docs/poolers.md, "The table"): N pools of M
 * connections with T threads each share a fixed budget of server connections, every transaction three prepared
 * statements as an ORM runs them. Cells side by side ({@link PoolerCell}): HikariCP with pgjdbc's defaults and
 * with {@code prepareThreshold=0} by hand, slotpool with {@code pooler(TRANSACTION)} and with its statement cache
 * too. Per cell: committed transactions per second, failed transactions and what failed, borrow and transaction
 * latency p50 / p99 / p99.9, medians of several runs, and how busy the machine was. Starts an embedded PostgreSQL
 * and the system's PgBouncer itself; writes {@code runs.csv}, {@code medians.csv}, {@code pooler.png} and
 * {@code summary.md}; see {@link PoolerOptions#USAGE}.
 *
 * <p>Run from the repository root; the Markdown goes to stdout, progress to stderr:
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.slotpool.bench.pg.PoolerTransactions --runs 5
 * }</pre>
 */
public final class PoolerTransactions {

    /** Transactions per cell before the first run, on one thread. */
    private static final int PRIME_TRANSACTIONS = 50;

    /** How long each console command gets to finish. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private PoolerTransactions() {
    }

    /** What a whole invocation measured: every run (with its ratio to HikariCP by hand), and the medians per cell. */
    record Outcome(List<PoolerSample> samples, List<PoolerSample.Combined> cells) {
    }

    public static void main(String[] args) throws IOException, InterruptedException, SQLException {
        PoolerOptions options;
        Path binary;
        try {
            options = PoolerOptions.parse(args);
            if (options.help()) {
                System.out.print(PoolerOptions.USAGE);
                return;
            }
            binary = binary(options).orElseThrow(() -> new UsageException("no PgBouncer installed (looked at "
                    + PgBouncerServer.CANDIDATES + "); install Debian's package 'pgbouncer' or give --pgbouncer"));
        } catch (UsageException e) {
            System.err.println("PoolerTransactions: " + e.getMessage());
            System.err.println();
            System.err.print(PoolerOptions.USAGE);
            System.exit(2);
            return;
        }
        run(options, binary, System.out, System.err);
    }

    /** {@code --pgbouncer} when it is executable (else a usage error), or the first installed PgBouncer. */
    static Optional<Path> binary(PoolerOptions options) {
        if (options.pgbouncer() == null) {
            return PgBouncerServer.installed();
        }
        if (!Files.isExecutable(options.pgbouncer())) {
            throw new UsageException("--pgbouncer: " + options.pgbouncer() + " is not an executable file");
        }
        return Optional.of(options.pgbouncer());
    }

    /** Runs every cell on one server and one PgBouncer, writes the outputs, prints the Markdown to {@code out}. */
    static Outcome run(PoolerOptions options, Path pgbouncer, PrintStream out, PrintStream log)
            throws IOException, InterruptedException, SQLException {
        Path dir = options.out();
        Files.createDirectories(dir);
        String jdk = Runtime.version().toString();
        int total = options.runs() * options.cells().size();
        String loadBefore = machineLoad();
        log.println("Machine before the runs: " + loadBefore + ". Starting PostgreSQL and PgBouncer; then "
                + options.cells().size() + " warm-up runs and " + total + " runs of "
                + Formats.significant(options.warmup().plus(options.window()).toMillis() / 1e3)
                + " s each, plus start-up and teardown.");
        List<PoolerSample> samples = new ArrayList<>();
        String version;
        try (EmbeddedPostgres server = EmbeddedPostgres.builder().start()) {
            try (Connection c = server.getPostgresDatabase().getConnection()) {
                OrmTransaction.createSchema(c);
            }
            // Transaction mode with the budget as default_pool_size and no reserve; user postgres trusted, on the
            // admin console (docs/poolers.md, "In the suite").
            try (PgBouncerServer bouncer = PgBouncerServer.builder("bench", server.getPort()).binary(pgbouncer)
                    .adminUser("postgres").setting("default_pool_size", String.valueOf(options.serverBudget()))
                    .setting("reserve_pool_size", "0").build().start()) {
                version = version(bouncer);
                prime(options, bouncer);
                warmUp(options, bouncer, log);
                int done = 0;
                // Cells interleave within each run, each run one further along, so drift spreads over all of them.
                for (int run = 1; run <= options.runs(); run++) {
                    for (PoolerCell cell : RunOrder.forRun(options.cells(), run)) {
                        PoolerSample sample = new PoolerRun(options, bouncer.url("postgres"), cell).run(run);
                        reconnect(bouncer);
                        samples.add(sample);
                        log.println(progress("[" + ++done + "/" + total + "] ", sample));
                        // Rewritten after every run: a long invocation that dies midway keeps what it measured.
                        PoolerReport.writeRuns(dir.resolve("runs.csv"), PoolerSample.withRatios(samples), jdk);
                        System.gc();
                        Thread.sleep(options.pause().toMillis());
                    }
                }
            }
        }
        List<PoolerSample> withRatios = PoolerSample.withRatios(samples);
        List<PoolerSample.Combined> cells = PoolerSample.combine(withRatios);
        PoolerReport.writeMedians(dir.resolve("medians.csv"), cells, jdk);
        String setup = options.instances() + " pools × " + options.connections() + " connections × "
                + options.threads() + " threads, " + options.serverBudget() + " server connections";
        List<String> charts = PoolerCharts.write(dir, cells, setup);
        String summary = PoolerReport.markdown(options, version, loadBefore, cells, charts);
        Files.writeString(dir.resolve("summary.md"), summary);
        out.print(summary);
        log.println("Done: results in " + dir.toAbsolutePath().normalize());
        return new Outcome(withRatios, cells);
    }

    /**
     * Starts each cell's pool once and runs transactions on one thread, failures ignored: class loading and a
     * failure to connect at all happen here, not in the first measured run. The server sessions are replaced
     * afterwards, so what the driver left on them does not reach the runs.
     */
    private static void prime(PoolerOptions options, PgBouncerServer bouncer) throws IOException, SQLException {
        for (PoolerCell cell : options.cells()) {
            try (BenchPool pool = cell.start(new PoolSettings(bouncer.url("postgres"), 1, 1,
                    PoolerOptions.BORROW_TIMEOUT, AccountsDatabase.USER, AccountsDatabase.PGJDBC))) {
                for (int i = 0; i < PRIME_TRANSACTIONS; i++) {
                    try (Connection c = pool.dataSource().getConnection()) {
                        OrmTransaction.run(c, 1 + i % OrmTransaction.ACCOUNTS, 0);
                    } catch (SQLException e) {
                        // The cells without a safe setting fail some transactions: that is what the runs count.
                    }
                }
            }
        }
        reconnect(bouncer);
    }

    /** PgBouncer's own version line ({@code SHOW VERSION}). */
    private static String version(PgBouncerServer bouncer) throws IOException, SQLException {
        return console(bouncer).run("SHOW VERSION", ADMIN_TIMEOUT).stream().findFirst()
                .flatMap(row -> row.values().stream().findFirst()).orElse("unknown");
    }

    /**
     * Closes every server session once it is released ({@code RECONNECT}): server-side statements a run left
     * on them (pgjdbc's {@code S_n} names) do not reach the next run.
     */
    private static void reconnect(PgBouncerServer bouncer) throws IOException, SQLException {
        console(bouncer).run("RECONNECT postgres", ADMIN_TIMEOUT);
    }

    private static PgBouncerAdmin console(PgBouncerServer bouncer) {
        return PgBouncerAdmin.at(bouncer.adminUrl("postgres"));
    }

    /** The share of all CPUs busy over the next second and the 1-minute load average, as one phrase. */
    private static String machineLoad() throws InterruptedException {
        long[] before = MachineCpu.times();
        Thread.sleep(1000);
        double busy = MachineCpu.busyShare(before, MachineCpu.times());
        return (Double.isNaN(busy) ? "CPU share unknown" : Math.round(busy * 100) + " % of the CPUs busy")
                + ", load average " + Formats.significant(PoolerRun.loadAverage());
    }

    /**
     * One run of every cell, not recorded: the JVM compiles the driver's and the harness's code during whichever
     * run comes first, and that run's cell paid for it (docs/benchmarks.md, "The first run of an invocation").
     */
    private static void warmUp(PoolerOptions options, PgBouncerServer bouncer, PrintStream log)
            throws IOException, InterruptedException, SQLException {
        for (PoolerCell cell : options.cells()) {
            PoolerSample sample = new PoolerRun(options, bouncer.url("postgres"), cell).run(0);
            reconnect(bouncer);
            log.println(progress("[warm-up, not recorded] ", sample));
            System.gc();
            Thread.sleep(options.pause().toMillis());
        }
    }

    private static String progress(String prefix, PoolerSample s) {
        StringBuilder line = new StringBuilder()
                .append(prefix).append("run ").append(s.run()).append(", ")
                .append(s.cell().id()).append(": ").append(Formats.count(s.get(PoolerMeasure.TX_PER_S)))
                .append(" tx/s committed, ").append(Formats.count(s.get(PoolerMeasure.FAILED)))
                .append(" failed; transaction p50 / p99 / p99.9 ")
                .append(Formats.significant(s.get(PoolerMeasure.TX_P50_MS))).append(" / ")
                .append(Formats.significant(s.get(PoolerMeasure.TX_P99_MS))).append(" / ")
                .append(Formats.significant(s.get(PoolerMeasure.TX_P999_MS))).append(" ms; borrow p99.9 ")
                .append(Formats.significant(s.get(PoolerMeasure.BORROW_P999_MS))).append(" ms; machine ")
                .append(Double.isNaN(s.get(PoolerMeasure.MACHINE_BUSY)) ? "–"
                        : String.format(Locale.ROOT, "%.0f %%", s.get(PoolerMeasure.MACHINE_BUSY) * 100))
                .append(" busy, load ").append(Formats.significant(s.get(PoolerMeasure.LOAD_1M)));
        if (s.get(PoolerMeasure.STRAGGLERS) > 0) {
            line.append("; WARNING ").append(Formats.count(s.get(PoolerMeasure.STRAGGLERS)))
                    .append(" threads did not end");
        }
        if (!s.failures().isEmpty()) {
            line.append("; most frequent failure: ").append(s.failures().entrySet().stream()
                    .max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey());
        }
        return line.toString();
    }
}
