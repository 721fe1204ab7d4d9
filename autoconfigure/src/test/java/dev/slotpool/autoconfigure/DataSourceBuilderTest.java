package dev.slotpool.autoconfigure;

import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's {@link DataSourceBuilder} creates and derives slotpool pools by type, through the JavaBean properties it
 * finds by reflection; {@code derivedFrom} is what {@code spring.flyway.user} and {@code spring.liquibase.user} use.
 */
class DataSourceBuilderTest {

    private static final String URL = "jdbc:h2:mem:builder;DB_CLOSE_DELAY=-1";

    @Test
    void createByTypeSetsTheConnectionProperties() throws SQLException {
        try (SlotPoolDataSource ds = DataSourceBuilder.create().type(SlotPoolDataSource.class).url(URL)
                .username("sa").password("").driverClassName("org.h2.Driver").build()) {
            try (Connection c = ds.getConnection()) {
                assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:builder");
                assertThat(c.getMetaData().getUserName()).isEqualToIgnoringCase("sa");
            }
            assertThat(ds.config().driverClassName()).isEqualTo("org.h2.Driver");
        }
    }

    @Test
    void derivedFromAPoolOfTheAutoConfigurationKeepsItsUrlAndTakesOtherCredentials() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + URL, "spring.datasource.username=sa")
                .run(ctx -> {
                    try (Connection c = ctx.getBean(DataSource.class).getConnection()) {
                        c.createStatement().execute("CREATE USER IF NOT EXISTS MIGRATOR PASSWORD 'm' ADMIN");
                    }
                    DataSource derived = DataSourceBuilder.derivedFrom(ctx.getBean(DataSource.class))
                            .username("migrator").password("m").build();
                    assertThat(derived).isInstanceOf(SlotPoolDataSource.class);
                    try (SlotPoolDataSource pool = (SlotPoolDataSource) derived;
                         Connection c = pool.getConnection()) {
                        assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:builder");
                        assertThat(c.getMetaData().getUserName()).isEqualToIgnoringCase("migrator");
                    }
                });
    }

    @Test
    void springDatasourceTypeMakesBootBuildASlotpoolWhenTheAutoConfigurationIsOff() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SlotPoolAutoConfiguration.class, DataSourceAutoConfiguration.class))
                .withPropertyValues("slotpool.enabled=false", "spring.datasource.url=" + URL,
                        "spring.datasource.type=" + SlotPoolDataSource.class.getName())
                .run(ctx -> {
                    SlotPoolDataSource ds = ctx.getBean(SlotPoolDataSource.class);
                    assertThat(ds.getUrl()).isEqualTo(URL);
                    try (Connection c = ds.getConnection()) {
                        assertThat(c.isValid(1)).isTrue();
                    }
                });
    }
}
