package dev.slotpool.autoconfigure.health;

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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Boot app on the starter whose database is down, with the default 30 s borrow timeout: once the failure
 * detector has marked the origin DOWN, {@code /actuator/health} answers 503 at once, Boot's {@code db}
 * contributor included (it borrows, and the borrow fails at once: docs/architecture.md, "Borrow", step 4). The
 * 10 s bound is a third of the borrow timeout, to tell a fast failure from a wait on a loaded machine; the times
 * measured are printed.
 */
class HealthWithTheDatabaseDownTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    @Test
    void healthAnswers503AtOnceWithTheDefaultBorrowTimeout() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        SpringApplication app = new SpringApplication(App.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        try (ConfigurableApplicationContext ctx = app.run(
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + closedPort + "/app",
                "--spring.datasource.username=app", "--spring.datasource.password=down-secret",
                "--slotpool.name=health-down", "--management.endpoint.health.show-components=always",
                "--management.endpoint.health.show-details=always")) {
            SlotPoolDataSource pool = ctx.getBean(SlotPoolDataSource.class);
            assertThat(pool.config().borrowTimeout()).as("the default borrow timeout").isEqualTo(Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (pool.snapshot().origin("default").orElseThrow().state() != OriginState.DOWN) {
                assertThat(System.nanoTime() - deadline).as("the refused connects mark the origin DOWN")
                        .isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            HealthEndpoint health = ctx.getBean(HealthEndpoint.class);
            for (int call = 1; call <= 3; call++) {
                long t0 = System.nanoTime();
                HealthDescriptor db = health.healthForPath("db");
                long dbMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                t0 = System.nanoTime();
                HealthDescriptor all = health.health();
                long allMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                System.out.println("health with the database down, call " + call + ": db " + dbMillis
                        + " ms, /actuator/health " + allMillis + " ms");
                assertThat(db.getStatus()).isEqualTo(Status.DOWN);
                assertThat(all.getStatus()).isEqualTo(Status.DOWN);
                assertThat(ctx.getBean(HttpCodeStatusMapper.class).getStatusCode(all.getStatus())).isEqualTo(503);
                assertThat(dbMillis).as("the db contributor's borrow failed at once").isLessThan(10_000);
                assertThat(allMillis).as("the whole health answered at once").isLessThan(10_000);
            }
        }
    }
}
