package dev.slotpool.autoconfigure.testdatabase;

import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.container.ContainerImageMetadata;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase.Replace;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestContextManager;
import org.springframework.test.context.TestPropertySource;

import javax.sql.DataSource;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.Stream;

import static dev.slotpool.autoconfigure.testdatabase.TestDatabaseReplacementTest.Outcome.KEPT;
import static dev.slotpool.autoconfigure.testdatabase.TestDatabaseReplacementTest.Outcome.REPLACED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * {@code @AutoConfigureTestDatabase}, case by case: each case is one test class loaded twice by the TestContext
 * framework, once as written (slotpool is the pool) and once with {@code slotpool.enabled=false} (Boot's HikariCP);
 * the test database replaces slotpool's DataSource exactly where it replaces HikariCP's. The expected column is
 * what Boot does with HikariCP, which each row checks too. Nothing connects to a {@code jdbc:tc:} URL: neither
 * pool connects before a borrow here, and no case borrows.
 */
class TestDatabaseReplacementTest {

    enum Outcome { KEPT, REPLACED }

    static Stream<Arguments> cases() {
        return Stream.of(
                arguments("NON_TEST, no url (embedded)", NoUrl.class, NoUrlOnHikari.class, REPLACED),
                arguments("NON_TEST, plain spring.datasource.url", PlainUrl.class, PlainUrlOnHikari.class, REPLACED),
                arguments("NON_TEST, jdbc:tc: url", TcUrl.class, TcUrlOnHikari.class, KEPT),
                arguments("NON_TEST, @DynamicPropertySource url", DynamicUrl.class, DynamicUrlOnHikari.class, KEPT),
                arguments("NON_TEST, container JdbcConnectionDetails (@ServiceConnection)",
                        ContainerDetails.class, ContainerDetailsOnHikari.class, KEPT),
                arguments("NON_TEST, JdbcConnectionDetails of no container",
                        OtherDetails.class, OtherDetailsOnHikari.class, REPLACED),
                arguments("AUTO_CONFIGURED, plain url", AutoConfigured.class, AutoConfiguredOnHikari.class, REPLACED),
                arguments("AUTO_CONFIGURED, @DynamicPropertySource url",
                        AutoConfiguredDynamicUrl.class, AutoConfiguredDynamicUrlOnHikari.class, REPLACED),
                arguments("ANY, @DynamicPropertySource url", AnyDynamicUrl.class, AnyDynamicUrlOnHikari.class, REPLACED),
                arguments("NONE, plain url", NoneReplaced.class, NoneReplacedOnHikari.class, KEPT));
    }

    @ParameterizedTest(name = "{0}: {3}")
    @MethodSource("cases")
    void replacesSlotPoolExactlyWhereItReplacesHikari(String name, Class<?> onSlotPool, Class<?> onHikari,
                                                      Outcome boot) {
        assertThat(outcome(onHikari, HikariDataSource.class)).as("HikariCP").isEqualTo(boot);
        assertThat(outcome(onSlotPool, SlotPoolDataSource.class)).as("slotpool").isEqualTo(boot);
    }

    /** Loads the test class's context as its tests would see it and says whether its pool survived. */
    private static Outcome outcome(Class<?> testClass, Class<? extends DataSource> pool) {
        TestContextManager manager = new TestContextManager(testClass);
        try {
            DataSource dataSource = manager.getTestContext().getApplicationContext().getBean(DataSource.class);
            if (dataSource instanceof EmbeddedDatabase) {
                return REPLACED;
            }
            assertThat(dataSource).as("the pool this case runs on").isInstanceOf(pool);
            return KEPT;
        } finally {
            manager.getTestContext().markApplicationContextDirty(null);
        }
    }

    /** What the slices find when they look for the application (without it, another test's in a parent package). */
    @SpringBootConfiguration
    static class App {
    }

    /** The same case on HikariCP: slotpool steps aside and Boot's DataSourceAutoConfiguration makes HikariCP. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @TestPropertySource(properties = "slotpool.enabled=false")
    @interface OnHikari {
    }

    @JdbcTest
    static class NoUrl {
    }

    @OnHikari
    static class NoUrlOnHikari extends NoUrl {
    }

    @JdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:plain")
    static class PlainUrl {
    }

    @OnHikari
    static class PlainUrlOnHikari extends PlainUrl {
    }

    /** No Docker is needed: slotpool is told not to connect at start, and HikariCP never does. */
    @JdbcTest(properties = {"spring.datasource.url=jdbc:tc:postgresql:17:///test", "slotpool.min-size=0",
            "slotpool.initialization-fail-timeout=-1"})
    static class TcUrl {
    }

    @OnHikari
    static class TcUrlOnHikari extends TcUrl {
    }

    @JdbcTest
    static class DynamicUrl {
        @DynamicPropertySource
        static void url(DynamicPropertyRegistry registry) {
            registry.add("spring.datasource.url", () -> "jdbc:h2:mem:dynamic");
        }
    }

    @OnHikari
    static class DynamicUrlOnHikari extends DynamicUrl {
    }

    @JdbcTest
    @Import(ContainerConnection.class)
    static class ContainerDetails {
    }

    @OnHikari
    static class ContainerDetailsOnHikari extends ContainerDetails {
    }

    @JdbcTest
    @Import(PlainConnection.class)
    static class OtherDetails {
    }

    @OnHikari
    static class OtherDetailsOnHikari extends OtherDetails {
    }

    @JdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:plain")
    @AutoConfigureTestDatabase(replace = Replace.AUTO_CONFIGURED)
    static class AutoConfigured {
    }

    @OnHikari
    static class AutoConfiguredOnHikari extends AutoConfigured {
    }

    @JdbcTest
    @AutoConfigureTestDatabase(replace = Replace.AUTO_CONFIGURED)
    static class AutoConfiguredDynamicUrl extends DynamicUrl {
    }

    @OnHikari
    static class AutoConfiguredDynamicUrlOnHikari extends AutoConfiguredDynamicUrl {
    }

    @JdbcTest
    @AutoConfigureTestDatabase(replace = Replace.ANY)
    static class AnyDynamicUrl extends DynamicUrl {
    }

    @OnHikari
    static class AnyDynamicUrlOnHikari extends AnyDynamicUrl {
    }

    @JdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:plain")
    @AutoConfigureTestDatabase(replace = Replace.NONE)
    static class NoneReplaced {
    }

    @OnHikari
    static class NoneReplacedOnHikari extends NoneReplaced {
    }

    record H2Details(String getJdbcUrl) implements JdbcConnectionDetails {
        @Override
        public String getUsername() {
            return "sa";
        }

        @Override
        public String getPassword() {
            return "";
        }
    }

    /** A JdbcConnectionDetails bean as a Testcontainers {@code @ServiceConnection} registers it: with the image. */
    static class ContainerConnection implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            RootBeanDefinition details = new RootBeanDefinition(JdbcConnectionDetails.class,
                    () -> new H2Details("jdbc:h2:mem:container"));
            new ContainerImageMetadata("postgres:17").addTo(details);
            registry.registerBeanDefinition("containerJdbcConnectionDetails", details);
        }
    }

    /** A JdbcConnectionDetails bean no container registered (an application's own). */
    static class PlainConnection implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            registry.registerBeanDefinition("plainJdbcConnectionDetails", new RootBeanDefinition(
                    JdbcConnectionDetails.class, () -> new H2Details("jdbc:h2:mem:details")));
        }
    }
}
