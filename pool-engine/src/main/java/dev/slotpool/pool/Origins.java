package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.table.EntryFilter;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pool's origins and the weighted choice among them. The array is replaced, never changed in place, so
 * readers see a consistent set without a lock.
 */
final class Origins {

    private final ConnectionPool pool;
    private volatile Origin[] all;

    Origins(ConnectionPool pool, List<OriginConfig> configs) {
        this.pool = pool;
        List<Origin> list = new ArrayList<>();
        for (OriginConfig c : configs) {
            list.add(new Origin(c, driverFor(c), properties(c), pool.ticker.nanoTime()));
        }
        this.all = list.toArray(new Origin[0]);
    }

    Origin[] all() {
        return all;
    }

    Origin find(String name) {
        for (Origin o : all) {
            if (o.name.equals(name)) {
                return o;
            }
        }
        return null;
    }

    /**
     * The filter of an UP origin picked at random in proportion to its weight, or null when there is nothing
     * to choose (one origin, or all weights zero). Weighted random needs no shared counter on the borrow path:
     * over many borrows each origin's share of borrows tends to its share of the weights, as far as it has
     * available connections (the creator places connections by the same weights).
     */
    EntryFilter<PooledConnection> pickByWeight() {
        Origin[] os = all;
        if (os.length < 2) {
            return null;
        }
        int total = 0;
        for (Origin o : os) {
            if (o.isUp()) {
                total += o.weight;
            }
        }
        if (total <= 0) {
            return null;
        }
        int r = ThreadLocalRandom.current().nextInt(total);
        for (Origin o : os) {
            if (o.isUp()) {
                r -= o.weight;
                if (r < 0) {
                    return o.mine;
                }
            }
        }
        return null;
    }

    /** Sum of the weights of UP origins. */
    int upWeight() {
        int total = 0;
        for (Origin o : all) {
            if (o.isUp()) {
                total += o.weight;
            }
        }
        return total;
    }

    private Driver driverFor(OriginConfig c) {
        try {
            String cls = pool.config.driverClassName();
            if (cls != null) {
                return (Driver) Class.forName(cls, true, Thread.currentThread().getContextClassLoader())
                        .getDeclaredConstructor().newInstance();
            }
            return DriverManager.getDriver(c.url());
        } catch (SQLException | ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("origin '" + c.name() + "': no JDBC driver for "
                    + ConnectionPool.describe(c) + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static Properties properties(OriginConfig c) {
        Properties p = new Properties();
        for (Map.Entry<String, String> e : c.connectionProperties().entrySet()) {
            p.setProperty(e.getKey(), e.getValue());
        }
        if (c.username() != null) {
            p.setProperty("user", c.username());
        }
        if (c.password() != null) {
            p.setProperty("password", c.password());
        }
        return p;
    }
}
