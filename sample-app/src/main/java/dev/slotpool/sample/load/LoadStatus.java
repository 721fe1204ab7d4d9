package dev.slotpool.sample.load;

import java.time.Duration;

/**
 * What the load generator is doing. {@code completed} counts committed transactions, {@code rejected} orders
 * refused for short stock (rolled back, a business outcome), {@code failed} every other exception;
 * {@code lastFailure} is the latest failure's type and message.
 */
public record LoadStatus(boolean running, int threads, Duration thinkTime, long completed, long rejected,
                         long failed, String lastFailure) {
}
