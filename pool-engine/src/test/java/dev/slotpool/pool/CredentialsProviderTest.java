package dev.slotpool.pool;

import dev.slotpool.CredentialsProvider;
import dev.slotpool.PoolEvent;
import dev.slotpool.testsupport.StubDatabase;
import dev.slotpool.testsupport.TestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The credentials provider is read at each new connection, so a rotated password works without a restart. */
class CredentialsProviderTest {

    private ConnectionPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aRotatedPasswordIsUsedByTheNextConnection() throws Exception {
        StubDatabase db = StubDatabase.reset("credentials-rotated");
        db.requirePassword("rotated-1");
        AtomicReference<String> current = new AtomicReference<>("rotated-1");
        AtomicInteger calls = new AtomicInteger();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(2).credentialsProvider(origin -> {
            calls.incrementAndGet();
            return new CredentialsProvider.Credentials(null, current.get());
        }).config());

        try (Connection first = pool.borrow()) {
            db.requirePassword("rotated-2"); // the server's password changes, then the vault's
            current.set("rotated-2");
            try (Connection second = pool.borrow()) {
                assertThat(second.isValid(1)).isTrue();
            }
            assertThat(first.isValid(1)).as("the open connection is unaffected").isTrue();
        }
        assertThat(db.opened()).isEqualTo(2);
        assertThat(db.failedConnects()).as("no connect with the old password").isZero();
        assertThat(calls.get()).as("asked once per new connection").isEqualTo(2);
    }

    @Test
    void aThrowingProviderCountsAsAFailedConnect() throws Exception {
        StubDatabase db = StubDatabase.reset("credentials-throws");
        RecordedEvents events = new RecordedEvents();
        AtomicInteger calls = new AtomicInteger();
        pool = new ConnectionPool(Pools.stub(db).minSize(1).maxSize(1).downAfterFailures(0)
                .listener(events).credentialsProvider(origin -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("vault sealed; configured password s3cret-pw");
                    }
                    return new CredentialsProvider.Credentials("app", "fresh");
                }).config());

        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(events.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATION_FAILED).singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("credentials provider failed", "vault sealed")
                        .doesNotContain("s3cret-pw"));
        assertThat(db.connectAttempts()).as("no connect without credentials").isEqualTo(1);
    }

    @Test
    void aDriverErrorThatEchoesAProvidedPasswordIsRedacted() {
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(StubDatabase.reset("credentials-echo")).url("jdbc:echo:x")
                .driverClassName(EchoingDriver.class.getName()).minSize(1).maxSize(1).downAfterFailures(0)
                .creationBackoffMax(Duration.ofMinutes(1)).listener(events)
                .credentialsProvider(origin -> new CredentialsProvider.Credentials("app", "Tok-9xQ-provided"))
                .config());

        Pools.await(pool, s -> events.events.stream().anyMatch(e -> e.type() == PoolEvent.Type.CREATION_FAILED),
                "the refused login");
        assertThat(events.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATION_FAILED).first()
                .satisfies(e -> assertThat(e.detail()).contains("password '***' refused")
                        .doesNotContain("Tok-9xQ-provided"));
        assertThat(pool.failover.detector().currentFailure().getMessage()).doesNotContain("Tok-9xQ-provided");
    }

    /**
     * A driver that fails with a RuntimeException echoing the provided password: the password is in no output,
     * neither the CREATION_FAILED event (which is also the log line), nor {@code lastCreationFailure}, nor a borrow
     * timeout's message and causes.
     */
    @Test
    void aDriverRuntimeExceptionThatEchoesAProvidedPasswordIsRedacted() {
        RecordedEvents events = new RecordedEvents();
        pool = new ConnectionPool(Pools.stub(StubDatabase.reset("credentials-echo-runtime")).url("jdbc:echo-rt:x")
                .driverClassName(RuntimeEchoingDriver.class.getName()).minSize(1).maxSize(1).downAfterFailures(0)
                .borrowTimeout(Duration.ofMillis(300)).creationBackoffMax(Duration.ofMinutes(1)).listener(events)
                .credentialsProvider(origin -> new CredentialsProvider.Credentials("app", "Tok-7rT-provided"))
                .config());

        Pools.await(pool, s -> events.events.stream().anyMatch(e -> e.type() == PoolEvent.Type.CREATION_FAILED),
                "the refused login");
        assertThat(events.events).filteredOn(e -> e.type() == PoolEvent.Type.CREATION_FAILED).first()
                .satisfies(e -> assertThat(e.detail()).contains("IllegalStateException", "password '***' refused")
                        .doesNotContain("Tok-7rT-provided"));
        assertThat(pool.snapshot().lastCreationFailure()).get().asString().contains("refused")
                .doesNotContain("Tok-7rT-provided");
        SQLException timeout = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, pool::borrow);
        java.io.StringWriter trace = new java.io.StringWriter();
        timeout.printStackTrace(new java.io.PrintWriter(trace));
        assertThat(trace.toString()).contains("refused").doesNotContain("Tok-7rT-provided");
    }

    @Test
    void credentialsNeverShowThePassword() {
        assertThat(new CredentialsProvider.Credentials("app", "Tok-9xQ").toString()).doesNotContain("Tok-9xQ")
                .contains("app");
    }

    /** A driver whose every connect fails with a message that echoes the password it was given. */
    public static final class EchoingDriver extends TestDriver {

        public EchoingDriver() {
            super("jdbc:echo:");
        }

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            throw new SQLException("login as " + info.getProperty("user") + " with password '"
                    + info.getProperty("password") + "' refused", "28000");
        }
    }

    /** A driver whose every connect fails with a RuntimeException that echoes the password it was given. */
    public static final class RuntimeEchoingDriver extends TestDriver {

        public RuntimeEchoingDriver() {
            super("jdbc:echo-rt:");
        }

        @Override
        public Connection connect(String url, Properties info) {
            throw new IllegalStateException("login as " + info.getProperty("user") + " with password '"
                    + info.getProperty("password") + "' refused");
        }
    }
}
