package dev.slotpool.sample;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's {@code env} and {@code configprops} over real HTTP, with {@code show-values=always}, in a plain Boot app
 * ({@link PlainBootApp}) whose secrets come in every spelling: a password inside the pooler's admin URL (a
 * property), and two passwords as environment variables ({@code SLOTPOOL_ORACLE_FAN_WALLETPASSWORD},
 * {@code SLOTPOOL_CONNECTIONPROPERTIES_SSLPASSWORD}). None of them is shown; the values around them are.
 * ({@code spring.datasource.*} is Boot's own: {@code show-values=always} shows it as Boot documents.)
 */
class PlainBootSecretsTest {

    private static final String POOLER_PASSWORD = "Pooler-pw-5Jk";
    private static final String WALLET_PASSWORD = "Wallet-env-pw-6Lm";
    private static final String SSL_PASSWORD = "Ssl-env-pw-8Np";
    private static final List<String> SECRETS = List.of(POOLER_PASSWORD, WALLET_PASSWORD, SSL_PASSWORD);

    private static PlainBootApp app;

    @BeforeAll
    static void start() {
        // Named as Boot names the OS's environment, so it binds SLOTPOOL_... as the OS's variables would.
        app = PlainBootApp.startWithEnvironment("plain-secrets", new SystemEnvironmentPropertySource(
                        "planted-systemEnvironment", Map.of("SLOTPOOL_ORACLE_FAN_WALLETPASSWORD", WALLET_PASSWORD,
                                "SLOTPOOL_CONNECTIONPROPERTIES_SSLPASSWORD", SSL_PASSWORD)),
                "slotpool.origins[0].pooler-admin-url=postgresql://127.0.0.1:1/pgbouncer?user=stats&password="
                        + POOLER_PASSWORD);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void envShowsNoSecretInAnySpelling() {
        RawHttp.Response env = app.http().get("/actuator/env", app.http().loopback(), Map.of());
        assertThat(env.status()).isEqualTo(200);
        assertThat(env.body()).contains("SLOTPOOL_ORACLE_FAN_WALLETPASSWORD", "pooler-admin-url", "user=stats",
                "plain-secrets").doesNotContain(SECRETS);
    }

    @Test
    void configpropsShowsNoSecretInAnySpelling() {
        RawHttp.Response props = app.http().get("/actuator/configprops", app.http().loopback(), Map.of());
        assertThat(props.status()).isEqualTo(200);
        assertThat(props.body()).contains("poolerAdminUrl", "user=stats", "walletPassword")
                .doesNotContain(SECRETS);
    }
}
