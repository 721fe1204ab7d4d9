package dev.slotpool.sample;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.sample.Http.User;
import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.shop.ShopService;
import org.springframework.context.ConfigurableApplicationContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running sample app as the shared checks see it ({@code *Checks} interfaces, run against H2 by
 * {@link H2SampleAppTest} and against PostgreSQL by {@link PostgresSampleAppTest}): HTTP to it, its beans, and
 * the database servers behind its three origins.
 */
interface SampleApp {

    /** The databases' password in every test run; no response or log line may contain it. */
    String DB_PASSWORD = "Pw-9f3kQz-never-shown";

    List<String> ORIGINS = List.of("east", "west", "north");

    /** The weights of application.yml. */
    Map<String, Integer> CONFIGURED_WEIGHTS = Map.of("east", 50, "west", 30, "north", 20);

    /** Deadline of every poll for an asynchronous effect: generous for a loaded 2-core machine. */
    Duration PATIENCE = Duration.ofSeconds(30);

    Http http();

    SlotPoolDataSource pool();

    LoadGenerator load();

    ShopService shop();

    ConfigurableApplicationContext context();

    /** Connections to the origin's database that the server sees, the caller's own excluded. */
    int serverConnections(String origin) throws SQLException;

    /** A connection to the origin's database that bypasses the pool, with the given password. */
    Connection connectDirectly(String origin, String password) throws SQLException;

    /** {@code GET /actuator/pool} as the viewer. */
    default PoolState poolState() {
        Http.Response r = http().get("/actuator/pool", User.VIEWER);
        assertThat(r.status()).as("GET /actuator/pool: %s", r).isEqualTo(200);
        return PoolState.of(r.body());
    }
}
