package dev.slotpool.autoconfigure.oracle;

import oracle.simplefan.FanEventListener;
import oracle.simplefan.FanManager;
import oracle.simplefan.FanSubscription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The subscriber's life cycle against a mocked simplefan {@link FanManager} (its configure and subscribe are what
 * an unreachable ONS or a second configuration make fail); the real FanManager is in
 * {@code OracleFanAutoConfigurationTest}.
 */
@ExtendWith(OutputCaptureExtension.class)
class FanSubscriberTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FanManager manager = mock(FanManager.class);
    private final FanEventListener listener = mock(FanEventListener.class);

    private static FanSettings settings(String ons, String walletPassword, String... services) {
        return new FanSettings(List.of(services), ons, walletPassword == null ? null : "/etc/ons-wallet",
                walletPassword, null);
    }

    @Test
    void configuresOnceSubscribesPerServiceAndClosesEverySubscriptionOnStop() throws Exception {
        FanSubscription sales = mock(FanSubscription.class);
        FanSubscription hr = mock(FanSubscription.class);
        when(manager.subscribe(any())).thenReturn(sales, hr);
        FanSubscriber subscriber = new FanSubscriber(() -> manager,
                settings("nodes=rac1:6200,rac2:6200", "wallet-secret", "sales", "hr"), listener);

        subscriber.start();
        assertThat(subscriber.awaitAttempt(WAIT)).isEqualTo(FanSubscriber.Status.SUBSCRIBED);

        ArgumentCaptor<Properties> configure = ArgumentCaptor.forClass(Properties.class);
        verify(manager).configure(configure.capture());
        assertThat(configure.getValue()).containsOnlyKeys("onsRemoteConfig");
        assertThat(configure.getValue().getProperty("onsRemoteConfig")).isEqualTo(
                "nodes=rac1:6200,rac2:6200\nwalletfile=/etc/ons-wallet\nwalletpassword=wallet-secret");
        ArgumentCaptor<Properties> subscribe = ArgumentCaptor.forClass(Properties.class);
        verify(manager, times(2)).subscribe(subscribe.capture());
        assertThat(subscribe.getAllValues()).extracting(p -> p.getProperty("serviceName"))
                .containsExactly("sales", "hr");
        assertThat(subscribe.getAllValues()).allSatisfy(p -> assertThat(p).hasSize(1));
        verify(sales).addListener(listener);
        verify(hr).addListener(listener);
        assertThat(subscriber.isRunning()).isTrue();

        subscriber.stop();
        verify(sales).close();
        verify(hr).close();
        assertThat(subscriber.isRunning()).isFalse();
        assertThat(subscriber.status()).isEqualTo(FanSubscriber.Status.STOPPED);
    }

    @Test
    void withoutAnOnsConfigurationSimplefanIsNotConfigured() throws Exception {
        when(manager.subscribe(any())).thenReturn(mock(FanSubscription.class));
        FanSubscriber subscriber = new FanSubscriber(() -> manager, settings(null, null, "sales"), listener);

        subscriber.start();

        assertThat(subscriber.awaitAttempt(WAIT)).isEqualTo(FanSubscriber.Status.SUBSCRIBED);
        verify(manager, never()).configure(any());
        subscriber.stop();
    }

    @Test
    void anUnreachableOnsIsAWarningWithoutTheWalletPassword(CapturedOutput output) throws Exception {
        // What simplefan 23.x throws after ~30 s when no ONS daemon answers (its cause is ONS's NoServersAvailable).
        doThrow(new IllegalArgumentException("ONS configuration failed",
                new RuntimeException("Server time out (walletpassword=wallet-secret)")))
                .when(manager).configure(any());
        FanSubscriber subscriber = new FanSubscriber(() -> manager,
                settings("nodes=rac1:6200", "wallet-secret", "sales"), listener);

        subscriber.start();

        assertThat(subscriber.awaitAttempt(WAIT)).isEqualTo(FanSubscriber.Status.FAILED);
        assertThat(subscriber.isRunning()).as("the application keeps running").isTrue();
        verify(manager, never()).subscribe(any());
        assertThat(output).contains("WARN", "Oracle FAN: could not configure simplefan with nodes=rac1:6200 "
                        + "with a wallet", "ONS configuration failed", "Server time out",
                        "keeps running without FAN events")
                .doesNotContain("wallet-secret");
        subscriber.stop();
    }

    @Test
    void aFanManagerConfiguredBeforeIsUsedAsItIs(CapturedOutput output) throws Exception {
        doThrow(new IllegalStateException("attempt to configure oracle.simplefan.FanManager more than once"))
                .when(manager).configure(any());
        when(manager.subscribe(any())).thenReturn(mock(FanSubscription.class));
        FanSubscriber subscriber = new FanSubscriber(() -> manager, settings("nodes=rac1:6200", null, "sales"),
                listener);

        subscriber.start();

        assertThat(subscriber.awaitAttempt(WAIT)).isEqualTo(FanSubscriber.Status.SUBSCRIBED);
        assertThat(output).contains("already configured in this JVM");
        subscriber.stop();
    }

    @Test
    void oneServiceFailingLeavesTheOthersSubscribed(CapturedOutput output) throws Exception {
        FanSubscription hr = mock(FanSubscription.class);
        when(manager.subscribe(any()))
                .thenThrow(new IllegalArgumentException("unable to create ONS subscriber with properties provided"))
                .thenReturn(hr);
        FanSubscriber subscriber = new FanSubscriber(() -> manager, settings(null, null, "sales", "hr"), listener);

        subscriber.start();

        assertThat(subscriber.awaitAttempt(WAIT)).isEqualTo(FanSubscriber.Status.FAILED);
        verify(hr).addListener(listener);
        assertThat(output).contains("could not subscribe to service sales", "subscribed to service(s) [hr]");
        subscriber.stop();
        verify(hr).close();
    }

    @Test
    void aSubscriptionThatCompletesAfterStopIsClosedNotLeaked() throws Exception {
        CountDownLatch inSubscribe = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FanSubscription late = mock(FanSubscription.class);
        when(manager.subscribe(any())).thenAnswer(inv -> {
            inSubscribe.countDown();
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            return late;
        });
        FanSubscriber subscriber = new FanSubscriber(() -> manager, settings(null, null, "sales"), listener);

        subscriber.start();
        assertThat(inSubscribe.await(10, TimeUnit.SECONDS)).isTrue();
        subscriber.stop();
        release.countDown();

        assertThat(subscriber.awaitAttempt(WAIT)).isEqualTo(FanSubscriber.Status.STOPPED);
        verify(late).close();
    }
}
