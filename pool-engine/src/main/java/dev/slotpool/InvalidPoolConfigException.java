package dev.slotpool;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown by {@link SlotPoolBuilder#build()} with every bad setting at once (never a silent rewrite). */
public final class InvalidPoolConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigViolation> violations;

    /**
     * An exception that lists every violation at once.
     *
     * @param violations every violation, in the order the settings are documented
     */
    public InvalidPoolConfigException(List<ConfigViolation> violations) {
        super("invalid slotpool configuration (" + violations.size() + " problem"
                + (violations.size() == 1 ? "" : "s") + "):\n  "
                + violations.stream().map(ConfigViolation::toString).collect(Collectors.joining("\n  ")));
        this.violations = List.copyOf(violations);
    }

    /** {@return every violation, in the order the settings are documented} */
    public List<ConfigViolation> violations() {
        return violations;
    }
}
