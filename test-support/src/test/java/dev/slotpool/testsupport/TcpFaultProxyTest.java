package dev.slotpool.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TcpFaultProxy} in front of an {@link EchoServer}: what a client sees in each mode. Silence is asserted
 * with a short read timeout (a read that times out proves nothing arrived in that window; arriving later is
 * checked after healing); answers and asynchronous outcomes are awaited with a long deadline, so a loaded
 * machine makes the tests slower, not red.
 */
class TcpFaultProxyTest {

    /** A read that must stay silent times out after this. */
    private static final int SILENCE_MILLIS = 300;
    /** Anything expected to arrive or happen must within this (loopback: milliseconds unless the box is busy). */
    private static final long DEADLINE_MILLIS = 10_000;

    private EchoServer echo;
    private TcpFaultProxy proxy;
    private final List<Socket> clients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        echo = new EchoServer();
        proxy = TcpFaultProxy.start("localhost", echo.port());
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket client : clients) {
            client.close();
        }
        proxy.close();
        echo.close();
    }

    @Test
    void forwardCarriesBytesBothWaysAndHalfCloses() throws Exception {
        Socket a = connect();
        Socket b = connect();
        byte[] big = new byte[200_000]; // several 16 KiB chunks, interleaved with the echo coming back
        ThreadLocalRandom.current().nextBytes(big);

        assertEchoes(a, "hello");
        a.getOutputStream().write(big);
        assertThat(a.getInputStream().readNBytes(big.length)).isEqualTo(big);
        assertEchoes(b, "world");
        assertThat(proxy.liveConnections()).isEqualTo(2);
        assertThat(proxy.acceptedConnections()).isEqualTo(2);
        assertThat(echo.accepted()).isEqualTo(2);

        // Client FIN -> proxy half-closes upstream -> echo server sees EOF and closes -> client reads EOF.
        a.shutdownOutput();
        assertThat(a.getInputStream().read()).isEqualTo(-1);
        assertThat(echo.endings().poll(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("EOF");
        await("the half-closed pair to end", () -> proxy.liveConnections() == 1);
        b.close();
        await("every pair to end", () -> proxy.liveConnections() == 0);
    }

    @Test
    void blackholeStallsExistingConnectionsLosslesslyAndHoldsNewOnes() throws Exception {
        Socket existing = connect();
        assertEchoes(existing, "before");

        proxy.blackhole();
        assertThat(proxy.mode()).isEqualTo(FaultMode.BLACKHOLE);
        write(existing, "during");
        assertSilent(existing);
        // The client-to-target pump holds "during" and parks on the proxy's monitor: no spinning.
        await("the blackholed pump to park", () -> parked("1-up"));
        Socket held = connect(); // the handshake completes: the proxy accepts it
        write(held, "hello?");
        assertSilent(held);
        assertThat(echo.accepted()).as("a held connection never reaches the target").isEqualTo(1);
        assertThat(proxy.liveConnections()).isEqualTo(2);

        proxy.forward();
        // The stalled bytes were held, not dropped: they cross once the network heals, as TCP retransmits them.
        assertThat(read(existing, 6)).isEqualTo("during");
        assertEchoes(connect(), "after");
        // A connection accepted during the blackhole stays dead.
        write(held, "still?");
        assertSilent(held);
        assertThat(echo.accepted()).isEqualTo(2);

        held.close();
        await("the held connection to end when its client closes", () -> proxy.liveConnections() == 2);
    }

    @Test
    void blackholeHoldsTheClientsFinUntilTheNetworkHeals() throws Exception {
        Socket existing = connect();
        assertEchoes(existing, "x");
        proxy.blackhole();
        existing.shutdownOutput();
        assertThat(echo.endings().poll(SILENCE_MILLIS, TimeUnit.MILLISECONDS)).as("the server saw no FIN").isNull();

        proxy.forward();
        assertThat(echo.endings().poll(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("EOF");
        assertThat(existing.getInputStream().read()).isEqualTo(-1);
    }

    @Test
    void aHealReleasesWhatTheBlackholeHeldEvenIfTheCutResumesAtOnce() throws Exception {
        Socket existing = connect();
        assertEchoes(existing, "x");
        proxy.blackhole();
        existing.shutdownOutput();
        await("the client-to-target pump to park with the FIN", () -> parked("1-up"));

        // The second switch usually takes the proxy's monitor again before the woken pump runs; a pump that only
        // re-checked the mode would find the blackhole again and keep the FIN.
        proxy.forward();
        proxy.blackhole();
        assertThat(echo.endings().poll(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).as("the FIN crossed in the heal")
                .isEqualTo("EOF");
        // The server's FIN back waits for the next heal (unless it was quick enough to cross in this one).
        proxy.forward();
        assertThat(existing.getInputStream().read()).isEqualTo(-1);
    }

    @Test
    void refuseRefusesNewConnectionsAtTcpLevelAndKeepsExistingOnes() throws Exception {
        Socket existing = connect();
        assertEchoes(existing, "before");

        proxy.refuse();
        Throwable refused = catchThrowable(this::connect);
        assertThat(refused).isInstanceOf(ConnectException.class).hasMessageContaining("Connection refused");
        assertEchoes(existing, "during");

        proxy.forward(); // binds the same port again
        assertEchoes(connect(), "after");
        assertEchoes(existing, "still");
        assertThat(proxy.acceptedConnections()).isEqualTo(2);
    }

    @Test
    void resetAllResetsBothSidesOfEveryConnection() throws Exception {
        Socket a = connect();
        Socket b = connect();
        assertEchoes(a, "a");
        assertEchoes(b, "b");

        proxy.resetAll();
        assertThat(proxy.liveConnections()).isZero();
        for (Socket client : List.of(a, b)) {
            Throwable thrown = catchThrowable(() -> client.getInputStream().read());
            assertThat(thrown).isExactlyInstanceOf(SocketException.class).hasMessage("Connection reset");
        }
        // The server's side was reset too.
        assertThat(echo.endings().poll(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("Connection reset");
        assertThat(echo.endings().poll(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("Connection reset");
        // The mode is unchanged: new connections are forwarded.
        assertEchoes(connect(), "after");
    }

    @Test
    void resetModeResetsExistingConnectionsAndEveryNewOneUntilForward() throws Exception {
        Socket existing = connect();
        assertEchoes(existing, "before");

        proxy.reset();
        assertThat(proxy.mode()).isEqualTo(FaultMode.RESET);
        assertThat(proxy.liveConnections()).isZero();
        assertThat(catchThrowable(() -> existing.getInputStream().read()))
                .isExactlyInstanceOf(SocketException.class).hasMessage("Connection reset");
        assertThat(echo.endings().poll(DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("Connection reset");

        for (int i = 0; i < 3; i++) {
            // As with a target that is down, the RST races the client's connect(): either may report it.
            Throwable reset = catchThrowable(() -> {
                Socket client = connect();
                int read = client.getInputStream().read();
                throw new AssertionError("expected a reset, read " + (read < 0 ? "EOF" : "a byte"));
            });
            assertThat(reset).isExactlyInstanceOf(SocketException.class)
                    .hasMessageMatching("Connection reset( by peer)?");
        }
        assertThat(echo.accepted()).as("nothing reached the target while resetting").isEqualTo(1);
        await("every reset connection to end", () -> proxy.liveConnections() == 0);

        proxy.forward();
        assertEchoes(connect(), "after");
    }

    @Test
    void acceptButNeverAnswerHoldsNewConnectionsAndKeepsExistingOnes() throws Exception {
        Socket existing = connect();
        assertEchoes(existing, "before");

        proxy.acceptButNeverAnswer();
        Socket hung = connect();
        write(hung, "hello?");
        assertSilent(hung);
        assertEchoes(existing, "during");
        assertThat(echo.accepted()).isEqualTo(1);

        proxy.forward();
        assertEchoes(connect(), "after");
        write(hung, "still?");
        assertSilent(hung);
    }

    @Test
    void aTargetThatIsDownResetsTheClient() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            closedPort = probe.getLocalPort();
        }
        try (TcpFaultProxy toNowhere = TcpFaultProxy.start("localhost", closedPort)) {
            Socket client = new Socket();
            clients.add(client);
            // The client's kernel completes the handshake with the proxy's before the proxy even tries the target,
            // so its RST races the client's connect(): usually the first read sees it, but a client thread that
            // runs late sees it in connect() itself. Either way a reset, never a refusal, a timeout or an EOF.
            Throwable reset = catchThrowable(() -> {
                client.connect(new InetSocketAddress(toNowhere.host(), toNowhere.port()), (int) DEADLINE_MILLIS);
                client.setSoTimeout((int) DEADLINE_MILLIS);
                int read = client.getInputStream().read();
                throw new AssertionError("expected a reset, read " + (read < 0 ? "EOF" : "a byte"));
            });
            assertThat(reset).isExactlyInstanceOf(SocketException.class)
                    .hasMessageMatching("Connection reset( by peer)?");
            assertThat(toNowhere.acceptedConnections()).isEqualTo(1);
            await("the reset connection to end", () -> toNowhere.liveConnections() == 0);
        }
    }

    @Test
    void latencyDelaysEachChunkInEachDirection() throws Exception {
        Socket client = connect();
        proxy.latency(Duration.ofMillis(150));
        long start = System.nanoTime();
        assertEchoes(client, "slow");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));

        proxy.latency(Duration.ZERO);
        assertEchoes(client, "fast");
        assertThatThrownBy(() -> proxy.latency(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void modeSwitchesUnderTrafficLoseNoByteOfExistingConnections() throws Exception {
        int clientCount = 4;
        int roundTrips = 200;
        // Every mode at least this often while the clients talk (6 switches a cycle): the overlap is guaranteed.
        int minSwitches = 20 * 6;
        List<Socket> established = new ArrayList<>();
        for (int i = 0; i < clientCount; i++) {
            Socket client = connect();
            // connect() returns once the kernel completed the handshake, maybe before the proxy accepted it; a
            // connection the proxy accepts after the first switch is a new one and is held or reset per that
            // mode. A round trip proves the proxy accepted it in FORWARD and connected it to the server.
            assertEchoes(client, "ready;");
            established.add(client);
        }
        assertThat(echo.accepted()).isEqualTo(clientCount);
        assertThat(proxy.liveConnections()).isEqualTo(clientCount);

        ExecutorService workers = Executors.newFixedThreadPool(clientCount + 1);
        AtomicBoolean trafficDone = new AtomicBoolean();
        AtomicInteger switches = new AtomicInteger();
        try {
            Future<?> switcher = workers.submit(() -> {
                FaultMode[] cycle = {FaultMode.BLACKHOLE, FaultMode.FORWARD, FaultMode.REFUSE,
                        FaultMode.ACCEPT_BUT_NEVER_ANSWER, FaultMode.BLACKHOLE, FaultMode.REFUSE};
                // Until the clients are done, not for a fixed count: a byte that only the final forward() would
                // release stalls its client, which then fails on its read timeout instead of finishing late.
                while (!trafficDone.get()) {
                    switchTo(cycle[switches.getAndIncrement() % cycle.length]);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                proxy.forward();
                return null;
            });
            List<Future<Integer>> clientsDone = new ArrayList<>();
            for (Socket client : established) {
                clientsDone.add(workers.submit(() -> {
                    // Each read is bounded by the socket's DEADLINE_MILLIS: a lost byte fails the test there.
                    int i = 0;
                    for (; i < roundTrips || (switches.get() < minSwitches && !switcher.isDone()); i++) {
                        assertEchoes(client, "message-" + i + ";");
                    }
                    return i;
                }));
            }
            // Bounded by the reads' own timeouts; this is only a backstop, generous for a loaded 2-core machine.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            for (Future<Integer> client : clientsDone) {
                assertThat(client.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS))
                        .isGreaterThanOrEqualTo(roundTrips);
            }
            trafficDone.set(true);
            switcher.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            assertThat(switches.get()).isGreaterThanOrEqualTo(minSwitches);
        } finally {
            trafficDone.set(true);
            workers.shutdownNow();
            assertThat(workers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(echo.accepted()).isEqualTo(clientCount);
        assertThat(proxy.liveConnections()).isEqualTo(clientCount);
        assertThat(echo.endings()).as("no server-side connection ended").isEmpty();
        proxy.close();
        assertThat(proxyThreads()).isEmpty();
    }

    private void switchTo(FaultMode mode) {
        switch (mode) {
            case FORWARD -> proxy.forward();
            case BLACKHOLE -> proxy.blackhole();
            case REFUSE -> proxy.refuse();
            case ACCEPT_BUT_NEVER_ANSWER -> proxy.acceptButNeverAnswer();
            case RESET -> proxy.reset();
        }
    }

    @Test
    void closeEndsEveryThreadAndSocketAndIsIdempotent() throws Exception {
        Socket forwarded = connect();
        assertEchoes(forwarded, "x");
        proxy.blackhole();
        write(forwarded, "parked"); // the pump reads it and waits for the network to heal
        Socket held = connect();
        await("the held connection to be accepted", () -> proxy.liveConnections() == 2);
        assertThat(proxyThreads()).isNotEmpty();

        proxy.close();
        await("no proxy thread alive", () -> proxyThreads().isEmpty());
        assertThat(proxy.liveConnections()).isZero();
        for (Socket client : List.of(forwarded, held)) {
            assertThatThrownBy(() -> client.getInputStream().read()).hasMessage("Connection reset");
        }
        assertThatThrownBy(() -> new Socket(proxy.host(), proxy.port())).isInstanceOf(ConnectException.class);

        proxy.close();
        assertThatThrownBy(proxy::forward).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(proxy::resetAll).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeWhileRefusingLeavesNothingBehind() throws Exception {
        assertEchoes(connect(), "x");
        proxy.refuse();
        proxy.close();
        await("no proxy thread alive", () -> proxyThreads().isEmpty());
        assertThat(proxy.liveConnections()).isZero();
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(proxy.host(), proxy.port()), (int) DEADLINE_MILLIS);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        clients.add(socket);
        socket.setSoTimeout((int) DEADLINE_MILLIS);
        return socket;
    }

    private static void write(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Reads exactly {@code length} bytes, each read bounded by the socket's long timeout. */
    private static String read(Socket socket, int length) throws IOException {
        byte[] bytes = socket.getInputStream().readNBytes(length);
        assertThat(bytes).as("bytes before EOF").hasSize(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static void assertEchoes(Socket socket, String text) throws IOException {
        write(socket, text);
        assertThat(read(socket, text.length())).isEqualTo(text);
    }

    /** Nothing arrives within {@link #SILENCE_MILLIS}: the read times out, leaving the socket usable. */
    private static void assertSilent(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        socket.setSoTimeout(SILENCE_MILLIS);
        try {
            assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
        } finally {
            socket.setSoTimeout((int) DEADLINE_MILLIS);
        }
    }

    /** Whether this proxy's thread {@code <prefix><nameSuffix>} is parked on the proxy's monitor. */
    private boolean parked(String nameSuffix) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(proxy.threadNamePrefix() + nameSuffix)
                        && t.getState() == Thread.State.WAITING);
    }

    private List<String> proxyThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(proxy.threadNamePrefix()))
                .toList();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + DEADLINE_MILLIS + " ms waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
