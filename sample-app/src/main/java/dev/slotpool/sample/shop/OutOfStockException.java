package dev.slotpool.sample.shop;

/**
 * An order asked for more than the stock holds. A business outcome, not a failure: the transaction rolls back
 * (it is a {@link RuntimeException}) and the caller may restock and try again.
 */
public class OutOfStockException extends RuntimeException {

    private final int productId;

    public OutOfStockException(int productId, int wanted, int inStock) {
        super("product " + productId + ": " + wanted + " wanted, " + inStock + " in stock");
        this.productId = productId;
    }

    public int productId() {
        return productId;
    }
}
