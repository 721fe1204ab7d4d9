package dev.slotpool.autoconfigure.oracle;

import oracle.simplefan.FanEventListener;
import oracle.simplefan.FanManager;
import oracle.simplefan.FanSubscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Subscribes the {@link FanEventMapper} to simplefan once the context has started, one subscription per service
 * of the pool's origins, and closes the subscriptions when the context stops (before the pool closes: lifecycle
 * beans stop before singletons are destroyed).
 *
 * <p>The subscription runs on its own daemon thread ({@code slotpool-fan-subscriber}): simplefan's
 * {@code FanManager.configure} blocks for about 30 seconds when no ONS daemon answers, and startup should not
 * wait for an optimisation. Any failure (no ONS reachable, no Oracle home for simplefan's default configuration,
 * the {@code ons} jar missing) is logged at WARN with the reason, and the application keeps running: origins are
 * then still marked DOWN by failed connects and validations ({@code slotpool.down-after-failures}). There is no
 * retry; FAN starts working after a restart once ONS is reachable. simplefan's {@code FanManager} is one per JVM
 * and can be configured only once: when something else configured it first (UCP, an earlier context), its
 * configuration is used and {@code slotpool.oracle.fan.ons-configuration} is not applied (logged at INFO).
 */
public final class FanSubscriber implements SmartLifecycle {

    /** Where a subscription attempt stands. */
    public enum Status {
        /** Not started, or stopped. */
        STOPPED,
        /** The subscriber thread is configuring simplefan or subscribing. */
        SUBSCRIBING,
        /** Subscribed to every service. */
        SUBSCRIBED,
        /** Subscribed to some services only, or to none; the reasons were logged at WARN. */
        FAILED
    }

    private static final Log log = LogFactory.getLog(FanSubscriber.class);

    private final Supplier<FanManager> manager;
    private final FanSettings settings;
    private final FanEventListener listener;

    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private final List<FanSubscription> subscriptions = new ArrayList<>();
    /** Guarded by {@link #lock}. */
    private boolean running;
    private volatile Status status = Status.STOPPED;
    private volatile CountDownLatch attempt = new CountDownLatch(0);

    FanSubscriber(Supplier<FanManager> manager, FanSettings settings, FanEventListener listener) {
        this.manager = Objects.requireNonNull(manager, "manager");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (running) {
                return;
            }
            running = true;
            status = Status.SUBSCRIBING;
            attempt = new CountDownLatch(1);
        }
        CountDownLatch done = attempt;
        Thread t = new Thread(() -> {
            try {
                subscribe();
            } finally {
                done.countDown();
            }
        }, "slotpool-fan-subscriber");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void stop() {
        List<FanSubscription> open;
        synchronized (lock) {
            running = false;
            open = new ArrayList<>(subscriptions);
            subscriptions.clear();
            status = Status.STOPPED;
        }
        for (FanSubscription s : open) {
            close(s);
        }
        if (!open.isEmpty()) {
            log.info("Oracle FAN: closed " + open.size() + " subscription(s)");
        }
    }

    @Override
    public boolean isRunning() {
        synchronized (lock) {
            return running;
        }
    }

    /** Where the subscription stands (for tests and diagnostics). */
    public Status status() {
        return status;
    }

    /** Waits until the current subscription attempt has finished; returns the status then. */
    Status awaitAttempt(Duration timeout) throws InterruptedException {
        if (!attempt.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the FAN subscription attempt is still running after " + timeout);
        }
        return status;
    }

    private void subscribe() {
        FanManager fan;
        try {
            fan = manager.get();
            configure(fan);
        } catch (RuntimeException | LinkageError e) {
            finish(Status.FAILED);
            warn("could not configure simplefan with " + settings.describeOns(), e);
            return;
        }
        List<String> subscribed = new ArrayList<>();
        for (String service : settings.services()) {
            Properties p = new Properties();
            p.setProperty(FanSettings.SERVICE_NAME, service);
            try {
                FanSubscription s = fan.subscribe(p);
                s.addListener(listener);
                synchronized (lock) {
                    if (!running) { // stopped while we were subscribing: do not leak it
                        close(s);
                        return;
                    }
                    subscriptions.add(s);
                }
                subscribed.add(service);
            } catch (RuntimeException | LinkageError e) {
                warn("could not subscribe to service " + service + " (ONS: " + settings.describeOns() + ")", e);
            }
        }
        if (!subscribed.isEmpty()) {
            log.info("Oracle FAN: subscribed to service(s) " + subscribed + " (ONS: " + settings.describeOns()
                    + "); events drain, mark down, mark up and rebalance the matching origins");
        }
        finish(subscribed.size() == settings.services().size() ? Status.SUBSCRIBED : Status.FAILED);
    }

    private void configure(FanManager fan) {
        Properties p = settings.configureProperties();
        if (p == null) {
            return;
        }
        try {
            fan.configure(p);
        } catch (IllegalStateException alreadyConfigured) {
            log.info("Oracle FAN: simplefan's FanManager was already configured in this JVM (by UCP, the driver or "
                    + "an earlier context); using that configuration, slotpool.oracle.fan.ons-configuration is not "
                    + "applied");
        }
    }

    private void finish(Status outcome) {
        synchronized (lock) {
            if (running) {
                status = outcome;
            }
        }
    }

    private void warn(String what, Throwable e) {
        StringBuilder reason = new StringBuilder(String.valueOf(e));
        Throwable c = e.getCause();
        for (int depth = 0; c != null && depth < 5; c = c.getCause(), depth++) {
            reason.append("; caused by ").append(c);
        }
        if (e instanceof LinkageError) {
            reason.append(" (simplefan needs com.oracle.database.ha:ons on the class path)");
        }
        log.warn("Oracle FAN: " + what + ": " + settings.redact(reason.toString()) + ". The application keeps "
                + "running without FAN events; origins are still marked DOWN by failed connects and validations "
                + "(slotpool.down-after-failures).");
    }

    private static void close(FanSubscription s) {
        try {
            s.close();
        } catch (RuntimeException e) {
            log.debug("Oracle FAN: closing a subscription failed: " + e);
        }
    }
}
