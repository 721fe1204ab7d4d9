package dev.slotpool.autoconfigure;

import dev.slotpool.NativeImageProxies;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The native-image hints cover every proxy the engine creates and every class Spring instantiates by name. */
class SlotPoolRuntimeHintsTest {

    private final RuntimeHints hints = registered();

    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        new SlotPoolRuntimeHints().registerHints(hints, SlotPoolRuntimeHintsTest.class.getClassLoader());
        return hints;
    }

    @Test
    void theRegistrarIsListedForSpringAot() {
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
                .load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(SlotPoolRuntimeHints.class);
    }

    @Test
    void everyProxyTheEngineCreatesIsCovered() {
        List<List<Class<?>>> sets = NativeImageProxies.interfaceSets();
        // The closed sentinels: connection, statement (callable), result set, metadata.
        assertThat(sets).hasSize(4);
        for (List<Class<?>> interfaces : sets) {
            assertThat(RuntimeHintsPredicates.proxies().forInterfaces(interfaces.toArray(Class<?>[]::new)))
                    .as("proxy %s", interfaces).accepts(hints);
        }
    }

    @Test
    void everyFactoryOfThisModuleCanBeInstantiated() {
        List<String> factories = SlotPoolRuntimeHints.factories(getClass().getClassLoader());
        assertThat(factories).contains(SlotPoolFailureAnalyzer.class.getName());
        for (String factory : factories) {
            assertThat(RuntimeHintsPredicates.reflection().onType(org.springframework.aot.hint.TypeReference.of(factory))
                    .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as(factory).accepts(hints);
        }
    }

    @Test
    void propertiesBindAndEndpointViewsSerialize() {
        for (Class<?> type : new Class<?>[] {SlotPoolProperties.class, SlotPoolProperties.Console.class,
                SlotPoolProperties.Origin.class}) {
            assertThat(RuntimeHintsPredicates.reflection().onType(type)).as("%s", type).accepts(hints);
        }
        Class<?>[] views = SlotPoolRuntimeHints.endpointViews();
        assertThat(views).hasSizeGreaterThan(3);
        for (Class<?> view : views) {
            assertThat(RuntimeHintsPredicates.reflection().onType(view)).as("%s", view).accepts(hints);
        }
    }

    @Test
    void theDrcpMethodsOfOraclesDriverCanBeCalledByReflection() {
        assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(SlotPoolRuntimeHints.ORACLE_CONNECTION))
                .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
    }
}
