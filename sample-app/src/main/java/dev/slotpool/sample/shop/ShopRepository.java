package dev.slotpool.sample.shop;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

import java.sql.PreparedStatement;
import java.util.List;
import java.util.Objects;

/**
 * The shop's SQL (tables in {@code db/schema.sql}), portable between H2 and PostgreSQL. Each method is one or two
 * statements; {@link ShopService} makes the transactions.
 */
@Repository
public class ShopRepository {

    private final JdbcTemplate jdbc;

    public ShopRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The product's stock, its row locked until the transaction ends; -1 for an unknown product. */
    int lockStock(int productId) {
        List<Integer> rows = jdbc.queryForList("SELECT quantity FROM stock WHERE product_id = ? FOR UPDATE",
                Integer.class, productId);
        return rows.isEmpty() ? -1 : rows.get(0);
    }

    int price(int productId) {
        Integer price = jdbc.queryForObject("SELECT price_cents FROM products WHERE id = ?", Integer.class, productId);
        return Objects.requireNonNull(price, "price_cents is NOT NULL");
    }

    long insertOrder(String customer, long totalCents) {
        KeyHolder key = new GeneratedKeyHolder();
        jdbc.update(c -> {
            PreparedStatement ps = c.prepareStatement("INSERT INTO orders (customer, total_cents) VALUES (?, ?)",
                    new String[] {"id"});
            ps.setString(1, customer);
            ps.setLong(2, totalCents);
            return ps;
        }, key);
        return Objects.requireNonNull(key.getKey(), "generated order id").longValue();
    }

    void insertLine(long orderId, int lineNo, OrderItem item, int priceCents) {
        jdbc.update("INSERT INTO order_lines (order_id, line_no, product_id, quantity, price_cents) VALUES (?, ?, ?, ?, ?)",
                orderId, lineNo, item.productId(), item.quantity(), priceCents);
    }

    /** @return the rows changed: 1, or 0 for an unknown product */
    int changeStock(int productId, int delta) {
        return jdbc.update("UPDATE stock SET quantity = quantity + ? WHERE product_id = ?", delta, productId);
    }

    List<OrderSummary> recentOrders(int limit) {
        return jdbc.query("""
                SELECT o.id, o.customer, o.total_cents, COUNT(*) AS lines, SUM(l.quantity) AS units
                FROM orders o JOIN order_lines l ON l.order_id = o.id
                GROUP BY o.id, o.customer, o.total_cents
                ORDER BY o.id DESC
                FETCH FIRST ? ROWS ONLY""",
                (rs, i) -> new OrderSummary(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getLong(5)),
                limit);
    }

    List<Product> catalog() {
        return jdbc.query("""
                SELECT p.id, p.name, p.price_cents, s.quantity
                FROM products p JOIN stock s ON s.product_id = p.id
                ORDER BY p.id""",
                (rs, i) -> new Product(rs.getInt(1), rs.getString(2), rs.getInt(3), rs.getInt(4)));
    }
}
