package dev.slotpool.pooler;

import dev.slotpool.PoolerView;
import dev.slotpool.testsupport.OwnThread;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.slotpool.pooler.ScriptedConsole.authentication;
import static dev.slotpool.pooler.ScriptedConsole.message;
import static dev.slotpool.pooler.ScriptedConsole.ready;
import static dev.slotpool.pooler.ScriptedConsole.showPools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The admin console client trusts nothing a server sends (docs/poolers.md, "The pooler's view in the snapshot"):
 * no cleartext password unless the URL allows it, no allocation for a length the server announces beyond the caps,
 * no command that outlasts its timeout however the server trickles its answer.
 */
class PgBouncerAdminDistrustTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aConsoleAskingForTheCleartextPasswordIsRefusedAndGetsNoPassword() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            authentication(out, 3);
            message(in); // whatever the client answers
        })) {
            Throwable refused = catchThrowable(() -> PgBouncerAdmin.at(console.url("")).showPools("app", TIMEOUT));

            assertThat(refused).isInstanceOf(SQLException.class).hasMessageContaining("cleartext")
                    .hasMessageContaining("allowCleartextPassword=true")
                    .hasMessageNotContaining(ScriptedConsole.PASSWORD);
            assertThat(console.received()).doesNotContain(ScriptedConsole.PASSWORD);
        }
    }

    @Test
    void sslmodeRequireAsksForTlsAndRefusesAConsoleThatOffersNone() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            out.writeByte('N');
            out.flush();
            authentication(out, 3); // a console that goes on in plain text, asking for the password
            message(in);
        })) {
            Throwable refused = catchThrowable(() -> PgBouncerAdmin.at(console.url("&sslmode=require"))
                    .showPools("app", TIMEOUT));

            assertThat(console.firstCode()).as("PostgreSQL's SSLRequest first").isEqualTo(80877103);
            assertThat(refused).isInstanceOf(SQLException.class).hasMessageContaining("offers no TLS")
                    .hasMessageContaining("sslmode=require").hasMessageNotContaining(ScriptedConsole.PASSWORD);
            assertThat(console.received()).as("nothing after the refusal").isEmpty();
        }
    }

    @Test
    void sslmodeVerifyFullStartsATlsHandshakeOnceTheConsoleAgreesAndSendsNothingInPlainText() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            out.writeByte('S');
            out.flush();
            in.readUnsignedByte(); // the client's first TLS record; the console has no certificate and hangs up
        })) {
            Throwable failed = catchThrowable(() -> PgBouncerAdmin.at(console.url("&sslmode=verify-full"))
                    .showPools("app", TIMEOUT));

            assertThat(console.firstCode()).isEqualTo(80877103);
            assertThat(console.received()).as("a TLS handshake record (type 22) follows the console's 'S'")
                    .startsWith("\u0016");
            assertThat(failed).as("no TLS session with a console without a certificate")
                    .isInstanceOf(IOException.class);
            assertThat(console.received()).doesNotContain(ScriptedConsole.PASSWORD).doesNotContain("stats");
        }
    }

    @Test
    void sslmodeDisableSendsTheStartupInPlainText() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            ScriptedConsole.trusted(out);
            showPools(in, out, "app", 3);
            message(in); // Terminate
        })) {
            PoolerView view = PgBouncerAdmin.at(console.url("&sslmode=disable")).showPools("app", TIMEOUT);

            assertThat(view.clientsActive()).isEqualTo(3);
            assertThat(console.firstCode()).as("protocol 3.0").isEqualTo(196608);
        }
    }

    @Test
    void anSslmodeOtherThanDisableRequireOrVerifyFullIsRefused() {
        assertThatThrownBy(() -> PgBouncerAdmin.at("postgresql://127.0.0.1:6432/pgbouncer?user=stats&sslmode=prefer"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sslmode must be disable, require or verify-full");
    }

    @Test
    void theUrlMayAllowTheCleartextPassword() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            authentication(out, 3);
            message(in);
            ScriptedConsole.trusted(out);
            showPools(in, out, "app", 7);
            message(in); // Terminate
        })) {
            PoolerView view = PgBouncerAdmin.at(console.url("&allowCleartextPassword=true")).showPools("app", TIMEOUT);

            assertThat(view.clientsActive()).isEqualTo(7);
            assertThat(console.received()).contains(ScriptedConsole.PASSWORD);
        }
    }

    @Test
    void anMd5LoginSendsTheSaltedHashNotThePassword() throws Exception {
        byte[] salt = {1, 2, 3, 4};
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            ScriptedConsole.frame(out, 'R', new byte[] {0, 0, 0, 5, salt[0], salt[1], salt[2], salt[3]});
            message(in);
            ScriptedConsole.trusted(out);
            showPools(in, out, "app", 2);
            message(in); // Terminate
        })) {
            PoolerView view = PgBouncerAdmin.at(console.url("")).showPools("app", TIMEOUT);

            assertThat(view.clientsActive()).isEqualTo(2);
            String inner = md5Hex((ScriptedConsole.PASSWORD + "stats").getBytes(StandardCharsets.UTF_8));
            byte[] outer = java.util.Arrays.copyOf(inner.getBytes(StandardCharsets.UTF_8), 36);
            System.arraycopy(salt, 0, outer, 32, 4);
            assertThat(console.received()).contains("md5" + md5Hex(outer))
                    .doesNotContain(ScriptedConsole.PASSWORD);
        }
    }

    private static String md5Hex(byte[] data) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }

    @Test
    void allowCleartextPasswordIsTrueOrFalse() {
        assertThatThrownBy(() -> PgBouncerAdmin.at("postgresql://h/pgbouncer?user=u&allowCleartextPassword=yes"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowCleartextPassword");
    }

    @Test
    void aMessageAnnouncingTwoGigabytesIsRefusedBeforeAnythingIsAllocated() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            out.writeByte('R');
            out.writeInt(0x7FFF_FFF0);
            out.flush();
            TimeUnit.SECONDS.sleep(5);
        })) {
            Throwable refused = catchThrowable(() -> PgBouncerAdmin.at(console.url("")).showPools("app", TIMEOUT));

            assertThat(refused).isInstanceOf(SQLException.class).hasMessageContaining("announced a message of");
        }
    }

    @Test
    void aRowFieldLongerThanItsMessageIsMalformed() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            ScriptedConsole.trusted(out);
            message(in);
            ScriptedConsole.frame(out, 'D', new byte[] {0, 1, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0});
            ready(out);
        })) {
            Throwable refused = catchThrowable(() -> PgBouncerAdmin.at(console.url("")).showPools("app", TIMEOUT));

            assertThat(refused).isInstanceOf(SQLException.class).hasMessageContaining("malformed row");
        }
    }

    @Test
    void aConsoleTricklingItsAnswerIsGivenUpAtTheCommandsTimeout() throws Exception {
        try (ScriptedConsole console = new ScriptedConsole((in, out) -> {
            ScriptedConsole.trusted(out);
            message(in);
            out.writeByte('N'); // a NoticeResponse of 600 bytes, one at a time, each well within a read's wait
            out.writeInt(604);
            for (int i = 0; i < 600; i++) {
                out.writeByte('x');
                out.flush();
                TimeUnit.MILLISECONDS.sleep(100);
            }
        })) {
            CompletableFuture<Throwable> run = OwnThread.supply(
                    () -> catchThrowable(() -> PgBouncerAdmin.at(console.url("")).showPools("app", TIMEOUT)));

            Throwable ended = run.get(40, TimeUnit.SECONDS); // the trickle lasts 60 s
            assertThat(ended).isInstanceOf(IOException.class).hasMessageContaining("did not answer in time");
        }
    }
}
