package dev.slotpool.sample.load;

import dev.slotpool.sample.shop.OrderItem;
import dev.slotpool.sample.shop.OutOfStockException;
import dev.slotpool.sample.shop.ShopService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Worker threads that run the shop's transactions in a loop, each pausing {@code thinkTime} between two: 70%
 * place an order of one to three products, 30% read the recent orders. An order refused for short stock counts
 * as rejected and restocks that product. Any other exception counts as failed, is kept as {@code lastFailure}
 * and logged at DEBUG with its message; nothing is swallowed silently.
 *
 * <p>A {@link SmartLifecycle}: it starts last (when {@code sample.load.enabled}) and stops first at context
 * close, before the pool closes, and {@link #stop()} returns only once every worker thread has ended.
 */
@Component
public class LoadGenerator implements SmartLifecycle {

    /** Worker thread names start with this. */
    public static final String THREAD_PREFIX = "sample-load-";

    /** How long {@link #stop()} waits for the workers: a worker may be in a borrow (the pool's borrow-timeout). */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(LoadGenerator.class);
    private static final String[] CUSTOMERS = {"ada", "grace", "edsger", "barbara", "donald", "frances", "ken", "leslie"};
    /** Product ids 1 to 8, as seeded by db/schema.sql. */
    private static final int PRODUCTS = 8;
    private static final int RESTOCK = 500;

    private final ShopService shop;
    private final LoadProperties properties;
    private final LongAdder completed = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private volatile String lastFailure;
    private volatile Duration thinkTime;

    /** Guarded by {@code this}. */
    private final List<Worker> workers = new ArrayList<>();
    private int workerIds;
    private boolean lifecycleRunning;

    public LoadGenerator(ShopService shop, LoadProperties properties) {
        this.shop = shop;
        this.properties = properties;
        this.thinkTime = properties.settings().thinkTime(); // checks sample.load.* at startup
    }

    /**
     * Starts the workers, or changes their number and think time when they run.
     *
     * @throws IllegalStateException once the application is stopping (no worker may outlive the pool)
     */
    public void apply(LoadSettings settings) {
        List<Worker> surplus;
        synchronized (this) {
            if (!lifecycleRunning) {
                throw new IllegalStateException("the application is not running");
            }
            thinkTime = settings.thinkTime();
            while (workers.size() < settings.threads()) {
                Worker w = new Worker(THREAD_PREFIX + (++workerIds));
                workers.add(w);
                w.thread.start();
            }
            surplus = new ArrayList<>(workers.subList(settings.threads(), workers.size()));
            workers.removeAll(surplus);
        }
        stopAndJoin(surplus);
    }

    /** Stops every worker and waits for them to end. */
    public void stopWorkers() {
        List<Worker> all;
        synchronized (this) {
            all = new ArrayList<>(workers);
            workers.clear();
        }
        stopAndJoin(all);
    }

    public LoadStatus status() {
        int threads;
        synchronized (this) {
            threads = workers.size();
        }
        return new LoadStatus(threads > 0, threads, thinkTime, completed.sum(), rejected.sum(), failed.sum(),
                lastFailure);
    }

    // ---- lifecycle -------------------------------------------------------------------------------------------

    @Override
    public synchronized void start() {
        lifecycleRunning = true;
        if (properties.isEnabled()) {
            LoadSettings s = properties.settings();
            log.info("Starting load: {} threads, think time {}", s.threads(), DurationStyle.SIMPLE.print(s.thinkTime()));
            apply(s);
        }
    }

    @Override
    public void stop() {
        synchronized (this) {
            lifecycleRunning = false; // from here apply() refuses: a page request cannot restart the load
        }
        stopWorkers();
        LoadStatus s = status();
        log.info("Load stopped: {} completed, {} rejected, {} failed", s.completed(), s.rejected(), s.failed());
    }

    @Override
    public synchronized boolean isRunning() {
        return lifecycleRunning;
    }

    // ---- workers ---------------------------------------------------------------------------------------------

    /** Signals the workers to stop after their current transaction, then joins them. */
    private void stopAndJoin(List<Worker> stopping) {
        stopping.forEach(w -> w.stop.countDown());
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        for (Worker w : stopping) {
            try {
                long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMillis > 0) {
                    w.thread.join(leftMillis);
                }
                if (w.thread.isAlive()) {
                    log.warn("Load worker {} did not end within {}; interrupting it", w.thread.getName(), STOP_TIMEOUT);
                    w.thread.interrupt();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void work(Worker w) {
        try {
            do {
                runOne();
            } while (!w.stop.await(thinkTime.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // only at shutdown, after STOP_TIMEOUT: end the thread
        }
    }

    private void runOne() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            if (random.nextInt(10) < 7) {
                try {
                    shop.placeOrder(CUSTOMERS[random.nextInt(CUSTOMERS.length)], randomItems(random));
                } catch (OutOfStockException e) {
                    rejected.increment();
                    shop.restock(e.productId(), RESTOCK);
                }
            } else {
                shop.recentOrders(10);
            }
            completed.increment();
        } catch (RuntimeException e) {
            failed.increment();
            lastFailure = e.getClass().getSimpleName() + ": " + e.getMessage();
            log.debug("Load transaction failed: {}", e.getMessage());
        }
    }

    private static List<OrderItem> randomItems(ThreadLocalRandom random) {
        int first = 1 + random.nextInt(PRODUCTS);
        int count = 1 + random.nextInt(3);
        List<OrderItem> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(new OrderItem(1 + (first - 1 + i) % PRODUCTS, 1 + random.nextInt(3)));
        }
        return items;
    }

    /** One worker: its thread and its stop signal (a latch, so the think-time pause ends at once on stop). */
    private final class Worker {

        final CountDownLatch stop = new CountDownLatch(1);
        final Thread thread;

        Worker(String name) {
            thread = new Thread(() -> work(this), name);
        }
    }
}
