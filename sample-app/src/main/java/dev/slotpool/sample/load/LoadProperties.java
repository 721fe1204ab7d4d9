package dev.slotpool.sample.load;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * {@code sample.load.*}: the load generator's settings at startup. The page {@code /load} changes them while the
 * app runs. Out-of-range values fail startup (see {@link LoadSettings}).
 */
@ConfigurationProperties(prefix = "sample.load")
public class LoadProperties {

    /** Whether the load generator starts with the application; it can be started and stopped at /load either way. */
    private boolean enabled = false;

    /** Worker threads, each running one shop transaction at a time (1 to 64). */
    private int threads = 4;

    /** Pause of each worker between two transactions (0 to 10s). */
    private Duration thinkTime = Duration.ofMillis(20);

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public int getThreads() { return threads; }
    public void setThreads(int threads) { this.threads = threads; }
    public Duration getThinkTime() { return thinkTime; }
    public void setThinkTime(Duration thinkTime) { this.thinkTime = thinkTime; }

    /** The settings, checked. */
    LoadSettings settings() {
        return LoadSettings.of(threads, thinkTime, "sample.load.");
    }
}
