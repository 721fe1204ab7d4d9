package dev.slotpool.sample;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console and the pool endpoint of a plain Boot app without Spring Security ({@link PlainBootApp}), attacked
 * over real HTTP as docs/console.md's security table lists: a page on a rebound DNS name, another site's origin,
 * readers that stop reading, one IPv6 network posing as many clients, a weight sum beyond the cap.
 */
class PlainBootConsoleTest {

    /** The name a DNS-rebinding page is served from: it resolves to this machine once the page has loaded. */
    static final String REBOUND = "rebind.attacker.example";
    /** A name the app is told to trust ({@code slotpool.allowed-hosts}). */
    static final String ALLOWED = "admin.example.internal";

    private static PlainBootApp app;
    private static RawHttp http;

    @BeforeAll
    static void start() {
        app = PlainBootApp.start("plain-console", "slotpool.allowed-hosts=" + ALLOWED);
        http = app.http();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void everyOriginUp() {
        SlotPoolDataSource pool = app.pool();
        for (OriginSnapshot o : pool.snapshot().origins()) {
            if (o.state() != OriginState.UP) {
                pool.markUp(o.name());
            }
        }
        pool.rebalanceToConfigured();
    }

    /** The console's page as a browser at {@code host} gets it, then its cookie and token on a POST from that host. */
    private static RawHttp.Response consoleAction(String host, String origin, String path, String form) {
        RawHttp.Response page = http.get("/slotpool", host, Map.of());
        assertThat(page.status()).as("the page at %s: %s", host, page).isEqualTo(200);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Cookie", page.consoleCookie().orElseThrow(() -> new AssertionError("no console cookie: " + page)));
        headers.put("X-Slotpool-Console-Token", page.consoleToken().orElseThrow(() -> new AssertionError(
                "no console token: " + page)));
        headers.put("Origin", origin);
        headers.put("Content-Type", "application/x-www-form-urlencoded");
        return http.send("POST", path, host, headers, form);
    }

    private static String state(String origin) {
        return app.pool().snapshot().origin(origin).orElseThrow().state().name();
    }

    /**
     * A rebinding page is same-origin with the console once its name points here: it reads the page (cookie and
     * token) and posts with its own Host and Origin. Refused, naming the Host; east stays UP.
     */
    @Test
    void aReboundNameCannotActAtTheConsole() {
        String host = REBOUND + ":" + http.port();
        RawHttp.Response drain = consoleAction(host, "http://" + host, "/slotpool/origins/east/drain", "timeout=5s");
        assertThat(drain.status()).as("drain through a rebound name: %s", drain).isEqualTo(403);
        assertThat(drain.body()).contains("Host", REBOUND, "slotpool.allowed-hosts");
        assertThat(state("east")).isEqualTo("UP");
    }

    /** The same page posting JSON to the pool endpoint: refused; west stays UP. */
    @Test
    void aReboundNameCannotActAtTheEndpoint() {
        String host = REBOUND + ":" + http.port();
        RawHttp.Response down = http.send("POST", "/actuator/pool/west", host, Map.of("Origin", "http://" + host,
                "Content-Type", "application/json"), "{\"action\":\"down\"}");
        assertThat(down.status()).as("down through a rebound name: %s", down).isEqualTo(403);
        assertThat(down.body()).contains(REBOUND, "slotpool.allowed-hosts");
        assertThat(state("west")).isEqualTo("UP");
    }

    /** A loopback Host with another site's Origin: refused at both doors. */
    @Test
    void anOriginThatIsNotTheHostCannotAct() {
        String host = http.loopback();
        RawHttp.Response drain = consoleAction(host, "http://" + REBOUND + ":" + http.port(),
                "/slotpool/origins/east/drain", "timeout=5s");
        assertThat(drain.status()).as("console: %s", drain).isEqualTo(403);
        assertThat(drain.body()).contains("Origin");
        RawHttp.Response down = http.send("POST", "/actuator/pool/west", host, Map.of("Origin", "null",
                "Content-Type", "application/json"), "{\"action\":\"down\"}");
        assertThat(down.status()).as("endpoint: %s", down).isEqualTo(403);
        assertThat(state("east")).isEqualTo("UP");
        assertThat(state("west")).isEqualTo("UP");
    }

    /** Loopback and an allowed name, each with its own Origin (or none, as curl), act at both doors. */
    @Test
    void loopbackAndAnAllowedHostAct() {
        for (String host : List.of(http.loopback(), "127.0.0.1:" + http.port(), "[::1]:" + http.port(),
                ALLOWED + ":" + http.port())) {
            RawHttp.Response down = consoleAction(host, "http://" + host, "/slotpool/origins/north/down", "");
            assertThat(down.status()).as("down at %s: %s", host, down).isEqualTo(200);
            RawHttp.Response up = http.send("POST", "/actuator/pool/north", host,
                    Map.of("Content-Type", "application/json"), "{\"action\":\"up\"}");
            assertThat(up.status()).as("up at %s without an Origin: %s", host, up).isEqualTo(200);
        }
        assertThat(state("north")).isEqualTo("UP");
    }

    /**
     * The page that carries the token may be neither framed (X-Frame-Options, CSP frame-ancestors) nor stored
     * (no-store); no console answer is sniffed into another type.
     */
    @Test
    void consoleAnswersCarrySecurityHeaders() {
        RawHttp.Response page = http.get("/slotpool", http.loopback(), Map.of());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("X-Frame-Options")).hasValue("DENY");
        assertThat(page.header("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("frame-ancestors 'none'"));
        assertThat(page.header("Cache-Control")).hasValueSatisfying(c -> assertThat(c).contains("no-store"));
        for (String path : List.of("/slotpool/snapshot", "/slotpool/history", "/slotpool/assets/console.js")) {
            RawHttp.Response r = http.get(path, http.loopback(), Map.of());
            assertThat(r.status()).as(path).isEqualTo(200);
            assertThat(r.header("X-Content-Type-Options")).as(path).hasValue("nosniff");
            assertThat(r.header("X-Frame-Options")).as(path).hasValue("DENY");
        }
    }

    /** Weights whose sum overflows an int (every share would be 0) are refused, and the weights stay. */
    @Test
    void aWeightSumBeyondTheCapIsRefused() {
        RawHttp.Response r = consoleAction(http.loopback(), "http://" + http.loopback(), "/slotpool/actions/rebalance",
                "weights=east%3D999999999%2Cwest%3D999999999%2Cnorth%3D999999999");
        assertThat(r.status()).as("rebalance: %s", r).isEqualTo(400);
        assertThat(r.body()).contains("weights add up to");
        RawHttp.Response e = http.send("POST", "/actuator/pool", http.loopback(), Map.of("Content-Type",
                "application/json"), "{\"action\":\"rebalance\",\"weights\":\"east=2147483647,west=1\"}");
        assertThat(e.status()).as("endpoint rebalance: %s", e).isEqualTo(400);
        assertThat(app.pool().snapshot().origin("east").orElseThrow().weight()).isEqualTo(50);
    }

    /** A stream request from {@code client} (as a proxy names it in X-Forwarded-For), its answer's head read. */
    private static Stream openStream(String client, int receiveBuffer) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.connect(new InetSocketAddress("127.0.0.1", http.port()), 5_000);
        s.setSoTimeout(30_000);
        Map<String, String> headers = Map.of("Accept", "text/event-stream", "X-Forwarded-For", client);
        byte[] request = RawHttp.request("GET", "/slotpool/stream", http.loopback(), headers, null);
        // No Connection: close: the stream stays open.
        String text = new String(request, StandardCharsets.ISO_8859_1).replace("Connection: close\r\n", "");
        s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        String status = RawHttp.line(in);
        for (String l = RawHttp.line(in); l != null && !l.isEmpty(); l = RawHttp.line(in)) {
            // the head
        }
        return new Stream(s, in, Integer.parseInt(status.split(" ")[1]));
    }

    private record Stream(Socket socket, InputStream in, int status) implements AutoCloseable {

        /** Reads until {@code events} snapshot events arrived; false when the socket timed out first. */
        boolean awaitEvents(int events) throws IOException {
            int seen = 0;
            try {
                for (String l = RawHttp.line(in); l != null; l = RawHttp.line(in)) {
                    if (l.startsWith("event:snapshot") && ++seen >= events) {
                        return true;
                    }
                }
            } catch (SocketTimeoutException stalled) {
                return false;
            }
            return false;
        }

        /** Reads to the end of the stream; true when the server closed it before the socket's timeout. */
        boolean closedByTheServer() throws IOException {
            byte[] buffer = new byte[64 * 1024];
            try {
                while (in.read(buffer) >= 0) {
                    // drain
                }
                return true;
            } catch (SocketTimeoutException stillOpen) {
                return false;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * Four readers with a 1 KB receive buffer that never read: the console's writes to them stall once Tomcat's
     * send buffer is full. Another reader still gets a snapshot a second (ten within the 30 s its socket waits for
     * each line), and the stalled readers are dropped: their streams end.
     */
    @Test
    void slowReadersCannotFreezeTheOthersAndAreDropped() throws Exception {
        List<Stream> slow = new ArrayList<>();
        try {
            for (int i = 1; i <= 4; i++) {
                Stream s = openStream("192.0.2." + i, 1024);
                assertThat(s.status()).as("slow stream %d", i).isEqualTo(200);
                slow.add(s);
            }
            try (Stream reader = openStream("198.51.100.7", 0)) {
                assertThat(reader.status()).isEqualTo(200);
                assertThat(reader.awaitEvents(10)).as("ten snapshots to a reader next to four that do not read")
                        .isTrue();
            }
            for (Stream s : slow) {
                assertThat(s.closedByTheServer()).as("a stalled stream is dropped").isTrue();
            }
        } finally {
            for (Stream s : slow) {
                s.close();
            }
        }
    }

    /** Addresses of one IPv6 /64 are one client: its fifth stream is refused (429), another network's is not. */
    @Test
    void oneIpv6NetworkHoldsOneClientsShareOfStreams() throws Exception {
        List<Stream> open = new ArrayList<>();
        try {
            for (int i = 1; i <= 4; i++) {
                Stream s = openStream("2001:db8:7:7::" + i, 0);
                assertThat(s.status()).as("stream %d of the /64", i).isEqualTo(200);
                open.add(s);
            }
            Stream fifth = openStream("2001:db8:7:7:ffff::5", 0);
            open.add(fifth);
            assertThat(fifth.status()).as("a fifth address of the same /64").isEqualTo(429);
            Stream other = openStream("2001:db8:7:8::1", 0);
            open.add(other);
            assertThat(other.status()).as("another /64").isEqualTo(200);
        } finally {
            for (Stream s : open) {
                s.close();
            }
        }
    }
}
