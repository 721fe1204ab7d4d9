package dev.slotpool.sample.shop;

/** One line of an order to place: a product and how many of it. */
public record OrderItem(int productId, int quantity) {

    public OrderItem {
        if (quantity < 1) {
            throw new IllegalArgumentException("quantity must be ≥ 1 (was " + quantity + ")");
        }
    }
}
