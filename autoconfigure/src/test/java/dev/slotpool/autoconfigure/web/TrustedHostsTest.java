package dev.slotpool.autoconfigure.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which Host and Origin pairs may act without Spring Security ({@code admin.example.internal} allowed). */
class TrustedHostsTest {

    private final TrustedHosts hosts = new TrustedHosts(List.of(" Admin.Example.Internal "));

    /** Host | Origin (blank: none sent) | accepted. */
    @ParameterizedTest(name = "Host {0}, Origin {1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "localhost:8080 | http://localhost:8080 | true",
        "localhost:8080 | - | true",
        "LOCALHOST:8080 | http://localhost:8080 | true",
        "app.localhost:8080 | http://app.localhost:8080 | true",
        "127.0.0.1:8080 | http://127.0.0.1:8080 | true",
        "127.1.2.3 | http://127.1.2.3 | true",
        "[::1]:8080 | http://[::1]:8080 | true",
        "admin.example.internal | https://admin.example.internal | true",
        "admin.example.internal:443 | https://admin.example.internal | true",
        "admin.example.internal:8443 | https://admin.example.internal:8443 | true",
        "rebind.attacker.example:8080 | http://rebind.attacker.example:8080 | false",
        "rebind.attacker.example:8080 | - | false",
        "127.0.0.1.attacker.example | - | false",
        "localhost.attacker.example:8080 | - | false",
        "10.0.0.5:8080 | http://10.0.0.5:8080 | false",
        "- | - | false",
        "localhost:8080 | http://rebind.attacker.example:8080 | false",
        "localhost:8080 | http://localhost:9090 | false",
        "localhost:8080 | null | false",
        "localhost:8080 | file:///etc/passwd | false",
        "admin.example.internal | http://admin.example.internal:8080 | false",
    })
    void onlyATrustedHostWithItsOwnOriginActs(String host, String origin, boolean accepted) {
        String refusal = hosts.refusal(host, origin);
        if (accepted) {
            assertThat(refusal).isNull();
        } else {
            assertThat(refusal).startsWith("pool action refused:");
        }
    }
}
