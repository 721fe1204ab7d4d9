package dev.slotpool.console;

import dev.slotpool.PoolEvent;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.console.ConsoleViews.EventRow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The event log's filters, as {@code GET {path}/events} takes them (docs/console.md, Event log): {@code origin}
 * and {@code type}, each repeated or comma-separated, any of the values matching; blank values are values not
 * given. Parsed before the log is read: an origin neither the pool nor the log knows, or a type that is not an
 * event type, is refused with a message naming the known ones.
 *
 * @param origins the origin names asked for, empty for every event
 * @param types   the event types asked for, empty for every type
 */
record EventFilter(List<String> origins, List<String> types) implements Predicate<EventRow> {

    /**
     * The filter of a request's parameters (null when absent).
     *
     * @param knownOrigins the pool's origins and those the log names
     * @throws IllegalArgumentException naming the bad value and the known ones
     */
    static EventFilter of(List<String> origins, List<String> types, Collection<String> knownOrigins) {
        List<String> o = given(origins);
        for (String name : o) {
            if (!knownOrigins.contains(name)) {
                throw new IllegalArgumentException("unknown origin '" + PoolActionInput.quoted(name)
                        + "' (known origins: " + String.join(", ", knownOrigins) + ")");
            }
        }
        List<String> k = new ArrayList<>();
        for (String given : given(types)) {
            String type = given.toUpperCase(Locale.ROOT);
            if (Arrays.stream(PoolEvent.Type.values()).noneMatch(t -> t.name().equals(type))) {
                throw new IllegalArgumentException("unknown type '" + PoolActionInput.quoted(given) + "' (types: "
                        + String.join(", ", Arrays.stream(PoolEvent.Type.values()).map(Enum::name).toList()) + ")");
            }
            k.add(type);
        }
        return new EventFilter(List.copyOf(o), List.copyOf(k));
    }

    private static List<String> given(List<String> values) {
        return values == null ? List.of() : values.stream().map(String::trim).filter(v -> !v.isEmpty()).distinct()
                .toList();
    }

    @Override
    public boolean test(EventRow e) {
        return (origins.isEmpty() || origins.contains(e.origin())) && (types.isEmpty() || types.contains(e.type()));
    }
}
