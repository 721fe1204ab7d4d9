package dev.slotpool.autoconfigure.jmx;

import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolAutoConfiguration;
import dev.slotpool.autoconfigure.SlotPools;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import javax.management.MBeanServer;
import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;

/**
 * {@link PoolMBeans} when {@code spring.jmx.enabled=true}, as Boot exports its own MBeans only then: in Boot's
 * MBeanServer, else the platform's. What they may do follows {@code management.endpoint.pool.access} as Actuator
 * resolves it (with {@code management.endpoints.access.*}), or the property alone without Actuator.
 */
@AutoConfiguration(after = {SlotPoolAutoConfiguration.class, JmxAutoConfiguration.class})
@ConditionalOnClass(SlotPoolDataSource.class)
@ConditionalOnBooleanProperty("spring.jmx.enabled")
@ConditionalOnBean(SlotPoolDataSource.class)
public class PoolMBeansAutoConfiguration {

    private static final String ACTUATOR_ACCESS = "org.springframework.boot.actuate.endpoint.EndpointAccessResolver";

    @Bean
    @ConditionalOnMissingBean
    PoolMBeans slotPoolMBeans(Map<String, DataSource> dataSources, ObjectProvider<MBeanServer> server,
                              Environment environment, ConfigurableListableBeanFactory beanFactory) {
        return new PoolMBeans(SlotPools.of(dataSources), server.getIfUnique(ManagementFactory::getPlatformMBeanServer),
                access(environment, beanFactory), environment.getProperty("spring.jmx.unique-names", Boolean.class, false));
    }

    private static PoolMBeans.Access access(Environment environment, ConfigurableListableBeanFactory beanFactory) {
        if (ClassUtils.isPresent(ACTUATOR_ACCESS, beanFactory.getBeanClassLoader())) {
            PoolMBeans.Access resolved = ActuatorAccess.resolve(beanFactory);
            if (resolved != null) {
                return resolved;
            }
        }
        String value = environment.getProperty("management.endpoint.pool.access", "read-only");
        return switch (value.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "none" -> PoolMBeans.Access.NONE;
            case "unrestricted" -> PoolMBeans.Access.UNRESTRICTED;
            default -> PoolMBeans.Access.READ_ONLY;
        };
    }

    /** Touches Actuator's types only when Actuator is on the class path. */
    private static final class ActuatorAccess {

        static PoolMBeans.Access resolve(ConfigurableListableBeanFactory beanFactory) {
            EndpointAccessResolver resolver = beanFactory.getBeanProvider(EndpointAccessResolver.class).getIfUnique();
            if (resolver == null) {
                return null;
            }
            return switch (resolver.accessFor(EndpointId.of("pool"),
                    org.springframework.boot.actuate.endpoint.Access.READ_ONLY)) {
                case NONE -> PoolMBeans.Access.NONE;
                case READ_ONLY -> PoolMBeans.Access.READ_ONLY;
                case UNRESTRICTED -> PoolMBeans.Access.UNRESTRICTED;
            };
        }
    }
}
