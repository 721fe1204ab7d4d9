package dev.slotpool.pool;

import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's log lines (docs/operations.md, "Logs"): one logger per concern, levels by severity, a start and a
 * stop line at INFO. With no LoggerFinder installed, System.Logger goes to java.util.logging under the same name,
 * where a handler on {@code dev.slotpool} sees every engine logger's records.
 */
class LogLinesTest {

    private final Logger parent = Logger.getLogger("dev.slotpool");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private ConnectionPool pool;

    @BeforeEach
    void listen() {
        capture.setLevel(Level.ALL);
        parent.addHandler(capture);
    }

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        parent.removeHandler(capture);
        StubDatabase.reset();
    }

    private boolean logged(String logger, Level level, String text) {
        return records.stream().anyMatch(r -> r.getLoggerName().equals(logger) && r.getLevel().equals(level)
                && r.getMessage().contains(text));
    }

    private String seen() {
        StringBuilder sb = new StringBuilder();
        records.forEach(r -> sb.append("\n  ").append(r.getLoggerName()).append(' ').append(r.getLevel()).append(' ')
                .append(r.getMessage()));
        return sb.toString();
    }

    @Test
    void startAndStopLinesAtInfoOnThePoolLogger() {
        StubDatabase db = StubDatabase.reset("log-start");
        pool = ConnectionPool.startedWithFirstConnection(Pools.stub(db).name("logged").minSize(1).maxSize(3).config());
        Pools.await(pool, s -> s.available() == 1, "one idle connection");
        pool.close();
        pool = null;

        assertThat(logged("dev.slotpool.pool", Level.INFO, "[logged] starting: origin default (jdbc:stub:log-start)"))
                .as("the start line; seen:" + seen()).isTrue();
        assertThat(logged("dev.slotpool.pool", Level.INFO, "minSize 1, maxSize 3")).as(seen()).isTrue();
        assertThat(logged("dev.slotpool.pool", Level.INFO, "[logged] start completed: first connection in "))
                .as(seen()).isTrue();
        assertThat(logged("dev.slotpool.pool", Level.INFO, "[logged] shutdown completed in ")).as(seen()).isTrue();
        assertThat(logged("dev.slotpool.pool", Level.INFO, "1 idle connection(s) closed, 0 borrowed"))
                .as(seen()).isTrue();
        assertThat(records).as("nothing left on the one logger of old").noneMatch(r -> r.getLoggerName()
                .equals("dev.slotpool"));
        assertThat(records).as("no secret in any line").noneMatch(r -> r.getMessage().contains("s3cret-pw"));
    }

    @Test
    void aDownIsAWarningOnTheOriginLoggerAndTheRecoveryInfo() {
        StubDatabase db = StubDatabase.reset("log-down").down(true);
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1)
                .creationBackoffMax(Duration.ofMillis(200)).config());
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.DOWN, "DOWN");
        db.down(false);
        Pools.await(pool, s -> s.origins().get(0).state() == OriginState.UP, "UP again after a probe");

        assertThat(logged("dev.slotpool.connection", Level.WARNING, "CREATION_FAILED default: ")).as(seen()).isTrue();
        assertThat(logged("dev.slotpool.origin", Level.WARNING, "ORIGIN_STATE default: UP -> DOWN: ")).as(seen())
                .isTrue();
        assertThat(logged("dev.slotpool.origin", Level.INFO, "ORIGIN_STATE default: DOWN -> UP: ")).as(seen())
                .isTrue();
        assertThat(records).as("the recovery is no warning").noneMatch(r -> r.getLevel().equals(Level.WARNING)
                && r.getMessage().contains("-> UP"));
    }

    @Test
    void aLeakIsAWarningOnTheLeakLogger() throws Exception {
        StubDatabase db = StubDatabase.reset("log-leak");
        ManualTicker clock = new ManualTicker();
        pool = new ConnectionPool(Pools.stub(db).ticker(clock).minSize(1).maxSize(1)
                .leakDetectionThreshold(Duration.ofSeconds(1)).config());
        Pools.await(pool, s -> s.available() == 1, "one idle connection");
        try (Connection held = pool.borrow()) {
            clock.advance(Duration.ofSeconds(2));
            pool.housekeeper.pass();
            assertThat(logged("dev.slotpool.leak", Level.WARNING, "LEAK default: connection held by thread '"))
                    .as(seen()).isTrue();
            assertThat(held.isValid(1)).isTrue();
        }
    }

    @Test
    void aListenerThatThrowsIsAWarningOnTheUserCodeLogger() {
        StubDatabase db = StubDatabase.reset("log-listener");
        PoolListener throwing = new PoolListener() {
            @Override
            public void onEvent(PoolEvent event) {
                throw new IllegalStateException("listener bug");
            }
        };
        pool = new ConnectionPool(Pools.stub(db).listener(throwing).minSize(1).maxSize(1).config());
        // The CREATED event reaches the listener just after the connection is published: wait for the warning.
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!logged("dev.slotpool.usercode", Level.WARNING, "failed") && System.nanoTime() - end < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(logged("dev.slotpool.usercode", Level.WARNING, "failed")).as(seen()).isTrue();
    }
}
