package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * When nobody waits, a virtual thread gives up its carrier only after it has borrowed a turn's worth
 * ({@code Turns.MIN_TURN_BORROWS}) since it last did: a thread that keeps borrowing must still let not-yet-started
 * virtual threads run, but a new thread per request (Spring Boot with {@code spring.threads.virtual.enabled})
 * borrows once and must not pay a park, a timer and an unmount for it (docs/benchmarks.md, "Virtual threads, thread per request").
 *
 * <p>A park is seen through the thread's permit, with no timing: the thread is given a permit before it borrows,
 * which any park inside the borrows uses up (returning at once); afterwards it parks once more, which returns at
 * once if the permit is still there and otherwise leaves the thread parked, where the test sees it. Runs on JDK 21+
 * (the Temurin 25 pass of CI); skipped on JDK 17.
 */
class VirtualThreadYieldTest {

    private ConnectionPool pool;

    @BeforeEach
    void idlePool() {
        Assumptions.assumeTrue(virtualThreadsAvailable(), "virtual threads need JDK 21+ (the Temurin 25 run)");
        pool = new ConnectionPool(Pools.stub(StubDatabase.reset("vt-yield")).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(30)).config());
        Pools.await(pool, s -> s.available() == 1, "one idle");
    }

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aNewVirtualThreadBorrowsOnceWithoutParkingWhenNobodyWaits() throws Exception {
        assertThat(parkedWhile(1)).as("the first borrow of a new virtual thread parked").isFalse();
    }

    @Test
    void aVirtualThreadThatKeepsBorrowingGivesUpItsCarrier() throws Exception {
        assertThat(parkedWhile(64)).as("64 borrows in a row without giving up the carrier").isTrue();
    }

    /** Whether a new virtual thread parked while it borrowed and returned {@code borrows} times, nobody waiting. */
    private boolean parkedWhile(int borrows) throws Exception {
        Object afterBorrows = new Object();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = startVirtual(() -> {
            LockSupport.unpark(Thread.currentThread());
            try {
                for (int i = 0; i < borrows; i++) {
                    pool.borrow().close();
                }
            } catch (SQLException | RuntimeException e) {
                failure.set(e);
            }
            LockSupport.park(afterBorrows);
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        boolean parked = false;
        while (t.isAlive()) {
            // A virtual thread that finds its permit returns from park without ever being WAITING.
            if (t.getState() == Thread.State.WAITING && LockSupport.getBlocker(t) == afterBorrows) {
                parked = true;
                LockSupport.unpark(t);
            }
            if (System.nanoTime() - deadline > 0) {
                fail("the borrowing thread neither ended nor parked after its borrows within 30 s: "
                        + t.getState());
            }
            t.join(1);
        }
        assertThat(failure.get()).as("borrow failure").isNull();
        assertThat(pool.snapshot().waiting()).isZero();
        return parked;
    }

    private static Thread startVirtual(Runnable r) throws Exception {
        Method m = Thread.class.getMethod("startVirtualThread", Runnable.class);
        return (Thread) m.invoke(null, r);
    }

    private static boolean virtualThreadsAvailable() {
        try {
            Thread.class.getMethod("startVirtualThread", Runnable.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
