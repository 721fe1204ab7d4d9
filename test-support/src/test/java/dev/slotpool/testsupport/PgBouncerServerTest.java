package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PgBouncerServer} in front of an embedded PostgreSQL: queries pass through it with the default trust
 * logins and with md5 ones, a restart keeps the port, and the console URL carries a user's password only when it
 * has one. Skipped without {@code pgbouncer} unless {@value PgBouncerServer#REQUIRE_ENV}{@code =1}.
 */
class PgBouncerServerTest {

    private static EmbeddedPostgres pg;

    @BeforeAll
    static void startServer() throws IOException {
        PgBouncerServer.binary();
        pg = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    void trustLoginsPassQueriesAndARestartKeepsThePort() throws Exception {
        try (PgBouncerServer bouncer = PgBouncerServer.builder("trust", pg.getPort()).build().start()) {
            assertThat(selectOne(bouncer.url("postgres"), null)).isEqualTo(1);
            int port = bouncer.port();
            bouncer.restart();
            assertThat(bouncer.port()).isEqualTo(port);
            assertThat(bouncer.running()).isTrue();
            assertThat(selectOne(bouncer.url("postgres"), null)).isEqualTo(1);
            bouncer.stop();
            assertThat(bouncer.running()).isFalse();
        }
    }

    @Test
    void md5LoginsCheckTheUserlistsPassword() throws Exception {
        try (PgBouncerServer bouncer = PgBouncerServer.builder("md5", pg.getPort()).authType("md5")
                .user("postgres", "app-pw").setting("pool_mode", "session").build().start()) {
            assertThat(selectOne(bouncer.url("postgres"), "app-pw")).isEqualTo(1);
            assertThatThrownBy(() -> selectOne(bouncer.url("postgres"), "wrong")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
        }
    }

    @Test
    void theConsoleUrlCarriesAPasswordOnlyWhenTheUserHasOne() throws Exception {
        try (PgBouncerServer bouncer = PgBouncerServer.builder("urls", 5432).database("shop").authType("md5")
                .user("app", "").user("stats", "a&b=c d").statsUser("stats").settings(Map.of()).build()) {
            String host = "127.0.0.1:" + bouncer.port();
            assertThat(bouncer.url()).isEqualTo("jdbc:postgresql://" + host + "/shop");
            assertThat(bouncer.url("app")).isEqualTo("jdbc:postgresql://" + host + "/shop?user=app");
            assertThat(bouncer.adminUrl("app")).isEqualTo("postgresql://" + host + "/pgbouncer?user=app");
            assertThat(bouncer.adminUrl("stats"))
                    .isEqualTo("postgresql://" + host + "/pgbouncer?user=stats&password=a%26b%3Dc+d");
            assertThatThrownBy(() -> bouncer.adminUrl("nobody")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nobody");
        }
    }

    private static int selectOne(String url, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, null, password);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
