package dev.slotpool.pool;

import dev.slotpool.testsupport.StubDatabase;
import dev.slotpool.testsupport.TestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A driver that throws {@link Error}s (a class missing at run time, a method an old driver lacks) must not kill
 * a pool thread, strand a slot, or hide the cause from the borrower who times out.
 */
class DriverErrorsTest {

    private static final StubDatabase DB = StubDatabase.reset("driver-errors");
    /** What the next connects throw; null: connect to the stub database. */
    private static volatile Error connectError;
    /** What isValid throws on the connections opened while set; null: the stub's own isValid. */
    private static volatile Error isValidError;

    private ConnectionPool pool;

    @AfterEach
    void close() {
        connectError = null;
        isValidError = null;
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void anErrorFromConnectKeepsTheCreatorsAliveAndIsChainedIntoTheTimeout() throws Exception {
        connectError = new NoClassDefFoundError("com/example/MissingAtRunTime");
        pool = new ConnectionPool(Pools.stub(DB).name("errors").driverClassName(ErrorDriver.class.getName())
                .url("jdbc:errors:x").minSize(1).maxSize(2).downAfterFailures(0)
                .borrowTimeout(Duration.ofMillis(500)).config());

        SQLTransientConnectionException timeout = catchThrowableOfType(SQLTransientConnectionException.class,
                pool::borrow);
        assertThat((Throwable) timeout).isNotNull();
        assertThat(timeout.getCause()).as("the chained cause").isNotNull();
        assertThat(timeout.getCause().getMessage()).contains("NoClassDefFoundError", "MissingAtRunTime");
        assertThat(StubFaultsTest.poolThreads("errors")).as("pool threads after the error")
                .anyMatch(t -> t.getName().contains("creator"));

        connectError = null; // the class is there again
        // The creators come back after their back-off, which can be longer than the 500 ms borrow timeout.
        Pools.await(pool, s -> s.available() > 0, "a connection once the class is there");
        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
        }
    }

    @Test
    void anErrorFromIsValidClosesTheConnectionInsteadOfStrandingItsSlot() throws Exception {
        isValidError = new AbstractMethodError("isValid");
        pool = new ConnectionPool(Pools.stub(DB).name("errors").driverClassName(ErrorDriver.class.getName())
                .url("jdbc:errors:x").minSize(1).maxSize(1).downAfterFailures(0)
                .validateAfterIdle(Duration.ZERO).borrowTimeout(Duration.ofSeconds(5)).config());
        Pools.await(pool, s -> s.available() == 1, "one idle connection whose isValid throws");
        isValidError = null; // its replacement validates normally

        try (Connection c = pool.borrow()) {
            assertThat(c.isValid(1)).isTrue();
        }
        assertThat(pool.snapshot().borrowed()).as("no slot left borrowed").isZero();
        assertThat(DB.live()).isEqualTo(1);
    }

    /** Delegates to the stub database, throwing the test's errors where it says. */
    public static final class ErrorDriver extends TestDriver {

        public ErrorDriver() {
            super("jdbc:errors:");
        }

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            Error e = connectError;
            if (e != null) {
                throw e;
            }
            Connection real = DriverManager.getDriver(DB.url()).connect(DB.url(), info);
            Error onValid = isValidError;
            if (onValid == null) {
                return real;
            }
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("isValid")) {
                            throw onValid;
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException ite) {
                            throw ite.getCause();
                        }
                    });
        }
    }
}
