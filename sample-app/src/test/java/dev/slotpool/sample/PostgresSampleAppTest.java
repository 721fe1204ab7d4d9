package dev.slotpool.sample;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The shared checks against three real PostgreSQL servers (embedded, {@link PostgresServers}) as the origins in
 * place of the H2 databases: the schema is created on each server before the app starts, and the app connects
 * as role {@code shop} with {@link SampleApp#DB_PASSWORD}.
 */
class PostgresSampleAppTest extends SampleAppTestBase {

    @RegisterExtension
    static final PostgresServers SERVERS = new PostgresServers(ORIGINS, DB_PASSWORD);

    /** The whole origins list: Boot replaces a list bound from a higher source, it does not merge items. */
    @DynamicPropertySource
    static void origins(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.username", () -> PostgresServers.ROLE);
        registry.add("spring.datasource.password", () -> DB_PASSWORD);
        for (int i = 0; i < ORIGINS.size(); i++) {
            String origin = ORIGINS.get(i);
            String prefix = "slotpool.origins[" + i + "].";
            registry.add(prefix + "name", () -> origin);
            registry.add(prefix + "url", () -> SERVERS.url(origin));
            registry.add(prefix + "instance", () -> "pg-" + origin);
            registry.add(prefix + "host", () -> "localhost:" + SERVERS.port(origin));
            registry.add(prefix + "weight", () -> CONFIGURED_WEIGHTS.get(origin));
        }
    }

    @Override
    public int serverConnections(String origin) throws SQLException {
        return SERVERS.connections(origin);
    }

    @Override
    public Connection connectDirectly(String origin, String password) throws SQLException {
        return DriverManager.getConnection(SERVERS.url(origin), PostgresServers.ROLE, password);
    }
}
