package dev.slotpool;

/**
 * One bad setting found by {@link SlotPoolBuilder#build()}.
 *
 * @param property the builder property, as named in {@code docs/configuration.md} (e.g. {@code minSize},
 *                 {@code origins[east].weight})
 * @param value    the rejected value, already redacted (never a password)
 * @param problem  what is wrong and what is allowed
 */
public record ConfigViolation(String property, String value, String problem) {

    @Override
    public String toString() {
        return property + " = " + value + ": " + problem;
    }
}
