package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.ConsoleView;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
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
 * (the browser went away); beyond {@code maxStreams} open streams a new one is refused. {@link #close()} (at
 * context close) stops the thread and completes the open streams.
 */
public final class ConsoleStreams implements AutoCloseable {

    /** Open streams allowed at once, by default. */
    public static final int DEFAULT_MAX_STREAMS = 32;

    /** A stream lives this long; the browser's EventSource then reconnects by itself. */
    static final Duration STREAM_TIMEOUT = Duration.ofMinutes(10);

    private final Supplier<ConsoleView> views;
    private final int maxStreams;
    private final Set<SseEmitter> emitters = ConcurrentHashMap.newKeySet();
    private final AtomicInteger open = new AtomicInteger();
    private final ScheduledExecutorService scheduler;

    public ConsoleStreams(Supplier<ConsoleView> views, int maxStreams, Duration period) {
        this.views = views;
        this.maxStreams = maxStreams;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slotpool-console");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A new stream, or empty when {@code maxStreams} are open. */
    public Optional<SseEmitter> open() {
        if (open.incrementAndGet() > maxStreams) {
            open.decrementAndGet();
            return Optional.empty();
        }
        SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
        emitters.add(emitter);
        emitter.onCompletion(() -> remove(emitter));
        emitter.onTimeout(() -> {
            remove(emitter);
            emitter.complete();
        });
        emitter.onError(e -> remove(emitter));
        scheduler.execute(() -> send(emitter, views.get()));
        return Optional.of(emitter);
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
            for (SseEmitter e : emitters) {
                send(e, view);
            }
        } catch (RuntimeException e) {
            // The next tick tries again; a failing snapshot must not cancel the schedule.
        }
    }

    private void send(SseEmitter emitter, ConsoleView view) {
        if (!emitters.contains(emitter)) {
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
        if (emitters.remove(emitter)) {
            open.decrementAndGet();
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        for (SseEmitter e : emitters) {
            remove(e);
            e.complete();
        }
    }
}
