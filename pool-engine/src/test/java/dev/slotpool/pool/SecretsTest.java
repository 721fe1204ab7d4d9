package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.kernel.Secrets;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A driver's error that echoes what the pool gave it keeps none of the secrets in its sanitized copy. */
class SecretsTest {

    @Test
    void everySecretTheOriginWasGivenIsRedactedFromADriversError() {
        OriginConfig origin = OriginConfig.named("east")
                .url("jdbc:postgresql://db1/shop?password1=url-secret")
                .username("app").password("pool-pw")
                .connectionProperties(Map.of("sslpassword", "ssl-pw", "javax.net.ssl.keyStorePassword", "keystore-pw",
                        "oracle.net.wallet_password", "wallet-pw", "ApplicationName", "shop"));
        SQLException driver = new SQLException("could not load key: ssl-pw, keystore-pw, wallet-pw, url-secret, "
                + "pool-pw for application shop", "08001", 0, new IllegalStateException("cause keystore-pw"));

        SQLException sanitized = Secrets.sanitize(driver, origin, "could not connect");

        String all = sanitized.getMessage() + " | " + sanitized.getCause().getMessage();
        assertThat(all).doesNotContain("ssl-pw", "keystore-pw", "wallet-pw", "url-secret", "pool-pw")
                .contains("application shop");
    }
}
