package dev.slotpool.sample.shop;

/** An order the shop accepted: its id on the origin that served the transaction, and its total. */
public record PlacedOrder(long id, long totalCents) {
}
