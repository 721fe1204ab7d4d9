package dev.slotpool.autoconfigure;

import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Boot app on the starter starts as it does on HikariCP whether its database is slow or down
 * (docs/configuration.md, "Starting when the database is slow or down"): real SpringApplication starts with
 * every auto-configuration on the class path, Actuator's health included.
 */
class StartWithoutTheDatabaseTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    /** Called by H2 in the connection's INIT: every connect to the database takes this long. */
    public static final class SlowConnect {
        private SlowConnect() {
        }

        public static void pause(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    }

    private static ConfigurableApplicationContext start(String... args) {
        SpringApplication app = new SpringApplication(App.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        return app.run(args);
    }

    /** A cold database or a busy CI machine: each connect takes 5 s. The app starts, then serves its first query. */
    @Test
    void anAppWhoseFirstConnectTakesFiveSecondsStartsAndServes() {
        String url = "jdbc:h2:mem:start-slow;DB_CLOSE_DELAY=-1;INIT=CREATE ALIAS IF NOT EXISTS SLOW_CONNECT FOR '"
                + SlowConnect.class.getName() + ".pause'\\;CALL SLOW_CONNECT(5000)";
        try (ConfigurableApplicationContext ctx = start("--spring.datasource.url=" + url,
                "--spring.datasource.username=sa", "--slotpool.name=slow-start")) {
            JdbcTemplate jdbc = new JdbcTemplate(ctx.getBean(DataSource.class));
            assertThat(jdbc.queryForObject("SELECT 1", Integer.class)).as("the first query, after the slow connect")
                    .isEqualTo(1);
            assertThat(ctx.getBean(SlotPoolDataSource.class).snapshot().origin("default").orElseThrow()
                    .consecutiveFailures()).as("the slow first connect counted as no failure").isZero();
        }
    }

    /**
     * The database refuses connections (a closed port): the app starts and {@code /actuator/health} answers 503.
     * The {@code slotpool} contributor reads a snapshot and answers at once; Boot's {@code db} contributor borrows,
     * and once the origin is DOWN that borrow fails at once (HealthWithTheDatabaseDownTest times it at the default
     * borrow timeout).
     */
    @Test
    void anAppWhoseDatabaseIsDownStartsAndItsHealthAnswers503() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (ConfigurableApplicationContext ctx = start(
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + closedPort + "/app",
                "--spring.datasource.username=app", "--spring.datasource.password=down-secret",
                "--slotpool.name=down-start", "--slotpool.borrow-timeout=3s",
                "--management.endpoint.health.show-components=always")) {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (pool.snapshot().origin("default").orElseThrow().state() != OriginState.DOWN) {
                assertThat(System.nanoTime() - deadline).as("the refused connects mark the origin DOWN")
                        .isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            HealthEndpoint health = ctx.getBean(HealthEndpoint.class);
            long t0 = System.nanoTime();
            HealthDescriptor slotpool = health.healthForPath("slotpool");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("the slotpool contributor answers "
                    + "from a snapshot").isLessThan(2_000);
            assertThat(slotpool.getStatus()).isEqualTo(Status.DOWN);
            HealthDescriptor all = health.health();
            assertThat(all.getStatus()).isEqualTo(Status.DOWN);
            assertThat(ctx.getBean(HttpCodeStatusMapper.class).getStatusCode(all.getStatus())).isEqualTo(503);
        }
    }
}
