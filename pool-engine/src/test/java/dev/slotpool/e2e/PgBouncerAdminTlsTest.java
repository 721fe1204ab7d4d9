package dev.slotpool.e2e;

import dev.slotpool.PoolerView;
import dev.slotpool.pooler.PgBouncerAdmin;
import dev.slotpool.testsupport.PgBouncerServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The pooler admin URL's {@code sslmode} against a real PgBouncer (docs/poolers.md, "The pooler's view in the
 * snapshot"): a PgBouncer without TLS answers the SSLRequest with no, and the client refuses it; one serving TLS
 * with a self-signed certificate (made by {@code openssl} in the test) agrees, and the handshake that follows
 * checks the certificate against the JVM's default trust store, which does not hold it. No backend server is
 * needed: the console is PgBouncer's own.
 */
class PgBouncerAdminTlsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** A port nothing listens on: the console never reaches the backend. */
    private static final int NO_BACKEND = 1;

    @Test
    void aPgBouncerWithoutTlsIsRefusedUnderSslmodeRequireAndReadInPlainText() throws Exception {
        PgBouncerServer.binary();
        try (PgBouncerServer bouncer = PgBouncerServer.builder("tls-off", NO_BACKEND).adminUser("postgres").build()
                .start()) {
            Throwable refused = catchThrowable(() -> PgBouncerAdmin.at(bouncer.adminUrl("postgres")
                    + "&sslmode=require").showPools("postgres", TIMEOUT));
            assertThat(refused).isInstanceOf(SQLException.class).hasMessageContaining("offers no TLS");

            PoolerView plain = PgBouncerAdmin.at(bouncer.adminUrl("postgres") + "&sslmode=disable")
                    .showPools("postgres", TIMEOUT);
            assertThat(plain).isNotNull();
        }
    }

    @Test
    void aPgBouncerServingTlsAgreesAndItsUntrustedCertificateFailsTheHandshake() throws Exception {
        PgBouncerServer.binary();
        Path dir = Files.createTempDirectory("slotpool-pgbouncer-tls");
        try {
            Path key = dir.resolve("server.key");
            Path cert = dir.resolve("server.crt");
            Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", key.toString(), "-out", cert.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("openssl made the certificate").isZero();
            // PgBouncer may run as another user (postgres, when the tests run as root): it must read both.
            for (Path f : new Path[] {dir, key, cert}) {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(
                        Files.isDirectory(f) ? "rwxr-xr-x" : "rw-r--r--"));
            }
            try (PgBouncerServer bouncer = PgBouncerServer.builder("tls-on", NO_BACKEND).adminUser("postgres")
                    .setting("client_tls_sslmode", "allow").setting("client_tls_key_file", key.toString())
                    .setting("client_tls_cert_file", cert.toString()).build().start()) {
                Throwable failed = catchThrowable(() -> PgBouncerAdmin.at(bouncer.adminUrl("postgres")
                        + "&sslmode=verify-full").showPools("postgres", TIMEOUT));
                assertThat(failed).as("a TLS handshake began and the certificate was not trusted")
                        .isInstanceOf(SSLHandshakeException.class);

                Throwable require = catchThrowable(() -> PgBouncerAdmin.at(bouncer.adminUrl("postgres")
                        + "&sslmode=require").showPools("postgres", TIMEOUT));
                assertThat(require).as("require checks the chain too").isInstanceOf(SSLHandshakeException.class);
                System.out.printf("POOLER TLS: PgBouncer with a self-signed certificate, sslmode=verify-full: %s%n",
                        failed);
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // a temporary directory left behind
            }
        }
    }
}
