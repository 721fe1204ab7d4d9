package dev.slotpool.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a loopback port in front of a real server, whose network faults a test switches at any time:
 * point the client (a JDBC URL) at {@link #host()}:{@link #port()} instead of the server.
 *
 * <pre>{@code
 * try (TcpFaultProxy proxy = TcpFaultProxy.start("localhost", pg.getPort())) {
 *     String url = "jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/postgres?socketTimeout=2";
 *     ...
 *     proxy.blackhole();   // the network to this server is cut
 *     ...
 *     proxy.forward();     // and heals
 * }
 * }</pre>
 *
 * <h2>Modes</h2>
 * Each switch takes effect at once, for existing and new connections, and returns the proxy. A connection exists
 * for the proxy once its acceptor has accepted it, which can be after the client's {@code connect()} has returned
 * (the kernel completes the handshake first, and a loaded machine may run the acceptor late): one still waiting
 * to be accepted when the mode changes is a new connection, handled per the new mode. A test that needs an
 * existing, forwarded connection exchanges a byte through it (or awaits {@link #liveConnections()}) first.
 * <table>
 * <caption>What each mode does at TCP level, what it models, and what a client sees (a JDK socket; the
 * PostgreSQL JDBC driver with {@code connectTimeout=2&socketTimeout=2}, as measured by this module's tests)</caption>
 * <tr><th>mode</th><th>at TCP level</th><th>models</th><th>a client sees</th></tr>
 * <tr><td>{@link #forward()} (default; ends any fault)</td>
 *     <td>new connections are connected to the target; bytes, FIN (half-close) and RST cross both ways</td>
 *     <td>a healthy network</td>
 *     <td>the server. If the target refuses the proxy, an RST right after the client's handshake: the first read
 *     throws {@link java.net.SocketException} "Connection reset", or, if the RST arrives before the client's
 *     {@code connect()} has seen the handshake complete (a busy client thread), {@code connect()} itself throws
 *     "Connection reset by peer". Which one is a race the proxy cannot decide: it learns that the target is
 *     down only after the client's kernel has completed the handshake</td></tr>
 * <tr><td>{@link #blackhole()}</td>
 *     <td>existing connections stay open but nothing crosses in either direction, not even FIN or RST: each
 *     pump parks with what it read (one chunk; the rest waits in kernel buffers) until the mode changes, then
 *     delivers it, so no byte is lost, as TCP retransmission delivers everything once a cut network heals.
 *     Every switch out of the blackhole releases every pump parked in it, even if the next {@code blackhole()}
 *     comes before the pump runs (each released pump then delivers its one chunk, like a packet in flight).
 *     New connections are accepted and held: never connected to the target, never answered, still dead
 *     after {@code forward()}</td>
 *     <td>a network cut without RST (pulled cable, firewall dropping packets, dead host): HikariCP's
 *     "database down" test. Unlike a real cut, {@code connect()} itself succeeds</td>
 *     <td>reads hang until the client's own timeout: {@link java.net.SocketTimeoutException}. PostgreSQL:
 *     a query fails after {@code socketTimeout} with SQLState 08006 ("An I/O error occurred while sending to
 *     the backend", cause "Read timed out") and the driver closes the connection; a new connection fails with
 *     08001 ("The connection attempt failed", cause "Read timed out") after 2 x {@code socketTimeout}, as the
 *     driver's default {@code sslmode=prefer} tries SSL, then plain ({@code connectTimeout} bounds only the
 *     handshake, which succeeds); {@code loginTimeout} bounds the whole connect</td></tr>
 * <tr><td>{@link #refuse()}</td>
 *     <td>the listening socket is closed, so a SYN gets RST; existing connections keep forwarding.
 *     {@code forward()} binds the same port again (SO_REUSEADDR)</td>
 *     <td>a server process that is down on a reachable host</td>
 *     <td>{@link java.net.ConnectException} "Connection refused" at once. PostgreSQL: 08001 "Connection to
 *     127.0.0.1:port refused", in about 1 ms</td></tr>
 * <tr><td>{@link #acceptButNeverAnswer()}</td>
 *     <td>new connections are accepted and held, never connected to the target, never answered; existing ones
 *     keep forwarding</td>
 *     <td>a hung server whose kernel still completes handshakes (stopped process, full accept loop)</td>
 *     <td>{@code connect()} succeeds, reads time out. PostgreSQL: as a new connection under
 *     {@code blackhole()}</td></tr>
 * <tr><td>{@link #reset()}</td>
 *     <td>every connection open at the switch is reset on both sides (as {@link #resetAll()}); new connections
 *     are accepted and closed at once with SO_LINGER 0, so the client gets an RST right after its handshake</td>
 *     <td>a server that crashed mid-query and keeps resetting (its host, or a load balancer in front of it,
 *     answers every connection with RST)</td>
 *     <td>a read in flight fails at once with {@link java.net.SocketException} "Connection reset"; a new
 *     connection's first read (or its {@code connect()}, on a busy client) gets "Connection reset"</td></tr>
 * </table>
 * {@link #resetAll()} is a one-shot action: every connection open at the call is reset on both sides (closed
 * with SO_LINGER 0, so each peer gets an RST), as a crashed middlebox or server host does. A JDK client's next
 * read throws {@link java.net.SocketException} "Connection reset" (a write first: "Connection reset by peer");
 * the server's side gets the same. PostgreSQL: the next query fails at once with 08006 ("An I/O error occurred
 * while sending to the backend", cause "Connection reset by peer") and the backend exits. The mode is unchanged:
 * new connections are handled per the current mode, forwarded in the default one.
 * {@link #latency(Duration)} delays every forwarded chunk, in either direction and any mode.
 *
 * <p>Held connections (accepted while blackholed or not answering) are read and the bytes discarded, only to
 * notice the client closing; they end when the client closes, on {@code resetAll()} or on {@code close()}.
 * A forwarded connection that its client closes while blackholed counts in {@link #liveConnections()} until the
 * network heals, since its FIN is held too.
 *
 * <h2>Threads</h2>
 * Plain blocking sockets: one acceptor thread ({@code tcp-proxy-<port>-accept}), two pump threads per
 * forwarded connection ({@code tcp-proxy-<port>-<n>-up} client to target, {@code -down} back), one per held
 * connection ({@code -held}); all daemon, all named with {@link #threadNamePrefix()}. A blocked pump waits in a
 * socket read or on a monitor, never spins. Mode switches may come from any thread while pumps run; they are
 * serialized on one lock, and pumps read the mode as a volatile. {@code refuse()} returns once the acceptor
 * has left {@code accept()}: only then has the kernel socket stopped listening ({@link ServerSocket#close()}
 * merely signals a blocked accept). A connection the kernel accepted in that instant is reset at once (its
 * client's first read gets "Connection reset", or its {@code connect()} "Connection reset by peer", as above).
 *
 * <p>{@link #close()} closes the listener, resets every connection (nothing a blackhole held is delivered) and
 * joins every thread the proxy started; when it returns, no thread of the proxy is alive. It is idempotent.
 * Switching modes after {@code close()} throws {@link IllegalStateException}.
 *
 * <p>A rare failure to know about: while refusing, nothing holds the port, so another socket of this machine
 * could take it; {@code forward()} then throws {@link UncheckedIOException} naming the port.
 */
public final class TcpFaultProxy implements AutoCloseable {

    /** How long a pump waits for the target's TCP handshake (loopback: instant unless the target is gone). */
    static final int TARGET_CONNECT_TIMEOUT_MILLIS = 5_000;
    /** How long {@link #close()} waits for each thread; a thread still alive after it is reported. */
    private static final long JOIN_TIMEOUT_MILLIS = 5_000;
    /** Pause after an unexpected accept failure (e.g. out of file descriptors), so the acceptor does not spin. */
    private static final long ACCEPT_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final InetSocketAddress target;
    private final InetAddress bindAddress;
    private final int port;
    private final String threadNamePrefix;

    /** Guards {@link #listener} and {@link #closed} and serializes mode switches; blackholed pumps wait on it. */
    private final Object lock = new Object();
    /** Written under {@link #lock}, read without it by pumps and getters. */
    private volatile FaultMode mode = FaultMode.FORWARD;
    /** The listening socket; null while refusing and after close. Guarded by {@link #lock}. */
    private ServerSocket listener;
    /** The thread accepting on {@link #listener}; null while refusing. Guarded by {@link #lock}. */
    private Thread acceptor;
    /** Guarded by {@link #lock}; volatile so pumps can read it in their wait condition and getters outside. */
    private volatile boolean closed;
    /**
     * How many times the mode has left {@link FaultMode#BLACKHOLE}. Guarded by {@link #lock}. A pump parked in a
     * blackhole waits for this to change rather than for the mode to read non-blackhole, so a heal releases it
     * even if {@code blackhole()} takes the lock again before the woken pump does (which a monitor allows).
     */
    private long heals;
    private volatile long latencyNanos;

    /** Connections not yet ended; added under {@link #lock} only, so {@code close()} sees every one. */
    private final Set<ProxiedConnection> live = ConcurrentHashMap.newKeySet();
    /** Every thread started and not yet finished, for {@code close()} to join. */
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicInteger connectionIds = new AtomicInteger();

    private TcpFaultProxy(InetSocketAddress target, ServerSocket listener) {
        this.target = target;
        this.listener = listener;
        this.bindAddress = listener.getInetAddress();
        this.port = listener.getLocalPort();
        this.threadNamePrefix = "tcp-proxy-" + port + "-";
    }

    /**
     * Listens on an ephemeral loopback port and forwards every accepted connection to
     * {@code targetHost:targetPort} (resolved once, now).
     *
     * @throws UncheckedIOException if no port can be bound
     */
    public static TcpFaultProxy start(String targetHost, int targetPort) {
        Objects.requireNonNull(targetHost, "targetHost");
        InetSocketAddress target = new InetSocketAddress(targetHost, targetPort);
        if (target.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve target host " + targetHost);
        }
        TcpFaultProxy proxy = new TcpFaultProxy(target, bind(InetAddress.getLoopbackAddress(), 0));
        synchronized (proxy.lock) {
            proxy.startAcceptor(proxy.listener);
        }
        return proxy;
    }

    /** The address clients connect to, as a literal ({@code 127.0.0.1} on an IPv4 loopback). */
    public String host() {
        return bindAddress.getHostAddress();
    }

    /** The port clients connect to; the same for the proxy's whole life, across {@link #refuse()}. */
    public int port() {
        return port;
    }

    /** The name every thread of this proxy starts with: {@code tcp-proxy-<port>-}. */
    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** The current mode. */
    public FaultMode mode() {
        return mode;
    }

    /** Connections accepted and not yet ended (forwarded and held ones). */
    public int liveConnections() {
        return live.size();
    }

    /** Every connection accepted since start, including held ones and ones reset by a racing {@code refuse()}. */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Normal service: forwards new and existing connections; ends any fault. Re-binds the port after refuse. */
    public TcpFaultProxy forward() {
        switchTo(FaultMode.FORWARD);
        return this;
    }

    /** Cuts the network without closing anything: nothing crosses until the mode changes (see above). */
    public TcpFaultProxy blackhole() {
        switchTo(FaultMode.BLACKHOLE);
        return this;
    }

    /**
     * Stops listening, so new connections are refused; existing ones keep forwarding. Returns once the port no
     * longer listens.
     */
    public TcpFaultProxy refuse() {
        switchTo(FaultMode.REFUSE);
        return this;
    }

    /** Accepts new connections and never answers them; existing ones keep forwarding. */
    public TcpFaultProxy acceptButNeverAnswer() {
        switchTo(FaultMode.ACCEPT_BUT_NEVER_ANSWER);
        return this;
    }

    /**
     * Resets every connection open now on both sides and every new one right after its handshake, until the mode
     * changes. When this returns, the connections open at the call are reset and no longer counted in
     * {@link #liveConnections()}.
     */
    public TcpFaultProxy reset() {
        switchTo(FaultMode.RESET);
        for (ProxiedConnection connection : live) {
            connection.reset();
        }
        return this;
    }

    /**
     * Resets every connection open now on both sides (SO_LINGER 0, then close: each peer gets an RST). The mode
     * is unchanged; new connections are handled per the mode. When this returns, the RSTs are sent and the reset
     * connections no longer count in {@link #liveConnections()}.
     */
    public TcpFaultProxy resetAll() {
        requireOpen();
        for (ProxiedConnection connection : live) {
            connection.reset();
        }
        return this;
    }

    /**
     * Delays each forwarded chunk (each read of up to 16 KiB, in either direction) by {@code delay} before it
     * is written on; {@link Duration#ZERO} disables. A chunk's delay is not overlapped with the next one's, so
     * a long delay also caps throughput.
     */
    public TcpFaultProxy latency(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative: " + delay);
        }
        latencyNanos = delay.toNanos();
        return this;
    }

    /**
     * Stops listening, resets every connection and joins every thread of the proxy. Idempotent.
     *
     * @throws IllegalStateException if a thread of the proxy is still alive after 5 s (a bug in the proxy)
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (!closed) {
                closed = true;
                closeQuietly(listener);
                listener = null;
                lock.notifyAll();
            }
        }
        // No connection is added after closed is set (admit checks it under the lock), so this sees them all.
        for (ProxiedConnection connection : live) {
            connection.reset();
        }
        List<String> stuck = new ArrayList<>();
        for (Thread thread : threads) {
            if (thread == Thread.currentThread()) {
                continue;
            }
            try {
                thread.join(JOIN_TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (thread.isAlive()) {
                stuck.add(thread.getName());
            }
        }
        if (!stuck.isEmpty()) {
            throw new IllegalStateException("proxy threads still alive after close(): " + stuck);
        }
    }

    @Override
    public String toString() {
        return "TcpFaultProxy[" + host() + ":" + port + " -> " + target + ", " + mode + "]";
    }

    // ---- used by ProxiedConnection -----------------------------------------------------------------------

    InetSocketAddress target() {
        return target;
    }

    /**
     * Parks while the proxy is blackholed, until the next switch out of the blackhole (or close); returns true
     * when bytes may cross, false if the proxy was closed (nothing held may then cross: the connection is about
     * to be reset).
     *
     * <p>No wake-up can be lost: the mode and {@link #heals} are written under {@link #lock} before its
     * {@code notifyAll()}, and a pump reads them under the same lock before each {@code wait()} (which releases
     * it atomically), so a switch either happens before the pump's check, which then sees it, or after the pump
     * waits, whom it then wakes. The unlocked read first is only a fast path: a stale BLACKHOLE is re-checked
     * under the lock; a stale non-blackhole lets through a chunk read just as the cut began, like one in flight.
     */
    boolean awaitPassage() throws InterruptedException {
        if (mode == FaultMode.BLACKHOLE) {
            synchronized (lock) {
                long cut = heals;
                while (mode == FaultMode.BLACKHOLE && heals == cut && !closed) {
                    lock.wait();
                }
            }
        }
        return !closed;
    }

    /** Waits the configured latency, if any. */
    void delay() throws InterruptedException {
        Pause.nanos(latencyNanos);
    }

    /** A started daemon thread named with this proxy's prefix, tracked until it finishes. */
    Thread startThread(String nameSuffix, Runnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, threadNamePrefix + nameSuffix);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
        return thread;
    }

    void ended(ProxiedConnection connection) {
        live.remove(connection);
    }

    // ---- internals ---------------------------------------------------------------------------------------

    private void switchTo(FaultMode next) {
        Thread stoppedAcceptor = null;
        synchronized (lock) {
            requireOpen();
            FaultMode previous = mode;
            if (next == previous) {
                return;
            }
            if (next == FaultMode.REFUSE) {
                closeQuietly(listener);
                listener = null;
                stoppedAcceptor = acceptor;
                acceptor = null;
            } else if (previous == FaultMode.REFUSE) {
                try {
                    listener = bind(bindAddress, port);
                } catch (UncheckedIOException e) {
                    throw new UncheckedIOException("could not bind port " + port + " again after refuse(); another"
                            + " socket may have taken it", e.getCause());
                }
                startAcceptor(listener);
            }
            if (previous == FaultMode.BLACKHOLE) {
                heals++;
            }
            mode = next;
            lock.notifyAll();
        }
        if (stoppedAcceptor != null) {
            // ServerSocket.close() only signals a thread blocked in accept(); the kernel socket stops listening
            // when that accept() returns. Until then a connect could still complete, so refuse() waits for it.
            // Outside the lock: the acceptor may be waiting for the lock to admit a last connection (reset then).
            join(stoppedAcceptor);
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join(JOIN_TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + thread.getName() + " to end", e);
        }
        if (thread.isAlive()) {
            throw new IllegalStateException(thread.getName() + " still alive " + JOIN_TIMEOUT_MILLIS + " ms after"
                    + " its socket was closed");
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("proxy is closed: " + this);
        }
    }

    /** Called under {@link #lock}. */
    private void startAcceptor(ServerSocket server) {
        acceptor = startThread("accept", () -> acceptLoop(server));
    }

    private void acceptLoop(ServerSocket server) {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    try {
                        Pause.nanos(ACCEPT_RETRY_NANOS);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
                continue;
            }
            accepted.incrementAndGet();
            admit(client);
        }
    }

    private void admit(Socket client) {
        synchronized (lock) {
            if (closed || mode == FaultMode.REFUSE || mode == FaultMode.RESET) {
                ProxiedConnection.abortively(client);
                return;
            }
            ProxiedConnection connection = new ProxiedConnection(this, connectionIds.incrementAndGet(), client);
            live.add(connection);
            if (mode == FaultMode.FORWARD) {
                connection.startForwarding();
            } else {
                connection.startHeld();
            }
        }
    }

    private static ServerSocket bind(InetAddress address, int port) {
        ServerSocket server = null;
        try {
            server = new ServerSocket();
            // Lets refuse() -> forward() bind the port again while accepted connections (or TIME_WAIT) use it.
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(address, port));
            return server;
        } catch (IOException e) {
            closeQuietly(server);
            throw new UncheckedIOException("cannot listen on " + address.getHostAddress() + ":" + port, e);
        }
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing to release resources; nothing useful to do with a failure
        }
    }
}
