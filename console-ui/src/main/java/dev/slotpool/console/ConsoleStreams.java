package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.ConsoleView;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The console's server-sent-event streams: one per open page. One daemon thread for the whole console takes a
 * snapshot when a stream opens and then every period and puts it in each open stream's queue, which holds
 * {@value #QUEUE} snapshots: a stream whose queue is full when the next one comes (its reader does not read as
 * fast as they come) is dropped, and its browser reconnects by itself. Each stream is written by one writer at a
 * time, on a pool of at most {@code maxStreams} threads, so a write that blocks on one slow reader holds only that
 * stream's writer and never delays another stream. A stream is also dropped when it completes, times out or fails
 * to send (the browser went away); its place is free once its last write has returned. Beyond {@code maxStreams}
 * open streams, or {@code maxPerClient} of one client (a user, or an address or IPv6 /64 when nobody logged in),
 * a new one is refused, so one reader cannot take every stream from the others. {@link #close()} (at context
 * close) stops the threads and completes the open streams.
 */
public final class ConsoleStreams implements AutoCloseable {

    /** Open streams allowed at once, by default. */
    public static final int DEFAULT_MAX_STREAMS = 32;

    /** Open streams allowed at once to one client, by default: a few tabs of one browser. */
    public static final int DEFAULT_MAX_STREAMS_PER_CLIENT = 4;

    /** A stream lives this long; the browser's EventSource then reconnects by itself. */
    static final Duration STREAM_TIMEOUT = Duration.ofMinutes(10);

    /** How long {@link #close} waits for writes under way to return before it finishes their streams. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** Snapshots waiting for one stream's writer; one more, and the stream's reader is too slow: dropped. */
    static final int QUEUE = 5;

    private final Supplier<ConsoleView> views;
    private final int maxStreams;
    private final int maxPerClient;
    /** Each open stream. */
    private final Map<SseEmitter, Stream> streams = new ConcurrentHashMap<>();
    /** Streams per client, open or still in their last write; an entry leaves when its count drops to 0. */
    private final Map<String, Integer> perClient = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final ScheduledExecutorService scheduler;
    private final ThreadPoolExecutor writers;

    public ConsoleStreams(Supplier<ConsoleView> views, int maxStreams, int maxPerClient, Duration period) {
        this.views = views;
        this.maxStreams = maxStreams;
        this.maxPerClient = maxPerClient;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("slotpool-console"));
        // At most one task per stream, and at most maxStreams streams hold a place: a thread each at most.
        this.writers = new ThreadPoolExecutor(maxStreams, maxStreams, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                daemon("slotpool-console-writer"));
        writers.allowCoreThreadTimeOut(true);
        scheduler.scheduleWithFixedDelay(this::tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** What {@link #open} refused. */
    public enum Refusal {
        /** {@code maxStreams} are open. */
        ALL_IN_USE,
        /** This client has {@code maxPerClient} open. */
        CLIENT_LIMIT
    }

    /** A new stream for {@code client}, or why not. */
    public Opened open(String client) {
        boolean[] taken = {false};
        // compute() runs atomically per key: two streams of one client never both pass the limit.
        perClient.compute(client, (k, n) -> {
            int count = n == null ? 0 : n;
            if (count >= maxPerClient) {
                return n;
            }
            taken[0] = true;
            return count + 1;
        });
        if (!taken[0]) {
            return new Opened(null, Refusal.CLIENT_LIMIT);
        }
        if (open.incrementAndGet() > maxStreams) {
            open.decrementAndGet();
            release(client);
            return new Opened(null, Refusal.ALL_IN_USE);
        }
        SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
        Stream stream = new Stream(emitter, client);
        streams.put(emitter, stream);
        emitter.onCompletion(() -> stream.end(false));
        emitter.onTimeout(() -> stream.end(true));
        emitter.onError(e -> stream.end(false));
        scheduler.execute(() -> stream.offer(views.get()));
        return new Opened(emitter, null);
    }

    /** A stream, or (emitter null) why none was opened. */
    public record Opened(SseEmitter emitter, Refusal refusal) {
    }

    /** Streams {@code client} has open now. */
    int openStreams(String client) {
        return perClient.getOrDefault(client, 0);
    }

    /** Streams open now. */
    public int openStreams() {
        return open.get();
    }

    private void tick() {
        if (streams.isEmpty()) {
            return;
        }
        try {
            ConsoleView view = views.get();
            for (Stream s : streams.values()) {
                s.offer(view);
            }
        } catch (RuntimeException e) {
            // The next tick tries again; a failing snapshot must not cancel the schedule.
        }
    }

    private void release(String client) {
        perClient.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1);
    }

    /**
     * One stream: its queue, and the one writer that may hold it ({@code busy}). Whoever holds it when the stream
     * has ended finishes it: completes the emitter when the end was ours, frees the stream's place.
     */
    private final class Stream {

        private final SseEmitter emitter;
        private final String client;
        private final BlockingQueue<ConsoleView> queue = new ArrayBlockingQueue<>(QUEUE);
        private final AtomicBoolean busy = new AtomicBoolean();
        private final AtomicBoolean finished = new AtomicBoolean();
        private volatile boolean ended;
        private volatile boolean complete;

        Stream(SseEmitter emitter, String client) {
            this.emitter = emitter;
            this.client = client;
        }

        /** Queues a snapshot for the writer; a full queue means a reader that cannot keep up: dropped. */
        void offer(ConsoleView view) {
            if (ended) {
                return;
            }
            if (!queue.offer(view)) {
                end(true);
                return;
            }
            if (busy.compareAndSet(false, true)) {
                writers.execute(this::write);
            }
        }

        /** Sends what is queued; holds the stream until the queue is empty or the stream has ended. */
        private void write() {
            while (true) {
                for (ConsoleView v = ended ? null : queue.poll(); v != null; v = ended ? null : queue.poll()) {
                    try {
                        emitter.send(SseEmitter.event().name("snapshot").data(v, MediaType.APPLICATION_JSON));
                    } catch (IOException | IllegalStateException gone) {
                        // The browser went away or the stream completed: the container reports it to the emitter.
                        ended = true;
                    }
                }
                if (ended) {
                    finish();
                    return;
                }
                busy.set(false);
                // A snapshot queued, or an end, after the poll above and before the release finds nobody holding.
                if ((queue.isEmpty() && !ended) || !busy.compareAndSet(false, true)) {
                    return;
                }
            }
        }

        /** No more sends; {@code completeEmitter}: the end is ours (dropped, timed out, closed), not the
         * container's. */
        void end(boolean completeEmitter) {
            complete |= completeEmitter;
            ended = true;
            if (busy.compareAndSet(false, true)) {
                finish();
            }
        }

        /** Called only by the stream's holder, so no write is under way. */
        private void finish() {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            streams.remove(emitter);
            queue.clear();
            if (complete) {
                try {
                    emitter.complete();
                } catch (RuntimeException alreadyDone) {
                    // The container completed it first.
                }
            }
            open.decrementAndGet();
            release(client);
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        for (Stream s : streams.values()) {
            s.end(true);
        }
        writers.shutdownNow();
        try {
            writers.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // A write that shutdownNow dropped before it started leaves its stream busy and never finished; no writer
        // runs now (or one is stuck on a reader past CLOSE_WAIT), so each stream left is finished here.
        for (Stream s : streams.values()) {
            s.finish();
        }
    }
}
