package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolBuilder;

/**
 * Lets an application adjust the auto-configured pool's builder in code after the properties were applied
 * (for what properties cannot express, such as a custom {@link dev.slotpool.Ticker}). Beans run in order.
 */
@FunctionalInterface
public interface SlotPoolBuilderCustomizer {

    void customize(SlotPoolBuilder builder);
}
