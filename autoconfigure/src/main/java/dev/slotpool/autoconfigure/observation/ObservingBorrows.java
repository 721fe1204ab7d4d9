package dev.slotpool.autoconfigure.observation;

import dev.slotpool.BorrowObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.sql.SQLTransientConnectionException;

/**
 * The pool's {@link BorrowObserver} as a Micrometer {@link Observation}: started, and in scope, while the borrow
 * runs, so a trace shows the time a request waited for a connection. With a registry that has no handlers the
 * observation is a no-op and nothing is allocated for it.
 */
public final class ObservingBorrows implements BorrowObserver {

    private static final DefaultBorrowObservationConvention DEFAULT = new DefaultBorrowObservationConvention();

    private final ObservationRegistry registry;
    private final BorrowObservationConvention custom;

    /** {@code custom} replaces the default convention; null keeps it. */
    public ObservingBorrows(ObservationRegistry registry, BorrowObservationConvention custom) {
        this.registry = registry;
        this.custom = custom;
    }

    @Override
    public Object started(String pool) {
        if (registry.isNoop()) {
            return null;
        }
        Observation observation = Observation.createNotStarted(custom, DEFAULT, () -> new BorrowContext(pool),
                registry).start();
        if (observation.isNoop()) {
            return null;
        }
        return new Started(observation, observation.openScope());
    }

    @Override
    public void ended(Object started, String origin, long waitNanos, Throwable failure) {
        if (!(started instanceof Started s)) {
            return;
        }
        s.scope().close();
        BorrowContext context = (BorrowContext) s.observation().getContext();
        BorrowContext.Outcome outcome = failure == null ? BorrowContext.Outcome.OK
                : failure instanceof SQLTransientConnectionException ? BorrowContext.Outcome.TIMEOUT
                : BorrowContext.Outcome.ERROR;
        context.ended(origin, outcome, waitNanos != 0);
        if (failure != null) {
            s.observation().error(failure);
        }
        s.observation().stop();
    }

    private record Started(Observation observation, Observation.Scope scope) {
    }
}
