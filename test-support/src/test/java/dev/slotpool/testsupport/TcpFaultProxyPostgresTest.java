package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TcpFaultProxy} in front of a real PostgreSQL server, seen through the PostgreSQL JDBC driver with
 * {@code connectTimeout=2} and {@code socketTimeout=2} (seconds): what a pool will see in each fault.
 *
 * <p>{@code connectTimeout} bounds only the TCP handshake, which the proxy completes even when blackholed; the
 * startup exchange is bounded by {@code socketTimeout}, once per attempt, and with the default
 * {@code sslmode=prefer} the driver makes two attempts (SSL, then plain), so a blackholed or unanswered connect
 * fails after about 2 x {@code socketTimeout} (4 s here). {@code loginTimeout} bounds the whole connect.
 */
class TcpFaultProxyPostgresTest {

    /** The driver's timeouts, in seconds, on every connection through the proxy. */
    private static final int DRIVER_TIMEOUT_SECONDS = 2;
    /** Generous upper bound for a failure the driver's 2 s timeouts should produce, on a loaded machine. */
    private static final Duration FAILS_WITHIN = Duration.ofSeconds(15);
    private static final long DEADLINE_MILLIS = 20_000;

    private static EmbeddedPostgres pg;

    private TcpFaultProxy proxy;

    @BeforeAll
    static void startServer() throws IOException {
        pg = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    @BeforeEach
    void startProxy() {
        proxy = TcpFaultProxy.start("localhost", pg.getPort());
    }

    @AfterEach
    void closeProxy() {
        proxy.close();
    }

    @Test
    void blackholeFailsNewAndExistingConnectionsByTheDriversTimeoutsAndForwardHeals() throws SQLException {
        try (Connection existing = throughProxy()) {
            assertThat(selectOne(existing)).isEqualTo(1);

            proxy.blackhole();
            long start = System.nanoTime();
            SQLException connectFailure = catchThrowableOfType(SQLException.class, this::throughProxy);
            Duration connectTook = since(start);
            assertThat((Throwable) connectFailure).as("a new connection fails").isNotNull();
            assertThat(connectFailure.getSQLState()).isEqualTo("08001");
            assertThat((Throwable) connectFailure).hasRootCauseInstanceOf(SocketTimeoutException.class);
            assertThat(connectTook).isGreaterThanOrEqualTo(Duration.ofSeconds(DRIVER_TIMEOUT_SECONDS).minusMillis(100))
                    .isLessThan(FAILS_WITHIN);

            start = System.nanoTime();
            SQLException queryFailure = catchThrowableOfType(SQLException.class, () -> selectOne(existing));
            Duration queryTook = since(start);
            assertThat((Throwable) queryFailure).as("a query on an existing connection fails").isNotNull();
            assertThat(queryFailure.getSQLState()).isEqualTo("08006");
            assertThat((Throwable) queryFailure).hasRootCauseInstanceOf(SocketTimeoutException.class);
            assertThat(queryTook).isGreaterThanOrEqualTo(Duration.ofSeconds(DRIVER_TIMEOUT_SECONDS).minusMillis(100))
                    .isLessThan(FAILS_WITHIN);
        }

        proxy.forward();
        try (Connection fresh = throughProxy()) {
            assertThat(selectOne(fresh)).isEqualTo(1);
        }
    }

    @Test
    void resetAllFailsTheNextQueryWithAConnectionStateAndEndsTheBackend() throws Exception {
        try (Connection existing = throughProxy(); Connection direct = direct()) {
            int pid = backendPid(existing);
            assertThat(backendExists(direct, pid)).isTrue();

            proxy.resetAll();
            long start = System.nanoTime();
            SQLException failure = catchThrowableOfType(SQLException.class, () -> selectOne(existing));
            Duration took = since(start);
            assertThat((Throwable) failure).isNotNull();
            assertThat(failure.getSQLState()).startsWith("08");
            assertThat((Throwable) failure).hasRootCauseInstanceOf(SocketException.class);
            assertThat(took).isLessThan(FAILS_WITHIN);

            // The server's side was reset too: its backend exits.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MILLIS);
            while (backendExists(direct, pid)) {
                assertThat(System.nanoTime() - deadline).as("backend %d still alive", pid).isNegative();
                Thread.sleep(20);
            }
        }
        try (Connection fresh = throughProxy()) {
            assertThat(selectOne(fresh)).isEqualTo(1);
        }
    }

    @Test
    void resetModeFailsTheQueryInFlightAndEveryNewConnectionAtOnce() throws Exception {
        try (Connection existing = throughProxy()) {
            assertThat(selectOne(existing)).isEqualTo(1);
            Thread resetter = new Thread(() -> {
                // The query sleeps 10 s on the server; half a second in, the proxy starts resetting. (Were this
                // thread early on a loaded machine, the query would meet the reset when sent: the same 08006.)
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
                proxy.reset();
            });
            resetter.start();
            long start = System.nanoTime();
            SQLException inFlight = catchThrowableOfType(SQLException.class,
                    () -> existing.createStatement().execute("SELECT pg_sleep(10)"));
            Duration took = since(start);
            resetter.join(DEADLINE_MILLIS);
            assertThat((Throwable) inFlight).as("the query in flight fails").isNotNull();
            assertThat(inFlight.getSQLState()).isEqualTo("08006");
            assertThat((Throwable) inFlight).hasRootCauseInstanceOf(SocketException.class);
            assertThat(took).as("long before the server's 10 s sleep ends").isLessThan(Duration.ofSeconds(8));
        }
        long start = System.nanoTime();
        SQLException connectFailure = catchThrowableOfType(SQLException.class, this::throughProxy);
        Duration took = since(start);
        assertThat(connectFailure.getSQLState()).isEqualTo("08001");
        assertThat((Throwable) connectFailure).hasRootCauseInstanceOf(SocketException.class);
        assertThat(took).isLessThan(FAILS_WITHIN);

        proxy.forward();
        try (Connection fresh = throughProxy()) {
            assertThat(selectOne(fresh)).isEqualTo(1);
        }
    }

    @Test
    void refuseFailsAConnectAtOnce() throws SQLException {
        proxy.refuse();
        long start = System.nanoTime();
        SQLException failure = catchThrowableOfType(SQLException.class, this::throughProxy);
        Duration took = since(start);
        assertThat((Throwable) failure).isNotNull();
        assertThat(failure.getSQLState()).isEqualTo("08001");
        assertThat((Throwable) failure).hasRootCauseInstanceOf(ConnectException.class);
        assertThat(took).isLessThan(FAILS_WITHIN);
        proxy.forward();
        try (Connection fresh = throughProxy()) {
            assertThat(selectOne(fresh)).isEqualTo(1);
        }
    }

    @Test
    void acceptButNeverAnswerFailsAConnectByTheDriversTimeout() throws SQLException {
        try (Connection existing = throughProxy()) {
            proxy.acceptButNeverAnswer();
            long start = System.nanoTime();
            SQLException failure = catchThrowableOfType(SQLException.class, this::throughProxy);
            Duration took = since(start);
            assertThat((Throwable) failure).isNotNull();
            assertThat(failure.getSQLState()).isEqualTo("08001");
            assertThat((Throwable) failure).hasRootCauseInstanceOf(SocketTimeoutException.class);
            assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(DRIVER_TIMEOUT_SECONDS).minusMillis(100))
                    .isLessThan(FAILS_WITHIN);
            assertThat(selectOne(existing)).isEqualTo(1);
        }
    }

    private Connection throughProxy() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + proxy.host() + ":" + proxy.port()
                + "/postgres?user=postgres&connectTimeout=" + DRIVER_TIMEOUT_SECONDS
                + "&socketTimeout=" + DRIVER_TIMEOUT_SECONDS);
    }

    private static Connection direct() throws SQLException {
        return DriverManager.getConnection(pg.getJdbcUrl("postgres", "postgres"));
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int backendPid(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static boolean backendExists(Connection direct, int pid) throws SQLException {
        try (PreparedStatement ps = direct.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 1;
            }
        }
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
