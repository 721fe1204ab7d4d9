package dev.slotpool.autoconfigure;

import dev.slotpool.ConfigViolation;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Bad {@code slotpool.*} (or {@code spring.datasource.*}) values, each named as the user wrote it. Startup fails
 * with it; {@link SlotPoolFailureAnalyzer} turns it into Boot's failure report. Values are already redacted.
 */
public final class InvalidSlotPoolPropertiesException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigViolation> violations;

    public InvalidSlotPoolPropertiesException(List<ConfigViolation> violations) {
        super("invalid slotpool configuration: " + violations.stream()
                .map(v -> v.property() + "=" + v.value() + " (" + v.problem() + ")")
                .collect(Collectors.joining("; ")));
        this.violations = List.copyOf(violations);
    }

    /** Every bad property, with its (redacted) value and what is allowed. */
    public List<ConfigViolation> violations() {
        return violations;
    }
}
