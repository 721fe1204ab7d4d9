package dev.slotpool.sample.shop;

/** A row of the recent-orders read query: an order with its line and unit counts. */
public record OrderSummary(long id, String customer, long totalCents, int lines, long units) {
}
