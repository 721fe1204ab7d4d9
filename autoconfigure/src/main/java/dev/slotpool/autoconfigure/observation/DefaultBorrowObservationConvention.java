package dev.slotpool.autoconfigure.observation;

import io.micrometer.common.KeyValues;

import java.util.Locale;

/**
 * {@code slotpool.borrow}, with low-cardinality keys {@code pool}, {@code origin} ({@code none} when the borrow
 * failed), {@code outcome} ({@code ok}, {@code timeout}, {@code error}) and {@code waited} ({@code true} when the
 * borrow did not get a connection at once).
 */
public class DefaultBorrowObservationConvention implements BorrowObservationConvention {

    public static final String NAME = "slotpool.borrow";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(BorrowContext context) {
        return "slotpool borrow";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(BorrowContext context) {
        BorrowContext.Outcome outcome = context.getOutcome();
        return KeyValues.of("pool", context.getPool(),
                "origin", context.getOrigin() == null ? "none" : context.getOrigin(),
                "outcome", outcome == null ? "unknown" : outcome.name().toLowerCase(Locale.ROOT),
                "waited", Boolean.toString(context.isWaited()));
    }
}
