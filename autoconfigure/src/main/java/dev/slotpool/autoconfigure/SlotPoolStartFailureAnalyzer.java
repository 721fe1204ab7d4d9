package dev.slotpool.autoconfigure;

import dev.slotpool.PoolInitializationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a pool that could not open a first connection into a startup report: each origin and why it failed. */
class SlotPoolStartFailureAnalyzer extends AbstractFailureAnalyzer<PoolInitializationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, PoolInitializationException cause) {
        String description = "The connection pool (slotpool) could not connect to any database:\n\n"
                + cause.getMessage().replace("\n    ", "\n\n    ") + "\n";
        String action = "Check that at least one origin is reachable and that its URL and credentials are right "
                + "(the reason of each origin is above). To start without a connection and keep trying in the "
                + "background, leave slotpool.initialization-fail-timeout unset or set "
                + "slotpool.initialization-fail-timeout=-1.";
        return new FailureAnalysis(description, action, cause);
    }
}
