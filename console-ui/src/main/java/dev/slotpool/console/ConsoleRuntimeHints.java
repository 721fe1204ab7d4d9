package dev.slotpool.console;

import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolViews;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a GraalVM native image needs for the console (registered in {@code META-INF/spring/aot.factories}): its
 * templates and assets, read as class path resources, and the view records it answers with as JSON (its handlers
 * return {@code Object}, so Spring MVC's own hints cannot name them).
 */
public final class ConsoleRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(SlotPoolConsoleAutoConfiguration.TEMPLATES + "*")
                .registerPattern(SlotPoolConsoleAutoConfiguration.ASSETS + "*");
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
                ConsoleViews.class.getDeclaredClasses());
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
                PoolViews.class.getDeclaredClasses());
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), PoolActions.Outcome.class,
                PoolActions.Problem.class);
    }
}
