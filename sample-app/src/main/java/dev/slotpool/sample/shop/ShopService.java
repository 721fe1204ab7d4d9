package dev.slotpool.sample.shop;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.util.Comparator;
import java.util.List;

/**
 * The shop's transactions. Each is short and runs on one pooled connection, so on whichever origin the pool
 * picked for that borrow: every origin keeps its own orders and stock (the sample shows routing, not
 * replication).
 */
@Service
public class ShopService {

    private final ShopRepository repository;

    public ShopService(ShopRepository repository) {
        this.repository = repository;
    }

    /**
     * Places an order: locks the stock rows (in product order, so two orders never deadlock), checks them,
     * inserts the order and its lines, and takes the stock. All or nothing.
     *
     * @throws OutOfStockException when a product's stock is short (nothing is written)
     * @throws IllegalArgumentException for an empty order or an unknown product
     */
    @Transactional
    public PlacedOrder placeOrder(String customer, List<OrderItem> items) {
        if (items.isEmpty()) {
            throw new IllegalArgumentException("an order needs at least one item");
        }
        List<OrderItem> lines = items.stream().sorted(Comparator.comparingInt(OrderItem::productId)).toList();
        long total = 0;
        int[] prices = new int[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            OrderItem item = lines.get(i);
            int inStock = repository.lockStock(item.productId());
            if (inStock < 0) {
                throw new IllegalArgumentException("unknown product " + item.productId());
            }
            if (inStock < item.quantity()) {
                throw new OutOfStockException(item.productId(), item.quantity(), inStock);
            }
            prices[i] = repository.price(item.productId());
            total += (long) prices[i] * item.quantity();
        }
        long orderId = repository.insertOrder(customer, total);
        for (int i = 0; i < lines.size(); i++) {
            repository.insertLine(orderId, i + 1, lines.get(i), prices[i]);
            repository.changeStock(lines.get(i).productId(), -lines.get(i).quantity());
        }
        return new PlacedOrder(orderId, total);
    }

    /** Adds stock to a product. */
    @Transactional
    public void restock(int productId, int quantity) {
        if (quantity < 1) {
            throw new IllegalArgumentException("restock quantity must be ≥ 1 (was " + quantity + ")");
        }
        if (repository.changeStock(productId, quantity) == 0) {
            throw new IllegalArgumentException("unknown product " + productId);
        }
    }

    /** The latest orders with their line and unit counts, newest first. */
    @Transactional(readOnly = true)
    public List<OrderSummary> recentOrders(int limit) {
        return repository.recentOrders(limit);
    }

    /** Every product with its stock. */
    @Transactional(readOnly = true)
    public List<Product> catalog() {
        return repository.catalog();
    }
}
