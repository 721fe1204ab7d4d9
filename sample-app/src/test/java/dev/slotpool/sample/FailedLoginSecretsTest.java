package dev.slotpool.sample;

import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.sample.Http.Response;
import dev.slotpool.sample.Http.User;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Secrets where logins fail, on a real PostgreSQL server that checks passwords (scram-sha-256): origin east has
 * the right password inside its URL only, west a wrong password as a property, north a wrong password inside its
 * URL. West and north go DOWN; every output of the app (the endpoint, health, metrics, Prometheus, Boot's env and
 * configprops endpoints, the console and its stream, a borrow's exception, the log from startup on) is searched
 * for the three passwords and must not hold any, while it does tell why the logins failed.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=false",
        "logging.level.dev.slotpool=DEBUG",
        "slotpool.borrow-timeout=2s",
        "management.endpoints.web.exposure.include=health,metrics,prometheus,pool,env,configprops"})
@DirtiesContext
class FailedLoginSecretsTest {

    static final String RIGHT = "Right-pw-3Kd8";
    static final String WRONG_PROPERTY = "Wrong-pw-prop-5Hq1";
    static final String WRONG_IN_URL = "Wrong-pw-url-9Lm4";
    static final List<String> SECRETS = List.of(RIGHT, WRONG_PROPERTY, WRONG_IN_URL);

    /** What PostgreSQL answers a wrong password with: the outputs must say it, without the password. */
    static final String REFUSAL = "password authentication failed for user";

    @RegisterExtension
    static final PostgresServers SERVER = new PostgresServers(List.of("db"), RIGHT);

    @DynamicPropertySource
    static void origins(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.username", () -> PostgresServers.ROLE);
        registry.add("spring.datasource.password", () -> "");
        registry.add("slotpool.origins[0].name", () -> "east");
        registry.add("slotpool.origins[0].url", () -> SERVER.url("db") + "?password=" + RIGHT);
        registry.add("slotpool.origins[1].name", () -> "west");
        registry.add("slotpool.origins[1].url", () -> SERVER.url("db"));
        registry.add("slotpool.origins[1].password", () -> WRONG_PROPERTY);
        registry.add("slotpool.origins[2].name", () -> "north");
        registry.add("slotpool.origins[2].url", () -> SERVER.url("db") + "?password=" + WRONG_IN_URL);
    }

    @LocalServerPort
    private int port;

    @Autowired
    private SlotPoolDataSource pool;

    private Http http;

    @BeforeEach
    void westAndNorthAreDown() {
        http = new Http(port);
        await().atMost(SampleApp.PATIENCE).untilAsserted(() -> {
            assertThat(pool.snapshot().origin("west").orElseThrow().state()).isEqualTo(OriginState.DOWN);
            assertThat(pool.snapshot().origin("north").orElseThrow().state()).isEqualTo(OriginState.DOWN);
        });
        assertThat(pool.snapshot().origin("east").orElseThrow().state()).isEqualTo(OriginState.UP);
    }

    @Test
    void noOutputShowsAPasswordButTheyTellWhyLoginsFailed() {
        List<Response> responses = new ArrayList<>();
        for (String path : List.of("/actuator/pool", "/actuator/pool/east", "/actuator/pool/west",
                "/actuator/pool/north", "/actuator/health", "/actuator/health/slotpool", "/actuator/metrics",
                "/actuator/metrics/slotpool.connections.creation.failures", "/actuator/prometheus", "/actuator/env",
                "/actuator/env/spring.datasource.password", "/actuator/env/slotpool.origins%5B1%5D.password",
                "/actuator/configprops", "/actuator/configprops/slotpool")) {
            Response r = http.get(path, User.ADMIN);
            assertThat(r.status()).as("GET %s: %s", path, r).isEqualTo(200);
            responses.add(r);
        }
        Http.Session admin = http.login(User.ADMIN);
        responses.add(admin.get("/slotpool"));
        responses.add(admin.get("/slotpool/snapshot"));
        responses.add(admin.firstEvent("/slotpool/stream"));
        for (Response r : responses) {
            assertThat(r.body()).doesNotContain(SECRETS);
            assertThat(r.headers().toString()).doesNotContain(SECRETS);
        }

        String pool = responses.get(0).body();
        assertThat(pool).as("why west and north are down").contains(REFUSAL)
                .contains("?password=***").contains("consecutive connection failures");
        assertThat(responses.get(8).body()).as("the failures are counted")
                .containsPattern("slotpool_connections_creation_failures_total\\{origin=\"west\",pool=\"shop\"} [1-9]");
        assertThat(responses.get(10).body()).as("Boot masks the value of every property by default")
                .contains("\"value\":\"******\"");
    }

    /** A borrow that times out while no origin is UP: its exception names the last failure, not a password. */
    @Test
    void aFailedBorrowsExceptionHoldsNoPassword() {
        pool.markDown("east");
        try {
            assertThatThrownBy(() -> {
                try (Connection c = pool.getConnection()) {
                    assertThat(c).as("no connection while every origin is down").isNull();
                }
            }).isInstanceOf(SQLException.class).satisfies(e -> assertThat(stackTrace(e)).doesNotContain(SECRETS));
        } finally {
            pool.markUp("east");
        }
    }

    @AfterAll
    static void theLogSaysWhyButShowsNoPassword(CapturedOutput output) {
        assertThat(output.getAll()).as("the capture holds the startup").contains("Started ");
        assertThat(output.getAll()).as("the log tells why west and north fail").contains(REFUSAL);
        assertThat(output.getAll()).as("the log").doesNotContain(SECRETS);
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
