package dev.slotpool.autoconfigure.testdatabase;

import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aot.AotDetector;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.autoconfigure.container.ContainerImageMetadata;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.BoundPropertiesTrackingBindHandler;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.type.MethodMetadata;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps slotpool's auto-configured DataSource where {@code @AutoConfigureTestDatabase(replace = NON_TEST)} keeps
 * Boot's own pool: when the application connects to a test database, that is a {@code JdbcConnectionDetails} bean
 * a container registered ({@code @ServiceConnection}), or a {@code spring.datasource.url} that comes from a
 * {@code @DynamicPropertySource} or starts with {@code jdbc:tc:}. Everywhere else Boot's replacement stands.
 *
 * <p>Boot's post-processor replaces every DataSource whose {@code @Bean} method is not in its own package, so this
 * one remembers slotpool's definition before Boot's runs (it is {@link Ordered}, Boot's is not) and, once every
 * registry post-processor has run, puts it back if Boot replaced it and the connection is a test one.
 */
final class KeepSlotPoolOnTestDatabase implements BeanDefinitionRegistryPostProcessor, Ordered {

    private static final Log logger = LogFactory.getLog(KeepSlotPoolOnTestDatabase.class);

    /** The property source a {@code @DynamicPropertySource} method's values live in; Boot names it the same way. */
    private static final String DYNAMIC_VALUES = "org.springframework.test.context.support.DynamicValuesPropertySource";

    private final Environment environment;

    /** slotpool's auto-configured DataSource definitions by bean name, as they were before Boot's post-processor. */
    private final Map<String, BeanDefinition> remembered = new LinkedHashMap<>();

    KeepSlotPoolOnTestDatabase(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
        if (AotDetector.useGeneratedArtifacts() || !(registry instanceof ConfigurableListableBeanFactory beanFactory)) {
            return;
        }
        for (String name : beanFactory.getBeanNamesForType(DataSource.class, true, false)) {
            if (registry.containsBeanDefinition(name) && isSlotPoolAutoConfigured(registry.getBeanDefinition(name))) {
                remembered.put(name, registry.getBeanDefinition(name));
            }
        }
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
        if (remembered.isEmpty() || !(beanFactory instanceof BeanDefinitionRegistry registry)) {
            return;
        }
        List<String> replaced = new ArrayList<>();
        remembered.forEach((name, definition) -> {
            if (!registry.containsBeanDefinition(name) || registry.getBeanDefinition(name) != definition) {
                replaced.add(name);
            }
        });
        String testDatabase = replaced.isEmpty() ? null : testDatabase(beanFactory);
        if (testDatabase == null) {
            return;
        }
        for (String name : replaced) {
            if (registry.containsBeanDefinition(name)) {
                registry.removeBeanDefinition(name);
            }
            registry.registerBeanDefinition(name, remembered.get(name));
            logger.info("Kept slotpool's DataSource '" + name + "' instead of the embedded one: it connects to a "
                    + "test database (" + testDatabase + "), where @AutoConfigureTestDatabase keeps Boot's own pool");
        }
    }

    private static boolean isSlotPoolAutoConfigured(BeanDefinition definition) {
        if (definition instanceof AnnotatedBeanDefinition annotated) {
            MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
            return factoryMethod != null
                    && factoryMethod.getDeclaringClassName().startsWith(SlotPoolAutoConfiguration.class.getName());
        }
        return false;
    }

    /** What makes the connection a test one, as Boot's {@code NON_TEST} rule sees it, or null if nothing does. */
    private String testDatabase(ConfigurableListableBeanFactory beanFactory) {
        for (String name : beanFactory.getBeanNamesForType(JdbcConnectionDetails.class, true, false)) {
            try {
                if (ContainerImageMetadata.isPresent(beanFactory.getBeanDefinition(name))) {
                    return "JdbcConnectionDetails '" + name + "' of a container";
                }
            } catch (NoSuchBeanDefinitionException registeredAsSingleton) {
                // a singleton registered without a definition carries no container metadata
            }
        }
        List<ConfigurationProperty> bound = new ArrayList<>();
        Binder.get(environment, new BoundPropertiesTrackingBindHandler(bound::add))
                .bind("spring.datasource.url", Bindable.of(String.class));
        if (bound.isEmpty()) {
            return null;
        }
        ConfigurationProperty url = bound.get(0);
        if (url.getOrigin() instanceof PropertySourceOrigin origin
                && origin.getPropertySource() != null
                && DYNAMIC_VALUES.equals(origin.getPropertySource().getClass().getName())) {
            return "spring.datasource.url from a @DynamicPropertySource";
        }
        if (url.getValue() != null && url.getValue().toString().startsWith("jdbc:tc:")) {
            return "a jdbc:tc: spring.datasource.url";
        }
        return null;
    }
}
