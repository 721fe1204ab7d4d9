package dev.slotpool.autoconfigure;

import dev.slotpool.CredentialsProvider;
import dev.slotpool.LabelingCallback;
import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.SqlExceptionOverride;
import dev.slotpool.autoconfigure.SlotPoolPropertiesMapper.DefaultConnection;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JndiDataSourceAutoConfiguration;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadataProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

import javax.sql.DataSource;
import javax.sql.XADataSource;

/**
 * Makes slotpool the application's {@link DataSource}. Runs before Boot's DataSource auto-configuration, so it
 * wins over HikariCP even when HikariCP is on the class path; backs off for a user's DataSource bean,
 * {@code slotpool.enabled=false}, a {@code spring.datasource.type} that names another pool, or the DataSource
 * Boot looks up for {@code spring.datasource.jndi-name} (it runs after that lookup's configuration). Excluding
 * {@code DataSourceAutoConfiguration} (annotation {@code exclude}, {@code excludeName} or
 * {@code spring.autoconfigure.exclude}) removes slotpool too, as it removes HikariCP.
 *
 * <p>The default connection comes from a {@link JdbcConnectionDetails} bean when one is declared (Testcontainers
 * {@code @ServiceConnection}, Docker Compose), else from {@code spring.datasource.*}; with neither a URL nor any
 * {@code slotpool.origins}, Boot's embedded database (H2, HSQLDB, Derby) is used, as Boot does for HikariCP.
 */
@AutoConfiguration(before = DataSourceAutoConfiguration.class, after = JndiDataSourceAutoConfiguration.class)
@ConditionalOnClass({DataSource.class, SlotPoolDataSource.class})
@ConditionalOnBooleanProperty(name = "slotpool.enabled", matchIfMissing = true)
@Conditional(SlotPoolAutoConfiguration.DataSourceAutoConfigurationNotExcludedCondition.class)
@EnableConfigurationProperties({SlotPoolProperties.class, DataSourceProperties.class})
public class SlotPoolAutoConfiguration {

    /** The class Boot's own {@code PropertiesJdbcConnectionDetails} has: it only echoes spring.datasource.*. */
    private static final String PROPERTIES_DETAILS = "PropertiesJdbcConnectionDetails";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({DataSource.class, XADataSource.class})
    @Conditional(DataSourceTypeCondition.class)
    public SlotPoolDataSource dataSource(SlotPoolProperties properties, DataSourceProperties dataSourceProperties,
                                         ObjectProvider<JdbcConnectionDetails> connectionDetails,
                                         ObjectProvider<SlotPoolBuilderCustomizer> customizers,
                                         ObjectProvider<PoolListener> listeners,
                                         ObjectProvider<LabelingCallback> labeling,
                                         ObjectProvider<CredentialsProvider> credentials,
                                         ObjectProvider<SqlExceptionOverride> exceptionOverride) {
        DefaultConnection connection = defaultConnection(properties, dataSourceProperties,
                connectionDetails.getIfUnique());
        SlotPoolBuilder builder = SlotPoolPropertiesMapper.toBuilder(properties, connection);
        if (properties.getName() == null && StringUtils.hasText(dataSourceProperties.getName())) {
            builder.name(dataSourceProperties.getName()); // as spring.datasource.name names HikariCP's pool
        }
        labeling.ifUnique(builder::labeling);
        credentials.ifUnique(builder::credentialsProvider);
        exceptionOverride.ifUnique(builder::exceptionOverride);
        listeners.orderedStream().forEach(builder::listener);
        customizers.orderedStream().forEach(c -> c.customize(builder));
        SlotPoolPropertiesMapper.validate(builder, properties, connection);
        return builder.build();
    }

    /** So Boot's {@code jdbc.connections.*} meters, the {@code db} health indicator and Spring Boot Admin see the pool. */
    @Bean
    @ConditionalOnMissingBean(name = "slotPoolDataSourcePoolMetadataProvider")
    static DataSourcePoolMetadataProvider slotPoolDataSourcePoolMetadataProvider() {
        return dataSource -> {
            SlotPoolDataSource pool = SlotPools.unwrap(dataSource);
            return pool == null ? null : new SlotPoolDataSourcePoolMetadata(pool);
        };
    }

    /** slotpool.fail-on-unknown-properties=false turns unknown slotpool.* keys from a startup failure into a WARN. */
    @Bean
    static LenientSlotPoolBinding slotPoolLenientBinding(Environment environment) {
        return new LenientSlotPoolBinding(environment);
    }

    /** One startup WARN for spring.datasource.hikari.* keys while slotpool is the pool. */
    @Bean
    static HikariPropertiesWarning slotPoolHikariPropertiesWarning(Environment environment,
                                                                   ObjectProvider<SlotPoolDataSource> pool) {
        return new HikariPropertiesWarning(environment, pool);
    }

    static DefaultConnection defaultConnection(SlotPoolProperties properties, DataSourceProperties dataSource,
                                               JdbcConnectionDetails details) {
        if (details != null && !details.getClass().getSimpleName().equals(PROPERTIES_DETAILS)) {
            return new DefaultConnection(details.getJdbcUrl(), details.getUsername(), details.getPassword(),
                    driverClassName(details), "JdbcConnectionDetails(" + details.getClass().getSimpleName() + ")");
        }
        if (dataSource.getUrl() == null && properties.getOrigins().isEmpty()) {
            // Boot's embedded-database fallback; throws Boot's own "url is not specified" failure if there is none.
            return new DefaultConnection(dataSource.determineUrl(), dataSource.determineUsername(),
                    dataSource.determinePassword(), dataSource.getDriverClassName(), "spring.datasource");
        }
        return new DefaultConnection(dataSource.getUrl(), dataSource.getUsername(), dataSource.getPassword(),
                dataSource.getDriverClassName(), "spring.datasource");
    }

    /**
     * The details' driver class; Boot's default derives it from the URL and throws for a database it does not
     * know, in which case the engine finds the driver through {@code DriverManager} as it does for any URL.
     */
    private static String driverClassName(JdbcConnectionDetails details) {
        try {
            return details.getDriverClassName();
        } catch (IllegalStateException unknownDatabase) {
            return null;
        }
    }

    /** Matches unless {@code spring.datasource.type} names a DataSource other than slotpool's. */
    static final class DataSourceTypeCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String type = context.getEnvironment().getProperty("spring.datasource.type");
            if (type == null || type.isBlank() || type.trim().equals(SlotPoolDataSource.class.getName())) {
                return ConditionOutcome.match("spring.datasource.type is unset or names slotpool");
            }
            return ConditionOutcome.noMatch("spring.datasource.type names " + type.trim());
        }
    }

    /**
     * Matches unless {@code DataSourceAutoConfiguration} is excluded. Running before it, this configuration is
     * not skipped with it, so it reads the exclusions Boot's import selector records in the condition
     * evaluation report (every form: {@code exclude}, {@code excludeName}, {@code spring.autoconfigure.exclude})
     * before the imported configurations' conditions are evaluated.
     */
    static final class DataSourceAutoConfigurationNotExcludedCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
            String excluded = DataSourceAutoConfiguration.class.getName();
            if (beanFactory != null && ConditionEvaluationReport.get(beanFactory).getExclusions().contains(excluded)) {
                return ConditionOutcome.noMatch(excluded + " is excluded");
            }
            return ConditionOutcome.match(excluded + " is not excluded");
        }
    }
}
