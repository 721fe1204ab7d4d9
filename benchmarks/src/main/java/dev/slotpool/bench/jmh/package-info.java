/**
 * JMH benchmarks after HikariCP's own, run on the six pools of {@link dev.slotpool.bench.PoolKind} over
 * the stub driver, so they measure pool overhead alone.
 *
 * <ul>
 *   <li>{@link dev.slotpool.bench.jmh.ConnectionCycleBenchmark}: one {@code getConnection()}/{@code close()};
 *       {@code unconstrained2t8c} (2 threads, 8 connections), {@code constrained2t1c} and
 *       {@code constrained4t2c} (threads = 2 × connections, within and beyond the 2 cores). All three run by
 *       default; {@code -e constrained4t2c} drops the last.</li>
 *   <li>{@link dev.slotpool.bench.jmh.StatementCycleBenchmark}: {@code prepareStatement}, {@code execute},
 *       {@code close} on a connection each of 2 threads holds for the trial.</li>
 *   <li>{@link dev.slotpool.bench.jmh.OriginsBenchmark} (slotpool only): one origin against three weighted
 *       50/30/20 on 10 connections; labeled against plain borrows on 1,000 slots with 1 % or 10 % labeled.</li>
 * </ul>
 *
 * <p>Throughput in ops/ms by default; {@code -bm avgt -tu ns} gives time per operation. Threads are fixed per
 * method: never pass {@code -t}. Forks and iterations: {@link dev.slotpool.bench.jmh.RunDefaults}.
 *
 * <p>One command builds the uber-jar, runs everything with {@code -prof gc} (allocation per operation as
 * {@code gc.alloc.rate.norm}) and writes {@code benchmarks/results/jmh/{jmh-result.json,summary.md,jmh.png}}
 * through {@link dev.slotpool.bench.jmh.JmhReport}:
 * <pre>
 * mvn -q -Pbench -pl benchmarks -am verify -DskipTests
 * </pre>
 * {@code -Djmh.args="..."} replaces the default {@code -prof gc}, e.g.
 * {@code -Djmh.args="ConnectionCycle -p pool=slotpool,hikari -prof gc"}, or
 * {@code -Djmh.args="-prof gc -jvm /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"} to measure on JDK 25. By hand:
 * <pre>
 * mvn -q -Pbench -pl benchmarks -am package -DskipTests
 * cd benchmarks
 * java -jar target/benchmarks.jar -prof gc -rf json -rff target/jmh-result.json
 * java -cp target/benchmarks.jar dev.slotpool.bench.jmh.JmhReport target/jmh-result.json results/jmh
 * </pre>
 */
package dev.slotpool.bench.jmh;
