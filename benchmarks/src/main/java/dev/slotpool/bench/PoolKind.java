package dev.slotpool.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.Pooler;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import oracle.ucp.jdbc.PoolDataSource;
import oracle.ucp.jdbc.PoolDataSourceFactory;
import org.apache.commons.dbcp2.BasicDataSource;
import org.vibur.dbcp.ViburDBCPDataSource;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/** The pools compared, each started from the same {@link PoolSettings}. */
public enum PoolKind {

    SLOTPOOL {
        @Override
        public BenchPool start(PoolSettings s) {
            return slotpool(s, 0);
        }
    },

    HIKARI {
        @Override
        public BenchPool start(PoolSettings s) {
            HikariConfig c = new HikariConfig();
            c.setPoolName("bench");
            c.setJdbcUrl(s.url());
            c.setUsername(s.user());
            c.setMinimumIdle(s.minIdle());
            c.setMaximumPoolSize(s.maxSize());
            c.setConnectionTimeout(Math.max(250, s.borrowTimeout().toMillis()));
            HikariDataSource ds = new HikariDataSource(c);
            return new Adapter(this, ds, ds::close, () -> {
                var mx = ds.getHikariPoolMXBean();
                return new BenchPool.PoolCounts(mx.getTotalConnections(), mx.getActiveConnections(),
                        mx.getIdleConnections(), mx.getThreadsAwaitingConnection());
            });
        }
    },

    UCP {
        @Override
        public BenchPool start(PoolSettings s) {
            try {
                PoolDataSource ds = PoolDataSourceFactory.getPoolDataSource();
                ds.setConnectionPoolName("bench-" + System.nanoTime());
                ds.setConnectionFactoryClassName(s.driver().dataSourceClass());
                ds.setURL(s.url());
                // Set as a factory property too: from setURL alone, UCP left pgjdbc's data source on its default
                // host and port.
                Properties factory = new Properties();
                factory.setProperty("URL", s.url());
                ds.setConnectionFactoryProperties(factory);
                ds.setUser(s.user());
                ds.setInitialPoolSize(s.minIdle());
                ds.setMinPoolSize(s.minIdle());
                ds.setMaxPoolSize(s.maxSize());
                ds.setConnectionWaitDuration(s.borrowTimeout());
                return new Adapter(this, ds, () -> {
                    try {
                        oracle.ucp.admin.UniversalConnectionPoolManagerImpl.getUniversalConnectionPoolManager()
                                .destroyConnectionPool(ds.getConnectionPoolName());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, () -> {
                    try {
                        int borrowed = ds.getBorrowedConnectionsCount();
                        int available = ds.getAvailableConnectionsCount();
                        return new BenchPool.PoolCounts(borrowed + available, borrowed, available,
                                ds.getStatistics() == null ? -1 : ds.getStatistics().getPendingRequestsCount());
                    } catch (SQLException e) {
                        return new BenchPool.PoolCounts(-1, -1, -1, -1);
                    }
                });
            } catch (SQLException e) {
                throw new IllegalStateException("UCP did not start", e);
            }
        }
    },

    DBCP2 {
        @Override
        public BenchPool start(PoolSettings s) {
            BasicDataSource ds = new BasicDataSource();
            ds.setUrl(s.url());
            ds.setUsername(s.user());
            ds.setInitialSize(s.minIdle());
            ds.setMinIdle(s.minIdle());
            ds.setMaxIdle(s.maxSize());
            ds.setMaxTotal(s.maxSize());
            ds.setMaxWait(s.borrowTimeout());
            return new Adapter(this, ds, () -> {
                try {
                    ds.close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, () -> new BenchPool.PoolCounts(ds.getNumActive() + ds.getNumIdle(), ds.getNumActive(),
                    ds.getNumIdle(), -1));
        }
    },

    TOMCAT {
        @Override
        public BenchPool start(PoolSettings s) {
            org.apache.tomcat.jdbc.pool.PoolProperties p = new org.apache.tomcat.jdbc.pool.PoolProperties();
            p.setUrl(s.url());
            p.setUsername(s.user());
            p.setDriverClassName(s.driver().driverClass());
            p.setInitialSize(s.minIdle());
            p.setMinIdle(s.minIdle());
            p.setMaxIdle(s.maxSize());
            p.setMaxActive(s.maxSize());
            p.setMaxWait((int) s.borrowTimeout().toMillis());
            org.apache.tomcat.jdbc.pool.DataSource ds = new org.apache.tomcat.jdbc.pool.DataSource(p);
            return new Adapter(this, ds, () -> ds.close(true), () -> new BenchPool.PoolCounts(ds.getSize(),
                    ds.getActive(), ds.getIdle(), ds.getWaitCount()));
        }
    },

    VIBUR {
        @Override
        public BenchPool start(PoolSettings s) {
            ViburDBCPDataSource ds = new ViburDBCPDataSource();
            ds.setJdbcUrl(s.url());
            // Vibur puts user and password into the driver's Properties and cannot take nulls.
            ds.setUsername(s.user() == null ? "bench" : s.user());
            ds.setPassword("");
            ds.setPoolInitialSize(s.minIdle());
            ds.setPoolMaxSize(s.maxSize());
            ds.setConnectionTimeoutInMs(s.borrowTimeout().toMillis());
            ds.start();
            return new Adapter(this, ds, ds::terminate, () -> {
                var pool = ds.getPool();
                int taken = pool.taken();
                int idle = pool.remainingCreated();
                return new BenchPool.PoolCounts(taken + idle, taken, idle, -1);
            });
        }
    };

    /** Starts this pool with the given settings and returns once it accepts borrows. */
    public abstract BenchPool start(PoolSettings settings);

    /** Lower-case name for CSV files and command lines. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a comma-separated list of pool ids ("all" for every pool). */
    public static java.util.List<PoolKind> parse(String list) {
        if (list == null || list.isBlank() || list.equals("all")) {
            return java.util.List.of(values());
        }
        return java.util.Arrays.stream(list.split(",")).map(String::trim)
                .map(n -> PoolKind.valueOf(n.toUpperCase(Locale.ROOT))).toList();
    }

    /**
     * slotpool with its statement cache ({@code statementCacheSize}, 0 = off as shipped); the other pools are
     * compared as they ship, without statement caching.
     */
    public static BenchPool slotpool(PoolSettings s, int statementCacheSize) {
        return slotpool(s, statementCacheSize, Pooler.NONE);
    }

    /** slotpool with its statement cache and with {@code pooler} saying what sits in front of the database. */
    public static BenchPool slotpool(PoolSettings s, int statementCacheSize, Pooler pooler) {
        return slotpool(builder(s).statementCacheSize(statementCacheSize).pooler(pooler));
    }

    /** slotpool with another {@code turnDuration} than the one it ships with (its trade of throughput for tail). */
    public static BenchPool slotpoolWithTurn(PoolSettings s, Duration turnDuration) {
        return slotpool(builder(s).turnDuration(turnDuration));
    }

    private static SlotPoolBuilder builder(PoolSettings s) {
        return SlotPoolDataSource.builder()
                .name("bench").url(s.url()).username(s.user())
                .minSize(s.minIdle()).maxSize(s.maxSize()).initialSize(s.minIdle())
                .borrowTimeout(s.borrowTimeout());
    }

    private static BenchPool slotpool(SlotPoolBuilder builder) {
        SlotPoolDataSource ds = builder.build();
        return new Adapter(SLOTPOOL, ds, ds::close, () -> {
            PoolSnapshot p = ds.snapshot();
            return new BenchPool.PoolCounts(p.total(), p.borrowed(), p.available(), p.waiting());
        });
    }

    private record Adapter(PoolKind kind, DataSource dataSource, Runnable closer,
                           java.util.function.Supplier<BenchPool.PoolCounts> countsSource) implements BenchPool {
        @Override
        public BenchPool.PoolCounts counts() {
            return countsSource.get();
        }

        @Override
        public void close() {
            closer.run();
        }
    }
}
