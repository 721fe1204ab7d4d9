package dev.slotpool;

import dev.slotpool.testsupport.StubDatabase;
import dev.slotpool.testsupport.StubOracleDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every driver call the pool makes on the borrow and return paths survives an {@link Error} from the driver (a
 * class missing at run time, a method older than the interface): the connection it was made on is closed, never
 * left lent to nobody or handed on in an unknown state, and a pool of one connection keeps lending. The stub
 * throws the error from the named call ({@link StubDatabase#throwOnNext}).
 */
class DriverErrorsAtBorrowAndReturnTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private SlotPoolDataSource pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private static SlotPoolBuilder drcp(StubDatabase db) {
        return SlotPoolDataSource.builder().name("drcp-errors").url(StubOracleDriver.pooledUrl(db.name()))
                .driverClassName(StubOracleDriver.class.getName()).pooler(Pooler.DRCP).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(10));
    }

    private static SlotPoolBuilder plain(StubDatabase db) {
        return SlotPoolDataSource.builder().name("driver-errors").url(db.url()).minSize(1).maxSize(1)
                .borrowTimeout(Duration.ofSeconds(10));
    }

    @Test
    void anErrorFromTheDrcpAttachClosesThatConnectionAndTheBorrowGetsAnother() throws Exception {
        StubDatabase db = StubDatabase.reset("attach-error");
        pool = drcp(db).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        db.throwOnNext("attach", 1, new NoClassDefFoundError("oracle/jdbc/internal/Missing"));

        try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            st.execute("SELECT 1");
        }

        assertThat(db.opened()).as("the connection whose attach failed was replaced").isEqualTo(2);
        assertNothingLeftLent(db);
    }

    @Test
    void anErrorFromTheDrcpReleaseAtReturnClosesTheConnection() throws Exception {
        StubDatabase db = StubDatabase.reset("detach-error");
        pool = drcp(db).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        db.throwOnNext("detach", 1, new NoClassDefFoundError("oracle/jdbc/internal/Missing"));

        Connection c = pool.getConnection();
        assertThat(catchThrowable(c::close)).as("close() never throws").isNull();

        assertThat(c.isClosed()).isTrue();
        awaitSnapshot(s -> s.connectionsClosed() == 1, "the connection whose release failed closed");
        assertNothingLeftLent(db);
    }

    @Test
    void anErrorFromBeginRequestAtTheLendClosesTheConnectionAtItsReturn() throws Exception {
        StubDatabase db = StubDatabase.reset("begin-error");
        pool = plain(db).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        db.throwOnNext("beginRequest", 1, new AbstractMethodError("beginRequest"));

        Connection c = pool.getConnection();
        c.close();

        awaitSnapshot(s -> s.connectionsClosed() == 1, "the connection closed at its return");
        assertNothingLeftLent(db);
    }

    @Test
    void anErrorFromTheReturnsRollbackClosesTheConnectionInsteadOfLendingItsTransaction() throws Exception {
        StubDatabase db = StubDatabase.reset("rollback-error");
        pool = plain(db).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        Connection c = pool.getConnection();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("UPDATE orders SET state = 'shipped'");
        }
        db.throwOnNext("rollback", 1, new NoClassDefFoundError("com/example/Missing"));

        assertThat(catchThrowable(c::close)).as("close() never throws").isNull();

        awaitSnapshot(s -> s.connectionsClosed() == 1, "the connection with the unfinished transaction closed");
        assertNothingLeftLent(db);
    }

    @Test
    void anErrorFromEndRequestAtReturnClosesTheConnection() throws Exception {
        StubDatabase db = StubDatabase.reset("end-error");
        pool = plain(db).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        Connection c = pool.getConnection();
        db.throwOnNext("endRequest", 1, new AbstractMethodError("endRequest"));

        assertThat(catchThrowable(c::close)).as("close() never throws").isNull();

        awaitSnapshot(s -> s.connectionsClosed() == 1, "the connection closed");
        assertNothingLeftLent(db);
    }

    @Test
    void anErrorFromSetReadOnlyOnAReadBorrowClosesTheConnectionAndFailsTheBorrow() throws Exception {
        StubDatabase db = StubDatabase.reset("read-only-error");
        pool = plain(db).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        Error missing = new NoClassDefFoundError("com/example/Missing");
        db.throwOnNext("setReadOnly", 1, missing);

        assertThat(catchThrowable(() -> pool.forReads().getConnection())).isSameAs(missing);

        awaitSnapshot(s -> s.connectionsClosed() == 1, "the connection not lent closed");
        assertNothingLeftLent(db);
    }

    @Test
    void anErrorFromTheDrcpReleaseAfterAKeepaliveClosesTheConnectionInsteadOfHoldingItsSlot() throws Exception {
        StubDatabase db = StubDatabase.reset("keepalive-detach-error");
        pool = drcp(db).keepaliveInterval(Duration.ofSeconds(1)).housekeepingPeriod(Duration.ofMillis(50)).build();
        awaitSnapshot(s -> s.available() == 1, "one idle connection");
        db.throwOnNext("detach", 1, new NoClassDefFoundError("oracle/jdbc/internal/Missing"));

        awaitSnapshot(s -> s.connectionsClosed() == 1, "the connection whose release failed closed");
        assertNothingLeftLent(db);
    }

    /** Nothing lent, and the pool of one lends again: a stranded slot would time this borrow out. */
    private void assertNothingLeftLent(StubDatabase db) throws SQLException {
        assertThat(pool.snapshot().borrowed()).as("nothing left lent").isZero();
        try (Connection next = pool.getConnection(); Statement st = next.createStatement()) {
            st.execute("SELECT 1");
        }
        awaitSnapshot(s -> db.live() == 1, "one connection open, as maxSize says (live " + db.live() + ")");
    }

    private PoolSnapshot awaitSnapshot(Predicate<PoolSnapshot> wanted, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            PoolSnapshot s = pool.snapshot();
            if (wanted.test(s)) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for: " + what + "; last: " + s.summary());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
