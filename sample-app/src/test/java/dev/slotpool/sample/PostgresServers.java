package dev.slotpool.sample;

import dev.slotpool.testsupport.OwnThread;
import dev.slotpool.testsupport.PostgresPasswords;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * One embedded PostgreSQL server per origin, started in parallel before the test class and stopped after it (an
 * extension, so after the class's own {@code @AfterAll}, which checks the servers once the app has closed).
 * Each server gets a role {@value #ROLE} with the given password, a database {@value #DATABASE} owned by it with
 * the tables of {@code db/schema-postgresql.sql}, and a pg_hba.conf under which that role must authenticate
 * with scram-sha-256 (initdb's trusts everyone), so the password really travels; the superuser
 * {@code postgres} stays trusted for the test's observer connections.
 */
final class PostgresServers implements BeforeAllCallback, AfterAllCallback {

    static final String ROLE = "shop";
    static final String DATABASE = "shop";

    private final List<String> names;
    private final String password;
    private final Map<String, EmbeddedPostgres> servers = new LinkedHashMap<>();

    PostgresServers(List<String> names, String password) {
        this.names = names;
        this.password = password;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        List<CompletableFuture<EmbeddedPostgres>> starting = names.stream()
                .map(n -> OwnThread.supply(this::start)).toList();
        for (int i = 0; i < names.size(); i++) {
            servers.put(names.get(i), starting.get(i).get());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        for (EmbeddedPostgres pg : servers.values()) {
            pg.close();
        }
        servers.clear();
    }

    int port(String name) {
        return server(name).getPort();
    }

    String url(String name) {
        return url(server(name));
    }

    /** Backends of {@value #ROLE} connected to {@value #DATABASE} on that server (the observer is postgres). */
    int connections(String name) throws SQLException {
        try (Connection c = superuser(server(name));
             PreparedStatement ps = c.prepareStatement(
                     "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = ? AND datname = ?")) {
            ps.setString(1, ROLE);
            ps.setString(2, DATABASE);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private EmbeddedPostgres server(String name) {
        EmbeddedPostgres pg = servers.get(name);
        if (pg == null) {
            throw new IllegalStateException("no server " + name + " (started: " + servers.keySet() + ")");
        }
        return pg;
    }

    private EmbeddedPostgres start() {
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
            try (Connection c = superuser(pg); Statement st = c.createStatement()) {
                st.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
                st.execute("CREATE DATABASE " + DATABASE + " OWNER " + ROLE);
            }
            try (Connection c = DriverManager.getConnection(url(pg), ROLE, password)) {
                ScriptUtils.executeSqlScript(c, new ClassPathResource("db/schema-postgresql.sql"));
            }
            requirePasswords(pg);
            return pg;
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("starting an embedded PostgreSQL server", e);
        }
    }

    private void requirePasswords(EmbeddedPostgres pg) throws SQLException, IOException {
        try (Connection c = superuser(pg)) {
            PostgresPasswords.require(c);
        }
        // The reload is asynchronous: wait until a wrong password is refused.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThatThrownBy(
                () -> DriverManager.getConnection(url(pg), ROLE, "not-" + password).close())
                .isInstanceOf(SQLException.class));
    }

    private static Connection superuser(EmbeddedPostgres pg) throws SQLException {
        return DriverManager.getConnection(pg.getJdbcUrl("postgres", "postgres"));
    }

    private static String url(EmbeddedPostgres pg) {
        return "jdbc:postgresql://localhost:" + pg.getPort() + "/" + DATABASE;
    }
}
