package dev.slotpool.sample;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.sample.load.LoadGenerator;
import dev.slotpool.sample.shop.ShopService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;

import java.sql.SQLException;

/**
 * Boots the whole sample app on a random port (load generator off, the databases' password set to
 * {@link SampleApp#DB_PASSWORD}, slotpool logging at DEBUG so the log check sees the most) and runs every shared
 * check against it. Each test starts from the configured routing with the load stopped. The last test
 * ({@link ShutdownChecks}) has the context closed after it; {@link #afterTheContextClosed} checks the close.
 * {@link DirtiesContext} on the class closes the context when that test is not run.
 *
 * <p>The output capture is registered before the Spring extension loads the context, so the log check sees the
 * startup too.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=false",
        "spring.datasource.password=" + SampleApp.DB_PASSWORD,
        "logging.level.dev.slotpool=DEBUG",
        // env exposed too, as an application may later: LeastPrivilegeChecks sees it is the admin's only.
        "management.endpoints.web.exposure.include=health,metrics,prometheus,pool,env"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DirtiesContext
abstract class SampleAppTestBase implements EndpointAccessChecks, PoolActionChecks, WeightedRebalanceChecks,
        BadInputChecks, ConsoleBadInputChecks, CsrfChecks, MetricsChecks, LoadChecks, ShopChecks, SecretChecks,
        ServerConnectionChecks, ConsoleChecks, LeastPrivilegeChecks, ShutdownChecks {

    @LocalServerPort
    private int port;

    @Autowired
    private SlotPoolDataSource pool;

    @Autowired
    private LoadGenerator load;

    @Autowired
    private ShopService shop;

    @Autowired
    private ConfigurableApplicationContext context;

    private Http http;

    @BeforeEach
    void configuredRoutingWithoutLoad() {
        http = new Http(port);
        load.stopWorkers();
        for (OriginSnapshot o : pool.snapshot().origins()) {
            if (o.state() != OriginState.UP) {
                pool.markUp(o.name());
            }
        }
        pool.rebalanceToConfigured();
    }

    @AfterAll
    static void afterTheContextClosed(CapturedOutput output) throws SQLException {
        ShutdownChecks.verifyClosed(output);
    }

    @Override
    public Http http() {
        return http;
    }

    @Override
    public SlotPoolDataSource pool() {
        return pool;
    }

    @Override
    public LoadGenerator load() {
        return load;
    }

    @Override
    public ShopService shop() {
        return shop;
    }

    @Override
    public ConfigurableApplicationContext context() {
        return context;
    }
}
