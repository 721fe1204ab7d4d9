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
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JndiDataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.XADataSourceAutoConfiguration;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadataProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.DependsOn;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

import javax.sql.DataSource;
import javax.sql.XADataSource;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Makes slotpool the application's {@link DataSource}. Runs before Boot's DataSource auto-configuration, so it
 * wins over HikariCP even when HikariCP is on the class path, and after Boot's JNDI and XA DataSource
 * configurations and R2DBC's, as Boot's pools do; backs off for a user's DataSource bean (a JNDI DataSource, an XA
 * one from a JTA wrapper), an R2DBC {@code ConnectionFactory} bean, {@code slotpool.enabled=false}, or a
 * {@code spring.datasource.type} that names another pool; {@code spring.datasource.connection-fetch=lazy} wraps it
 * as Boot wraps HikariCP, and {@code slotpool.reads-to-standbys=true} likewise, with the pool's read view for
 * read-only transactions ({@link LazyConnectionFetch}). Excluding
 * {@code DataSourceAutoConfiguration} (annotation {@code exclude}, {@code excludeName} or
 * {@code spring.autoconfigure.exclude}) removes slotpool too, as it removes HikariCP. It runs after Boot's
 * test-database configuration, so the embedded DataSource of {@code @AutoConfigureTestDatabase(replace =
 * AUTO_CONFIGURED)} makes it back off as it makes HikariCP's ({@code SlotPoolTestDatabaseAutoConfiguration} does
 * the same for {@code NON_TEST}).
 *
 * <p>The default connection comes from a {@link JdbcConnectionDetails} bean when one is declared (Testcontainers
 * {@code @ServiceConnection}, Docker Compose), else from {@code spring.datasource.*}; with neither a URL nor any
 * {@code slotpool.origins}, Boot's embedded database (H2, HSQLDB, Derby) is used, as Boot does for HikariCP.
 *
 * <p>The app starts whether or not the database answers yet, as it does on HikariCP (whose DataSource Boot creates
 * unstarted): unless {@code slotpool.initialization-fail-timeout} is set, the pool starts without waiting for a first
 * connection and fills in the background, each borrow waits up to its borrow timeout, and the health contributor
 * reports DOWN while no origin is UP (docs/configuration.md, "Starting when the database is slow or down").
 */
@AutoConfiguration(before = DataSourceAutoConfiguration.class,
        after = {JndiDataSourceAutoConfiguration.class, XADataSourceAutoConfiguration.class},
        afterName = {SlotPoolAutoConfiguration.R2DBC_AUTO_CONFIGURATION,
                "org.springframework.boot.jdbc.test.autoconfigure.TestDatabaseAutoConfiguration"})
@ConditionalOnClass({DataSource.class, SlotPoolDataSource.class})
@ConditionalOnBooleanProperty(name = "slotpool.enabled", matchIfMissing = true)
@Conditional(SlotPoolAutoConfiguration.DataSourceAutoConfigurationNotExcludedCondition.class)
@EnableConfigurationProperties({SlotPoolProperties.class, DataSourceProperties.class})
public class SlotPoolAutoConfiguration {

    /** Boot's R2DBC auto-configuration (spring-boot-r2dbc), which runs before Boot's DataSource one. */
    static final String R2DBC_AUTO_CONFIGURATION = "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration";

    /** The class Boot's own {@code PropertiesJdbcConnectionDetails} has: it only echoes spring.datasource.*. */
    private static final String PROPERTIES_DETAILS = "PropertiesJdbcConnectionDetails";
    /** The engine's "start at once and fill in the background" (a negative initializationFailTimeout). */
    private static final Duration START_WITHOUT_WAITING = Duration.ofMillis(-1);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(value = {DataSource.class, XADataSource.class}, type = "io.r2dbc.spi.ConnectionFactory")
    @Conditional(DataSourceTypeCondition.class)
    public SlotPoolDataSource dataSource(SlotPoolProperties properties, DataSourceProperties dataSourceProperties,
                                         ObjectProvider<JdbcConnectionDetails> connectionDetails,
                                         ObjectProvider<SlotPoolBuilderCustomizer> customizers,
                                         ObjectProvider<PoolListener> listeners,
                                         ObjectProvider<LabelingCallback> labeling,
                                         ObjectProvider<CredentialsProvider> credentials,
                                         ObjectProvider<SqlExceptionOverride> exceptionOverride,
                                         HikariCarryOver hikari, PoolSettings settings,
                                         Environment environment) {
        // As Boot's pools take it: several JdbcConnectionDetails beans (none primary) fail, not fall back.
        DefaultConnection connection = defaultConnection(properties, dataSourceProperties,
                connectionDetails.getIfAvailable());
        SlotPoolBuilder builder = SlotPoolPropertiesMapper.toBuilder(properties, connection);
        if (properties.getInitializationFailTimeout() == null) {
            builder.initializationFailTimeout(START_WITHOUT_WAITING); // Boot's start (class comment); a customizer may still set it
        }
        if (properties.getName() == null && StringUtils.hasText(dataSourceProperties.getName())) {
            builder.name(dataSourceProperties.getName()); // as spring.datasource.name names HikariCP's pool
        }
        hikari.applyTo(builder, properties); // after spring.datasource.name, which hikari.pool-name overrides
        Map<String, Object> beforeCustomizers = PoolSettings.written(builder);
        labeling.ifUnique(builder::labeling);
        credentials.ifUnique(builder::credentialsProvider);
        exceptionOverride.ifUnique(builder::exceptionOverride);
        listeners.orderedStream().forEach(builder::listener);
        customizers.orderedStream().forEach(c -> c.customize(builder));
        SlotPoolDataSource pool = SlotPoolPropertiesMapper.build(builder, properties, connection, hikari::propertyOf);
        settings.record(pool.config(), PoolSettings.sources(beforeCustomizers, builder, pool.config(), environment,
                setting -> writtenAs(setting, hikari, properties, dataSourceProperties, connection),
                properties.getInitializationFailTimeout() == null));
        return pool;
    }

    /** The key other than {@code slotpool.*} that gave a setting: a hikari key, spring.datasource.*, or null. */
    private static String writtenAs(String setting, HikariCarryOver hikari, SlotPoolProperties properties,
                                    DataSourceProperties dataSource, DefaultConnection connection) {
        String hikariKey = hikari.propertyOf(camel(setting));
        if (hikariKey != null) {
            return hikariKey;
        }
        return switch (setting) {
            case "name" -> StringUtils.hasText(dataSource.getName()) ? "spring.datasource.name" : null;
            case "url" -> connection.url() != null ? connection.source() + ".url" : null;
            case "driver-class-name" -> connection.driverClassName() != null
                    ? connection.source() + ".driver-class-name" : null;
            case "origins" -> properties.getOrigins().isEmpty() && connection.url() != null
                    ? connection.source() + ".url" : null;
            default -> null;
        };
    }

    private static String camel(String kebab) {
        StringBuilder sb = new StringBuilder(kebab.length());
        for (int i = 0; i < kebab.length(); i++) {
            char c = kebab.charAt(i);
            sb.append(c == '-' && i + 1 < kebab.length() ? Character.toUpperCase(kebab.charAt(++i)) : c);
        }
        return sb.toString();
    }

    /** The auto-configured pool's settings with their sources, for /actuator/pool and the console. */
    @Bean
    @ConditionalOnMissingBean
    static PoolSettings slotPoolSettings() {
        return new PoolSettings();
    }

    /**
     * The auto-configured pool's effective settings as a {@code slotpool} properties bean, for
     * {@code /actuator/configprops} ({@link EffectiveSlotPoolProperties}). After the DataSource, whose building
     * records them; a test slice that replaces that DataSource leaves none recorded.
     */
    @Bean(autowireCandidate = false)
    @ConfigurationProperties(prefix = "slotpool")
    @ConditionalOnBean(value = SlotPoolDataSource.class, name = "dataSource")
    @DependsOn("dataSource")
    static SlotPoolProperties slotPoolEffectiveProperties(PoolSettings settings) {
        return new EffectiveSlotPoolProperties(settings);
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

    /** spring.datasource.connection-fetch=lazy or slotpool.reads-to-standbys=true: the pool behind a
     * LazyConnectionDataSourceProxy (the latter with the pool's read view as its read-only DataSource). */
    @Bean
    static LazyConnectionFetch slotPoolLazyConnectionFetch(Environment environment) {
        return new LazyConnectionFetch("lazy".equalsIgnoreCase(environment.getProperty(LazyConnectionFetch.PROPERTY)));
    }

    /** slotpool.fail-on-unknown-properties=false turns unknown slotpool.* keys from a startup failure into a WARN. */
    @Bean
    static LenientSlotPoolBinding slotPoolLenientBinding(Environment environment) {
        return new LenientSlotPoolBinding(environment);
    }

    /** The spring.datasource.hikari.* keys with an exact slotpool equivalent, for the auto-configured pool. */
    @Bean
    static HikariCarryOver slotPoolHikariCarryOver(Environment environment) {
        return new HikariCarryOver(environment);
    }

    /** One startup WARN for the spring.datasource.hikari.* keys no pool read while slotpool is the pool. */
    @Bean
    static HikariPropertiesWarning slotPoolHikariPropertiesWarning(Environment environment,
                                                                   ObjectProvider<DataSource> dataSources,
                                                                   ObjectProvider<HikariCarryOver> carryOver) {
        return new HikariPropertiesWarning(environment, dataSources, carryOver);
    }

    /** One INFO line when spring.datasource.type makes slotpool back off, naming the type. */
    @Bean
    static DataSourceTypeNotice slotPoolDataSourceTypeNotice(Environment environment) {
        return new DataSourceTypeNotice(environment);
    }

    static DefaultConnection defaultConnection(SlotPoolProperties properties, DataSourceProperties dataSource,
                                               JdbcConnectionDetails details) {
        if (details != null && !details.getClass().getSimpleName().equals(PROPERTIES_DETAILS)) {
            return new DefaultConnection(details.getJdbcUrl(), details.getUsername(), details.getPassword(),
                    driverClassName(details), "JdbcConnectionDetails(" + details.getClass().getSimpleName() + ")");
        }
        if (dataSource.getUrl() == null && !properties.getOrigins().isEmpty()) {
            // The origins name their URLs; spring.datasource.* only gives credentials to those that name none.
            return new DefaultConnection(null, textOrNull(dataSource.getUsername()),
                    textOrNull(dataSource.getPassword()), dataSource.getDriverClassName(), "spring.datasource");
        }
        // As Boot's PropertiesJdbcConnectionDetails: the embedded-database fallback when there is no URL (Boot's own
        // "url is not specified" failure if there is none), and "sa" for an embedded database without a username.
        return new DefaultConnection(dataSource.determineUrl(),
                determined(dataSource::determineUsername, dataSource.getUsername()),
                determined(dataSource::determinePassword, dataSource.getPassword()),
                dataSource.getDriverClassName(), "spring.datasource");
    }

    /**
     * Boot's determined credential; where Boot cannot tell the database from the URL and driver (not a JDBC URL, a
     * driver class it cannot load), the value set, and the engine's check reports the URL or the driver by name.
     */
    private static String determined(Supplier<String> determine, String set) {
        try {
            return determine.get();
        } catch (IllegalArgumentException | IllegalStateException undetermined) {
            return textOrNull(set);
        }
    }

    private static String textOrNull(String value) {
        return StringUtils.hasText(value) ? value : null;
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

    /** The class {@code spring.datasource.type} names when it is not slotpool's, else null. */
    static String otherDataSourceType(Environment environment) {
        String type = environment.getProperty(DataSourceTypeNotice.PROPERTY);
        if (type == null || type.isBlank() || type.trim().equals(SlotPoolDataSource.class.getName())) {
            return null;
        }
        return type.trim();
    }

    /** Matches unless {@code spring.datasource.type} names a DataSource other than slotpool's. */
    static final class DataSourceTypeCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String other = otherDataSourceType(context.getEnvironment());
            return other == null ? ConditionOutcome.match("spring.datasource.type is unset or names slotpool")
                    : ConditionOutcome.noMatch("spring.datasource.type names " + other);
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
