package dev.slotpool.autoconfigure;

import dev.slotpool.ConfigViolation;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns bad pool configuration into a startup report that names each property, its value and what is allowed. */
class SlotPoolFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSlotPoolPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSlotPoolPropertiesException cause) {
        StringBuilder description = new StringBuilder("The connection pool (slotpool) has invalid configuration:\n");
        for (ConfigViolation v : cause.violations()) {
            description.append("\n    Property: ").append(v.property())
                    .append("\n    Value: ").append(v.value())
                    .append("\n    Reason: ").append(v.problem()).append('\n');
        }
        String action = "Update your application's configuration: each property above names what it accepts. "
                + "Every slotpool.* property's default and range are in the slotpool reference (Configuration "
                + "reference, section \"Spring Boot properties\") and in the configuration metadata the starter "
                + "ships, which IDEs show on slotpool.* keys.";
        return new FailureAnalysis(description.toString(), action, cause);
    }
}
