package dev.slotpool.sample;

import dev.slotpool.sample.shop.OrderItem;
import dev.slotpool.sample.shop.OrderSummary;
import dev.slotpool.sample.shop.OutOfStockException;
import dev.slotpool.sample.shop.PlacedOrder;
import dev.slotpool.sample.shop.Product;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The shop's transactions. Each borrow may go to another origin (each with its own data), so the checks first
 * mark west and north DOWN: every transaction then runs on east.
 */
interface ShopChecks extends SampleApp {

    @Test
    default void anOrderTakesTheStockAndAShortOneWritesNothing() {
        pool().markDown("west");
        pool().markDown("north");
        long elsewhere = borrowsOutsideEast();

        int espresso = stock(1);
        int mugs = stock(4);
        PlacedOrder placed = shop().placeOrder("ada", List.of(new OrderItem(4, 1), new OrderItem(1, 2)));
        assertThat(placed.totalCents()).isEqualTo(2 * 2490 + 1200);
        assertThat(stock(1)).isEqualTo(espresso - 2);
        assertThat(stock(4)).isEqualTo(mugs - 1);
        OrderSummary latest = shop().recentOrders(1).get(0);
        assertThat(latest).isEqualTo(new OrderSummary(placed.id(), "ada", placed.totalCents(), 2, 3));

        OutOfStockException refused = catchThrowableOfType(OutOfStockException.class, () -> shop().placeOrder("grace",
                List.of(new OrderItem(1, 1), new OrderItem(4, mugs + 1))));
        assertThat(refused.productId()).isEqualTo(4);
        assertThat(stock(1)).as("the order's first line was rolled back").isEqualTo(espresso - 2);
        assertThat(shop().recentOrders(1).get(0).id()).as("no order written").isEqualTo(placed.id());

        shop().restock(4, 10);
        assertThat(stock(4)).isEqualTo(mugs - 1 + 10);
        assertThat(borrowsOutsideEast()).as("every transaction ran on east").isEqualTo(elsewhere);
    }

    private long borrowsOutsideEast() {
        return pool().snapshot().origins().stream().filter(o -> !o.name().equals("east")).mapToLong(o -> o.borrows()).sum();
    }

    private int stock(int productId) {
        return shop().catalog().stream().filter(p -> p.id() == productId).mapToInt(Product::stock).findFirst()
                .orElseThrow();
    }
}
