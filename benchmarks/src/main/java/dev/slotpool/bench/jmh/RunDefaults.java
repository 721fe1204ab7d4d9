package dev.slotpool.bench.jmh;

/**
 * Forks, iterations and heap shared by every benchmark class here, sized for 2 noisy cores: three short forks catch
 * run-to-run (JIT) variance that longer iterations in one JVM would hide, and five 1 s warm-ups cover the slowest
 * pool to reach steady state (UCP, about 3 s when the cores are shared). Full run: 29 benchmark and parameter
 * combinations × 3 forks × (13 s of iterations + about 2 s to start a JVM and fill its pool) ≈ 22 minutes with
 * {@code -prof gc}. Command-line options ({@code -f -wi -w -i -r}) override these.
 */
final class RunDefaults {

    static final int FORKS = 3;
    static final int WARMUP_ITERATIONS = 5;
    static final int WARMUP_SECONDS = 1;
    static final int MEASUREMENT_ITERATIONS = 4;
    static final int MEASUREMENT_SECONDS = 2;
    /** A fixed heap, so every pool runs with the same GC sizing. */
    static final String HEAP_MIN = "-Xms1g";
    static final String HEAP_MAX = "-Xmx1g";

    private RunDefaults() {
    }
}
