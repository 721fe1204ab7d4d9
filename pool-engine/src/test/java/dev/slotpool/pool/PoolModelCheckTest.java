package dev.slotpool.pool;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool-level model check (docs/reliability.md, "Pool-level model check"): seeded random histories of a whole
 * pool ({@link PoolHistory}), each checked for S1–S3, the counts, lost wake-ups and borrows taken back without
 * cause, and the quiet end of a wait over and over ({@link WakeUpRounds}). The build runs a short fixed set of
 * seeds; a longer run and a replay of one seed are system properties of the test JVM:
 * {@code mvn -o -pl pool-engine -am test -Dtest=PoolModelCheckTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dmodelcheck.iterations=2000 -Dmodelcheck.keepGoing=true} (and {@code -Dmodelcheck.seed=N} for the first seed,
 * {@code -Dmodelcheck.errors=false} or {@code -Dmodelcheck.noise=false} for a narrower mix,
 * {@code -Dmodelcheck.labelingErrors=false} without Errors from the labeling callback,
 * {@code -Dmodelcheck.rounds=N} for more wake-up rounds). The role layer has its own histories ({@link RoleHistory}),
 * {@code -Dmodelcheck.roleIterations=N} of them.
 */
class PoolModelCheckTest {

    private static final int ITERATIONS = Integer.getInteger("modelcheck.iterations", 30);
    private static final long FIRST_SEED = Long.getLong("modelcheck.seed", 1);
    private static final int ROUNDS = Integer.getInteger("modelcheck.rounds", 4_000);
    private static final int ROLE_ITERATIONS = Integer.getInteger("modelcheck.roleIterations", 8);
    /** Whether to run every history even after one failed (to count how often each check fails). */
    private static final boolean KEEP_GOING = Boolean.getBoolean("modelcheck.keepGoing");
    private static final PoolHistory.Mix MIX = new PoolHistory.Mix(
            Boolean.parseBoolean(System.getProperty("modelcheck.errors", "true")),
            Boolean.parseBoolean(System.getProperty("modelcheck.labelingErrors", "true")),
            Boolean.parseBoolean(System.getProperty("modelcheck.noise", "true")));

    @Test
    void randomHistoriesKeepThePoolsInvariants() throws Exception {
        // Thousands of injected errors, leaks and state changes are logged: the checks say what broke, not the log.
        Logger log = Logger.getLogger("dev.slotpool");
        Level level = log.getLevel();
        log.setLevel(Level.OFF);
        try {
            histories();
        } finally {
            log.setLevel(level);
        }
    }

    /** Role histories: failovers, lag, failed role queries, suspend, drain, markDown and markUp together. */
    @Test
    void randomRoleHistoriesKeepTheRoleLayersPromises() throws Exception {
        Logger log = Logger.getLogger("dev.slotpool");
        Level level = log.getLevel();
        log.setLevel(Level.OFF);
        try {
            long started = System.nanoTime();
            List<String> failed = new ArrayList<>();
            for (long seed = FIRST_SEED; seed < FIRST_SEED + ROLE_ITERATIONS; seed++) {
                RoleHistory history = new RoleHistory(seed, MIX.errors());
                List<String> broken = history.run();
                System.out.printf("role model check seed %d: %s; %s%n", seed, history.summary(),
                        broken.isEmpty() ? "ok" : String.join("\n    ", broken));
                if (!broken.isEmpty()) {
                    failed.add("seed " + seed + ": " + broken.get(0));
                    if (!KEEP_GOING) {
                        break;
                    }
                }
            }
            System.out.printf("role model check: histories from seed %d in %d ms, %d failed%n", FIRST_SEED,
                    (System.nanoTime() - started) / 1_000_000, failed.size());
            assertThat(failed).as("role histories that broke a promise; replay one with -Dmodelcheck.seed=N "
                    + "-Dmodelcheck.roleIterations=1").isEmpty();
        } finally {
            log.setLevel(level);
        }
    }

    /**
     * The end of a wait that a busy pool would mask: the head leaves as a connection comes back and nobody else
     * borrows, so only the return's signal can wake the next waiter ({@link WakeUpRounds}).
     */
    @Test
    void theNextWaiterIsWokenWhenTheHeadLeavesAsAConnectionComesBack() throws Exception {
        List<String> broken = new WakeUpRounds(FIRST_SEED).run(ROUNDS);
        assertThat(broken).as("%d rounds from seed %d; replay with -Dmodelcheck.seed=%d", ROUNDS, FIRST_SEED,
                FIRST_SEED).isEmpty();
    }

    private static void histories() throws InterruptedException {
        long started = System.nanoTime();
        List<String> failed = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + ITERATIONS; seed++) {
            PoolHistory history = new PoolHistory(seed, MIX);
            List<String> broken = history.run();
            System.out.printf("model check seed %d: %s; %s%n", seed, history.summary(),
                    broken.isEmpty() ? "ok" : String.join("\n    ", broken));
            if (!broken.isEmpty()) {
                failed.add("seed " + seed + ": " + broken.get(0));
                if (!KEEP_GOING) {
                    break;
                }
            }
        }
        System.out.printf("model check: histories from seed %d (%s) in %d ms, %d failed%n", FIRST_SEED, MIX,
                (System.nanoTime() - started) / 1_000_000, failed.size());
        assertThat(failed).as("histories that broke an invariant (%s); replay one with -Dmodelcheck.seed=N "
                + "-Dmodelcheck.iterations=1", MIX).isEmpty();
    }
}
