package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.ConsoleView;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The console's server-sent-event streams: one per open page. One daemon thread for the whole console sends
 * every open stream a {@code snapshot} event when it opens and then every period; only that thread sends, so a
 * stream is never written by two threads. A stream is dropped when it completes, times out or fails to send
 * (the browser went away); beyond {@code maxStreams} open streams, or {@code maxPerClient} of one client (a user,
 * or an address when nobody logged in), a new one is refused, so one reader cannot take every stream from the
 * others. {@link #close()} (at context close) stops the thread and completes the open streams.
 */
public final class ConsoleStreams implements AutoCloseable {

    /** Open streams allowed at once, by default. */
    public static final int DEFAULT_MAX_STREAMS = 32;

    /** Open streams allowed at once to one client, by default: a few tabs of one browser. */
    public static final int DEFAULT_MAX_STREAMS_PER_CLIENT = 4;

    /** A stream lives this long; the browser's EventSource then reconnects by itself. */
    static final Duration STREAM_TIMEOUT = Duration.ofMinutes(10);

    private final Supplier<ConsoleView> views;
    private final int maxStreams;
    private final int maxPerClient;
    /** Each open stream and its client. */
    private final Map<SseEmitter, String> emitters = new ConcurrentHashMap<>();
    /** Open streams per client; an entry leaves when its count drops to 0. */
    private final Map<String, Integer> perClient = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final ScheduledExecutorService scheduler;

    public ConsoleStreams(Supplier<ConsoleView> views, int maxStreams, int maxPerClient, Duration period) {
        this.views = views;
        this.maxStreams = maxStreams;
        this.maxPerClient = maxPerClient;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slotpool-console");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
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
        emitters.put(emitter, client);
        emitter.onCompletion(() -> remove(emitter));
        emitter.onTimeout(() -> {
            remove(emitter);
            emitter.complete();
        });
        emitter.onError(e -> remove(emitter));
        scheduler.execute(() -> send(emitter, views.get()));
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
        if (emitters.isEmpty()) {
            return;
        }
        try {
            ConsoleView view = views.get();
            for (SseEmitter e : emitters.keySet()) {
                send(e, view);
            }
        } catch (RuntimeException e) {
            // The next tick tries again; a failing snapshot must not cancel the schedule.
        }
    }

    private void send(SseEmitter emitter, ConsoleView view) {
        if (!emitters.containsKey(emitter)) {
            return;
        }
        try {
            emitter.send(SseEmitter.event().name("snapshot").data(view, MediaType.APPLICATION_JSON));
        } catch (IOException | IllegalStateException gone) {
            // The browser went away or the stream completed: the container reports the error to the emitter.
            remove(emitter);
        }
    }

    private void remove(SseEmitter emitter) {
        String client = emitters.remove(emitter);
        if (client != null) {
            open.decrementAndGet();
            release(client);
        }
    }

    private void release(String client) {
        perClient.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        for (SseEmitter e : emitters.keySet()) {
            remove(e);
            e.complete();
        }
    }
}
