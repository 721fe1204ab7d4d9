package dev.slotpool.sample;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.SlotSnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs slotpool over three in-memory H2 databases (origins east, west, north) under load from 40 threads and
 * prints the pool every second: each origin's state, weight and slots ({@code .} empty, {@code +} being
 * created, {@code o} available, {@code #} borrowed, {@code x} closing). Mid-run it drains east, rebalances,
 * and brings east back, so you can watch connections move.
 */
public final class EngineDemo {

    private static final int WORKERS = 40;

    private EngineDemo() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder()
                .name("demo")
                .username("sa").password("")
                .minSize(6).maxSize(12)
                .borrowTimeout(Duration.ofSeconds(5))
                .housekeepingPeriod(Duration.ofMillis(250))
                .origin(OriginConfig.named("east").url("jdbc:h2:mem:east;DB_CLOSE_DELAY=-1").host("db1").weight(50))
                .origin(OriginConfig.named("west").url("jdbc:h2:mem:west;DB_CLOSE_DELAY=-1").host("db2").weight(30))
                .origin(OriginConfig.named("north").url("jdbc:h2:mem:north;DB_CLOSE_DELAY=-1").host("db3").weight(20))
                .build()) {
            for (String db : List.of("east", "west", "north")) {
                try (Connection c = java.sql.DriverManager.getConnection("jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1", "sa", "");
                     Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE IF NOT EXISTS orders(id INT AUTO_INCREMENT PRIMARY KEY, amount INT)");
                }
            }
            AtomicLong done = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                Thread t = new Thread(() -> work(ds, done, failed), "worker-" + i);
                t.setDaemon(true);
                t.start();
                workers.add(t);
            }
            for (int s = 1; s <= seconds; s++) {
                Thread.sleep(1000);
                if (s == 3) {
                    System.out.println(">>> drain east (planned failover, 2 s timeout)");
                    ds.drain("east", Duration.ofSeconds(2));
                } else if (s == 6) {
                    System.out.println(">>> mark east up, rebalance to east 20 / west 40 / north 40");
                    ds.markUp("east");
                    ds.rebalance(Map.of("east", 20, "west", 40, "north", 40));
                } else if (s == 9) {
                    System.out.println(">>> rebalance back to the configured weights");
                    ds.rebalanceToConfigured();
                }
                print(s, ds.snapshot(), done.get(), failed.get());
            }
            workers.forEach(Thread::interrupt);
            for (Thread t : workers) {
                t.join(5000);
            }
            System.out.printf("done: %d transactions, %d failed%n", done.get(), failed.get());
        }
    }

    private static void work(SlotPoolDataSource ds, AtomicLong done, AtomicLong failed) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        while (!Thread.currentThread().isInterrupted()) {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders(amount) VALUES (?)")) {
                    ps.setInt(1, rnd.nextInt(1000));
                    ps.executeUpdate();
                }
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders")) {
                    rs.next();
                }
                Thread.sleep(rnd.nextInt(2, 8));
                c.commit();
                done.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            } catch (SQLException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                failed.incrementAndGet();
            }
        }
    }

    private static void print(int second, PoolSnapshot p, long done, long failed) {
        System.out.printf("t=%2ds  total=%d available=%d borrowed=%d waiting=%d  borrows=%d  tx=%d failed=%d%n",
                second, p.total(), p.available(), p.borrowed(), p.waiting(), p.borrows(), done, failed);
        for (OriginSnapshot o : p.origins()) {
            StringBuilder cells = new StringBuilder();
            for (SlotSnapshot s : o.slots()) {
                cells.append(switch (s.state()) {
                    case EMPTY -> '.';
                    case RESERVED -> '+';
                    case AVAILABLE -> 'o';
                    case BORROWED -> s.retiring() ? 'r' : '#';
                    case CLOSING -> 'x';
                });
            }
            for (int i = 0; i < o.reserved(); i++) {
                cells.append('+');
            }
            System.out.printf("   %-6s %-8s weight=%3d share=%5.1f%%  borrows=%7d  [%s]%n", o.name(), o.state(),
                    o.weight(), o.targetShare(), o.borrows(), cells);
        }
    }
}
