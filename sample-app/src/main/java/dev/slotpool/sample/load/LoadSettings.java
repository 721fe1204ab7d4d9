package dev.slotpool.sample.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** How many workers run and how long each pauses between transactions; both checked, never adjusted. */
public record LoadSettings(int threads, Duration thinkTime) {

    public static final int MAX_THREADS = 64;
    public static final Duration MAX_THINK_TIME = Duration.ofSeconds(10);

    public LoadSettings {
        List<String> problems = problems(threads, thinkTime, "");
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /** Checks both values at once; {@code prefix} names them in the message (e.g. "sample.load."). */
    static LoadSettings of(int threads, Duration thinkTime, String prefix) {
        List<String> problems = problems(threads, thinkTime, prefix);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new LoadSettings(threads, thinkTime);
    }

    private static List<String> problems(int threads, Duration thinkTime, String prefix) {
        List<String> problems = new ArrayList<>(2);
        if (threads < 1 || threads > MAX_THREADS) {
            problems.add(prefix + "threads must be 1 to " + MAX_THREADS + " (was " + threads + ")");
        }
        if (thinkTime == null || thinkTime.isNegative() || thinkTime.compareTo(MAX_THINK_TIME) > 0) {
            problems.add(prefix + "think-time must be 0 to " + MAX_THINK_TIME.toSeconds() + "s (was " + thinkTime + ")");
        }
        return problems;
    }
}
