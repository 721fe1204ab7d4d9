package dev.slotpool.console;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The pools the console shows (docs/console.md, Several pools), by their keys ({@link SlotPools}), each with its
 * view source, its streams and its chart history. The first pool is shown when a request names none.
 */
public final class ConsolePools implements AutoCloseable {

    /** One pool as the console sees it. */
    public record ConsolePool(String key, SlotPoolDataSource pool, ConsoleViewSource views, ConsoleStreams streams,
                              ConsoleHistory history) {
    }

    private final Map<String, ConsolePool> pools = new LinkedHashMap<>();

    public ConsolePools(SlotPools pools, Function<SlotPoolDataSource, ConsoleViewSource> views,
                        Function<ConsoleViewSource, ConsoleStreams> streams,
                        Function<SlotPoolDataSource, ConsoleHistory> history) {
        pools.all().forEach((key, pool) -> {
            ConsoleViewSource v = views.apply(pool);
            this.pools.put(key, new ConsolePool(key, pool, v, streams.apply(v), history.apply(pool)));
        });
    }

    /** The pool named {@code key}, or the first one when {@code key} is null; empty for an unknown key. */
    public Optional<ConsolePool> get(String key) {
        return key == null ? pools.values().stream().findFirst() : Optional.ofNullable(pools.get(key));
    }

    /** Every pool's history, for the one sampler. */
    List<ConsoleHistory> histories() {
        return pools.values().stream().map(ConsolePool::history).toList();
    }

    public List<String> keys() {
        return List.copyOf(pools.keySet());
    }

    /** Whether the page needs a picker and its requests a {@code pool} parameter. */
    public boolean several() {
        return pools.size() > 1;
    }

    @Override
    public void close() {
        pools.values().forEach(p -> p.streams().close());
    }
}
