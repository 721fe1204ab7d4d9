package dev.slotpool.sample.shop;

/** A product of the catalog with its current stock. */
public record Product(int id, String name, int priceCents, int stock) {
}
