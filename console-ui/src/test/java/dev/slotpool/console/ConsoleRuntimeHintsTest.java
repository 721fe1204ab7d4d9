package dev.slotpool.console;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's native-image hints: its templates and assets, and every view record it serializes. */
class ConsoleRuntimeHintsTest {

    @Test
    void templatesAssetsAndViewsAreCovered() {
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
                .load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(ConsoleRuntimeHints.class);
        RuntimeHints hints = new RuntimeHints();
        new ConsoleRuntimeHints().registerHints(hints, getClass().getClassLoader());
        for (String resource : new String[] {SlotPoolConsoleAutoConfiguration.TEMPLATES + "console.html",
                SlotPoolConsoleAutoConfiguration.ASSETS + "console.js", SlotPoolConsoleAutoConfiguration.ASSETS + "console.css"}) {
            assertThat(getClass().getClassLoader().getResource(resource)).as(resource).isNotNull();
            assertThat(RuntimeHintsPredicates.resource().forResource(resource)).as(resource).accepts(hints);
        }
        assertThat(ConsoleViews.class.getDeclaredClasses()).hasSizeGreaterThan(5);
        for (Class<?> view : ConsoleViews.class.getDeclaredClasses()) {
            assertThat(RuntimeHintsPredicates.reflection().onType(view)).as("%s", view).accepts(hints);
        }
    }
}
