package dev.slotpool.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureAfter;
import org.springframework.boot.autoconfigure.AutoConfigureBefore;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code META-INF/spring-autoconfigure-metadata.properties} says what the auto-configurations' annotations say, in
 * the form Boot's auto-configure annotation processor writes: Boot filters auto-configurations by it before loading
 * their classes (conditions on classes, beans and the web application type) and orders those it lists by it alone,
 * so an entry that disagrees with the annotations would misorder or drop one. On a mismatch the message holds the
 * file as it should read.
 */
class AutoConfigureMetadataTest {

    private static final Path IMPORTS =
            Path.of("src/main/resources/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports");
    private static final Path METADATA = Path.of("src/main/resources/META-INF/spring-autoconfigure-metadata.properties");

    @Test
    void theMetadataIsWhatTheAnnotationsSay() throws Exception {
        Map<String, String> expected = new TreeMap<>();
        for (String name : Files.readAllLines(IMPORTS)) {
            if (!name.isBlank() && !name.startsWith("#")) {
                describe(Class.forName(name.trim()), expected);
            }
        }
        Properties actual = new Properties();
        actual.load(new StringReader(Files.readString(METADATA)));
        String shouldRead = expected.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n"));
        assertThat(new TreeMap<>(actual)).as("%s should read:%n%s", METADATA, shouldRead).isEqualTo(expected);
    }

    /** The entries the annotation processor writes for one auto-configuration class. */
    private static void describe(Class<?> type, Map<String, String> into) {
        String key = type.getName();
        into.put(key, "");
        AutoConfiguration auto = type.getAnnotation(AutoConfiguration.class);
        AutoConfigureBefore before = type.getAnnotation(AutoConfigureBefore.class);
        AutoConfigureAfter after = type.getAnnotation(AutoConfigureAfter.class);
        put(into, key + ".AutoConfigureBefore", Stream.of(
                auto == null ? null : names(auto.before(), auto.beforeName()),
                before == null ? null : names(before.value(), before.name())));
        put(into, key + ".AutoConfigureAfter", Stream.of(
                auto == null ? null : names(auto.after(), auto.afterName()),
                after == null ? null : names(after.value(), after.name())));
        AutoConfigureOrder order = type.getAnnotation(AutoConfigureOrder.class);
        if (order != null) {
            into.put(key + ".AutoConfigureOrder", String.valueOf(order.value()));
        }
        ConditionalOnClass onClass = type.getAnnotation(ConditionalOnClass.class);
        put(into, key + ".ConditionalOnClass", Stream.of(onClass == null ? null : names(onClass.value(), onClass.name())));
        ConditionalOnBean onBean = type.getAnnotation(ConditionalOnBean.class);
        put(into, key + ".ConditionalOnBean", Stream.of(onBean == null ? null : names(onBean.value(), onBean.type())));
        ConditionalOnSingleCandidate single = type.getAnnotation(ConditionalOnSingleCandidate.class);
        put(into, key + ".ConditionalOnSingleCandidate",
                Stream.of(single == null ? null : names(new Class<?>[] {single.value()}, new String[] {single.type()})));
        ConditionalOnWebApplication web = type.getAnnotation(ConditionalOnWebApplication.class);
        if (web != null) {
            into.put(key + ".ConditionalOnWebApplication", web.type().name());
        }
    }

    private static List<String> names(Class<?>[] classes, String[] names) {
        return Stream.concat(Arrays.stream(classes).filter(c -> c != Object.class).map(Class::getName),
                Arrays.stream(names).filter(n -> !n.isEmpty())).toList();
    }

    /** One entry: the names sorted and comma-separated, as the processor writes them; none when there are none. */
    private static void put(Map<String, String> into, String key, Stream<List<String>> parts) {
        TreeSet<String> all = parts.filter(p -> p != null).flatMap(List::stream).collect(Collectors.toCollection(TreeSet::new));
        if (!all.isEmpty()) {
            into.put(key, String.join(",", all));
        }
    }
}
