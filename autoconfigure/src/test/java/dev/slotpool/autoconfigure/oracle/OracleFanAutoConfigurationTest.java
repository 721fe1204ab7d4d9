package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.ConfigViolation;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.InvalidSlotPoolPropertiesException;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import oracle.simplefan.FanManager;
import oracle.simplefan.ServiceDownEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** The FAN adapter's conditions and its failure paths, without booting an app. */
@ExtendWith(OutputCaptureExtension.class)
class OracleFanAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                    OracleFanAutoConfiguration.class));

    /** Two origins of service sales, on the stub driver. */
    private static String[] origins(String... more) {
        return Stream.concat(Stream.of(
                "slotpool.min-size=1",
                "slotpool.origins[0].name=east",
                "slotpool.origins[0].url=" + StubDatabase.reset("fanctx-east").url(),
                "slotpool.origins[0].service=sales",
                "slotpool.origins[0].instance=orcl1",
                "slotpool.origins[0].host=rac1",
                "slotpool.origins[1].name=west",
                "slotpool.origins[1].url=" + StubDatabase.reset("fanctx-west").url(),
                "slotpool.origins[1].service=sales",
                "slotpool.origins[1].instance=orcl2",
                "slotpool.origins[1].host=rac2"), Stream.of(more)).toArray(String[]::new);
    }

    @Test
    void offByDefault() {
        runner.withPropertyValues(origins()).run(ctx -> {
            assertThat(ctx).hasSingleBean(SlotPoolDataSource.class);
            assertThat(ctx).doesNotHaveBean(FanSubscriber.class).doesNotHaveBean(FanEventMapper.class);
        });
    }

    @Test
    void backsOffWithoutSimplefanOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader(FanManager.class))
                .withPropertyValues(origins("slotpool.oracle.fan.enabled=true"))
                .run(ctx -> {
                    assertThat(ctx).hasSingleBean(SlotPoolDataSource.class);
                    assertThat(ctx).doesNotHaveBean(FanSubscriber.class);
                });
    }

    @Test
    void backsOffWithoutASlotpoolDataSource() {
        runner.withPropertyValues(origins("slotpool.enabled=false", "slotpool.oracle.fan.enabled=true"))
                .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(FanSubscriber.class));
    }

    /**
     * With the real simplefan and no ONS configuration, simplefan looks for an Oracle home's ons.config, finds
     * none and refuses the subscription at once: the warning is logged and the context, and its pool, still work.
     */
    @Test
    void enabledSubscribesAtStartAndAFailedSubscriptionOnlyWarns(CapturedOutput output) throws Exception {
        assumeTrue(System.getenv("ORACLE_HOME") == null && System.getProperty("oracle.ons.oraclehome") == null
                        && System.getProperty("oracle.ons.oracleconfighome") == null
                        && System.getProperty("oracle.ons.oraclebasehome") == null,
                "an Oracle home could give simplefan a working default ONS configuration");
        AtomicReference<FanSubscriber> started = new AtomicReference<>();
        runner.withPropertyValues(origins("slotpool.oracle.fan.enabled=true")).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(FanSubscriber.class).hasSingleBean(FanEventMapper.class);
            FanSubscriber subscriber = ctx.getBean(FanSubscriber.class);
            started.set(subscriber);
            assertThat(subscriber.awaitAttempt(Duration.ofSeconds(30))).isEqualTo(FanSubscriber.Status.FAILED);
            assertThat(subscriber.isRunning()).isTrue();
            assertThat(output).contains("Oracle FAN: could not subscribe to service sales",
                    "Oracle home is not set", "keeps running without FAN events");
            try (Connection c = ctx.getBean(SlotPoolDataSource.class).getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
        });
        assertThat(started.get().isRunning()).as("stopped with the context").isFalse();
    }

    /**
     * The drain each origin gets, read from its {@code UP -> DRAINING} event rather than its state: an origin with
     * no connection is drained at once and turns DOWN ("drained") on the housekeeper's next wake.
     */
    @Test
    void theDrainTimeoutDefaultReachesTheMapper() {
        List<String> drains = new CopyOnWriteArrayList<>();
        PoolListener recorder = new PoolListener() {
            @Override
            public void onEvent(PoolEvent e) {
                if (e.type() == PoolEvent.Type.ORIGIN_STATE && e.detail().startsWith("UP -> DRAINING")) {
                    drains.add(e.origin() + ": " + e.detail());
                }
            }
        };
        runner.withBean(PoolListener.class, () -> recorder)
                .withPropertyValues(origins("slotpool.oracle.fan.enabled=true",
                        "slotpool.oracle.fan.drain-timeout-default=90s", "slotpool.housekeeping-period=10m"))
                .run(ctx -> {
                    ServiceDownEvent planned = mock(ServiceDownEvent.class);
                    when(planned.getServiceName()).thenReturn("sales");
                    when(planned.getReason()).thenReturn(ServiceDownEvent.Reason.USER);
                    ctx.getBean(FanEventMapper.class).handleEvent(planned);

                    assertThat(drains).containsExactlyInAnyOrder(
                            "east: UP -> DRAINING: drain requested (timeout 90000 ms)",
                            "west: UP -> DRAINING: drain requested (timeout 90000 ms)");
                    assertThat(ctx.getBean(SlotPoolDataSource.class).snapshot().origins())
                            .allSatisfy(o -> assertThat(o.state()).isIn(OriginState.DRAINING, OriginState.DOWN));
                });
    }

    @Test
    void enabledWithoutAnyServiceFailsStartupNamingTheProperty() {
        runner.withPropertyValues("slotpool.oracle.fan.enabled=true",
                        "spring.datasource.url=" + StubDatabase.reset("fanctx-plain").url())
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    assertThat(ctx.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidSlotPoolPropertiesException.class);
                    InvalidSlotPoolPropertiesException e =
                            (InvalidSlotPoolPropertiesException) rootCause(ctx.getStartupFailure());
                    assertThat(e.violations()).extracting(ConfigViolation::property)
                            .containsExactly("slotpool.oracle.fan.enabled");
                });
    }

    @Test
    void badFanSettingsFailStartupTogetherWithoutPrintingTheWalletPassword() {
        runner.withPropertyValues(origins("slotpool.oracle.fan.enabled=true",
                        "slotpool.oracle.fan.ons-configuration=rac1:6200,rac2:6200",
                        "slotpool.oracle.fan.drain-timeout-default=-1s"))
                .run(ctx -> {
                    assertThat(ctx).hasFailed();
                    InvalidSlotPoolPropertiesException e =
                            (InvalidSlotPoolPropertiesException) rootCause(ctx.getStartupFailure());
                    assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly(
                            "slotpool.oracle.fan.ons-configuration", "slotpool.oracle.fan.drain-timeout-default");
                });
        runner.withPropertyValues(origins("slotpool.oracle.fan.enabled=true",
                        "slotpool.oracle.fan.wallet-password=wallet-secret"))
                .run(ctx -> {
                    InvalidSlotPoolPropertiesException e =
                            (InvalidSlotPoolPropertiesException) rootCause(ctx.getStartupFailure());
                    assertThat(e.violations()).extracting(ConfigViolation::toString).singleElement()
                            .asString().contains("slotpool.oracle.fan.wallet-password")
                            .doesNotContain("wallet-secret");
                    assertThat(e.getMessage()).doesNotContain("wallet-secret");
                });
    }

    private static Throwable rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c;
    }
}
