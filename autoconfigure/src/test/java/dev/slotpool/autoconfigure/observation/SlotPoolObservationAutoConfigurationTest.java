package dev.slotpool.autoconfigure.observation;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.testsupport.StubDatabase;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/** The auto-configured pool is observed when, and only when, the application has an ObservationRegistry. */
class SlotPoolObservationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class,
                    DataSourceAutoConfiguration.class, SlotPoolObservationAutoConfiguration.class));

    @Test
    void withARegistryEachBorrowIsObserved() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        runner.withBean(TestObservationRegistry.class, () -> registry)
                .withPropertyValues("spring.datasource.url=" + StubDatabase.reset("obs-ctx").url())
                .run(ctx -> {
                    SlotPoolDataSource ds = ctx.getBean(SlotPoolDataSource.class);
                    assertThat(ds.config().borrowObserver()).isInstanceOf(ObservingBorrows.class);
                    try (Connection c = ds.getConnection()) {
                        assertThat(c.isValid(1)).isTrue();
                    }
                    assertThat(registry).hasSingleObservationThat().hasNameEqualTo("slotpool.borrow")
                            .hasLowCardinalityKeyValue("pool", ds.config().name()).hasBeenStopped();
                });
    }

    @Test
    void bootsRegistryObservesAndItsPropertyTurnsTheObservationOff() {
        List<String> handled = new CopyOnWriteArrayList<>();
        ObservationHandler<Observation.Context> recording = new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                handled.add(context.getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        };
        ApplicationContextRunner boot = runner
                .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withBean("recording", ObservationHandler.class, () -> recording);
        boot.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("obs-boot").url()).run(ctx -> {
            try (Connection c = ctx.getBean(SlotPoolDataSource.class).getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
            assertThat(handled).containsExactly("slotpool.borrow");
        });
        handled.clear();
        boot.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("obs-off").url(),
                "management.observations.enable.slotpool.borrow=false").run(ctx -> {
            try (Connection c = ctx.getBean(SlotPoolDataSource.class).getConnection()) {
                assertThat(c.isValid(1)).isTrue();
            }
            assertThat(handled).as("turned off by name").isEmpty();
        });
    }

    @Test
    void withoutARegistryNothingIsObserved() {
        runner.withPropertyValues("spring.datasource.url=" + StubDatabase.reset("obs-none").url())
                .run(ctx -> assertThat(ctx.getBean(SlotPoolDataSource.class).config().borrowObserver()).isNull());
    }
}
