package dev.slotpool.autoconfigure.observation;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolBuilderCustomizer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An Observation around each borrow of the auto-configured pool ({@code slotpool.borrow}) when the application
 * has an {@link ObservationRegistry}. Boot's {@code management.observations.enable.slotpool.borrow=false} turns
 * it off; a {@link BorrowObservationConvention} bean renames or retags it.
 */
@AutoConfiguration(
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ObservationRegistry.class, SlotPoolDataSource.class})
@ConditionalOnBean(ObservationRegistry.class)
public class SlotPoolObservationAutoConfiguration {

    @Bean
    SlotPoolBuilderCustomizer slotPoolBorrowObservation(ObservationRegistry registry,
                                                        ObjectProvider<BorrowObservationConvention> convention) {
        ObservingBorrows observer = new ObservingBorrows(registry, convention.getIfAvailable());
        return builder -> builder.borrowObserver(observer);
    }

    /**
     * The observation is for traces. Its meters would time each borrow a second time next to the borrow timer
     * {@code slotpool.borrow.wait}, and its long-task timer {@code slotpool.borrow.active} is tagged when the borrow
     * starts, before it knows its origin or outcome: both are denied. A {@link BorrowObservationConvention} that
     * renames the observation keeps its meters (docs/operations.md, Borrows in traces).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterFilter.class)
    static class BorrowObservationMeters {

        @Bean
        static MeterFilter slotPoolBorrowObservationMeters() {
            String timer = DefaultBorrowObservationConvention.NAME;
            return MeterFilter.deny(id -> id.getName().equals(timer) || id.getName().equals(timer + ".active"));
        }
    }
}
