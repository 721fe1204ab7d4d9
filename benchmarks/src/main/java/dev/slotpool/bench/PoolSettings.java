package dev.slotpool.bench;

import java.time.Duration;

/**
 * The settings every pool in a comparison gets, mapped onto each pool's own names by {@link PoolKind}. Anything
 * a pool does by default beyond these (e.g. DBCP2 validating on borrow) is left as the pool ships it and
 * documented in docs/benchmarks.md, never silently toggled.
 *
 * @param url           JDBC URL (the stub driver: {@code jdbc:stub:<name>?...})
 * @param minIdle       connections kept open when idle (also the initial size)
 * @param maxSize       most connections
 * @param borrowTimeout longest a borrow may wait
 * @param user          user name given to the pool, or null for none (the URL's or the driver's default); UCP
 *                      needs it: it opens connections with its own user, which overrides one in the URL
 * @param driver        the driver's classes, for the pools that name a class instead of resolving the URL
 */
public record PoolSettings(String url, int minIdle, int maxSize, Duration borrowTimeout, String user,
                           Driver driver) {

    /** Settings over the stub driver. */
    public PoolSettings(String url, int minIdle, int maxSize, Duration borrowTimeout) {
        this(url, minIdle, maxSize, borrowTimeout, null, Driver.STUB);
    }

    /** A fixed-size pool of {@code size} connections over the stub driver (the thread-scaling and JMH setups). */
    public static PoolSettings fixed(String url, int size, Duration borrowTimeout) {
        return new PoolSettings(url, size, size, borrowTimeout);
    }

    /**
     * The classes of a JDBC driver that pools name explicitly: UCP builds its connections from a DataSource
     * class, Tomcat JDBC loads a Driver class; the others find the driver from the URL.
     *
     * @param dataSourceClass the driver's {@link javax.sql.DataSource}, given the URL through {@code setURL}
     * @param driverClass     the driver's {@link java.sql.Driver}
     */
    public record Driver(String dataSourceClass, String driverClass) {

        /** The stub driver of test-support. */
        public static final Driver STUB =
                new Driver("dev.slotpool.testsupport.StubDataSource", "dev.slotpool.testsupport.StubDriver");
    }
}
