package dev.slotpool.autoconfigure.observation;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolBuilderCustomizer;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

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
}
