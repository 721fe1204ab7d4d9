package dev.slotpool.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags a {@code slotpool.borrow} observation; a bean of this type replaces the default. */
public interface BorrowObservationConvention extends ObservationConvention<BorrowContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof BorrowContext;
    }
}
