/**
 * The thread-scaling harness (docs/benchmarks.md): the six pools of {@link dev.slotpool.bench.PoolKind}, each over
 * the same 6 stub connections, borrowed by 10 to 10,000 platform threads (and 10, 1,000, 10,000 virtual threads
 * on a JDK that has them), with the fairness of the spread printed beside every throughput.
 *
 * <ul>
 *   <li>Mode {@code scaling}: each thread loops {@code getConnection(); close();} with no statement.</li>
 *   <li>Mode {@code held}: each borrow runs one statement the stub holds for 1 ms (its query delay), and each
 *       {@code getConnection()} is timed; beside the waits, the ideal FIFO wait threads ÷ connections × hold.</li>
 * </ul>
 *
 * <p>A run: fresh stub database and pool; threads that loop from the moment they start (no start latch);
 * once every thread is in its loop, a warm-up, then a window bounded by snapshots of every thread's own
 * counters, process CPU time and wall time; then teardown, GC and a pause. Runs go round-robin over the pools.
 *
 * <p>Run from the repository root ({@link dev.slotpool.bench.scaling.Options#USAGE} lists the options):
 * <pre>{@code
 * mvn -q -pl benchmarks -am compile exec:java \
 *     -Dexec.mainClass=dev.slotpool.bench.scaling.ThreadScaling -Dexec.args="--mode both"
 * }</pre>
 * On JDK 17 that runs platform threads; on a JDK 21+ (e.g. {@code JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64}
 * in front) it also runs virtual threads, and {@code --virtual} runs only those. Progress goes to stderr, the
 * Markdown tables to stdout and {@code <out>/summary.md}, next to {@code <kind>-runs.csv},
 * {@code <kind>-medians.csv} and the charts ({@code --out} defaults to benchmarks/results/scaling).
 *
 * <p>{@link dev.slotpool.bench.scaling.PerRequest} is the thread-per-request case on virtual threads: each borrow
 * by a new virtual thread that then ends, a fixed number of requests in flight (JDK 21+;
 * options in {@code PerRequestOptions.USAGE}).
 */
package dev.slotpool.bench.scaling;
