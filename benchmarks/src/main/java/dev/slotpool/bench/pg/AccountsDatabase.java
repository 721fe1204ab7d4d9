package dev.slotpool.bench.pg;

import dev.slotpool.bench.PoolSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The database under test: an embedded PostgreSQL server with pgbench's accounts table, every balance 0 at the
 * start, so the sum of the balances is the sum of every committed delta.
 */
final class AccountsDatabase implements AutoCloseable {

    /** pgjdbc's classes, for UCP (a connection factory DataSource) and Tomcat JDBC (a Driver class). */
    static final PoolSettings.Driver PGJDBC =
            new PoolSettings.Driver("org.postgresql.ds.PGSimpleDataSource", "org.postgresql.Driver");

    /** The embedded server's superuser; it trusts local logins, so no password. */
    static final String USER = "postgres";

    private final EmbeddedPostgres server;
    private final int accounts;

    private AccountsDatabase(EmbeddedPostgres server, int accounts) {
        this.server = server;
        this.accounts = accounts;
    }

    /**
     * Starts a server that accepts twice the largest pool plus a margin (a closed pool's backends exit a moment
     * after it returns), with {@code synchronous_commit} as given, fills the table and vacuums it once.
     */
    static AccountsDatabase start(int accounts, int largestPool, boolean synchronousCommit)
            throws IOException, SQLException {
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setServerConfig("max_connections", String.valueOf(2 * largestPool + 20))
                .setServerConfig("synchronous_commit", synchronousCommit ? "on" : "off")
                .start();
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE accounts (aid int PRIMARY KEY, bid int, abalance int NOT NULL, filler char(84))");
            // pgbench's layout: 100,000 accounts per branch.
            s.execute("INSERT INTO accounts SELECT g, (g - 1) / 100000 + 1, 0, '' FROM generate_series(1, "
                    + accounts + ") g");
            s.execute("VACUUM ANALYZE accounts");
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
        return new AccountsDatabase(server, accounts);
    }

    /** The JDBC URL every pool connects with, the user in it too (UCP still needs {@link #USER} given apart). */
    String url() {
        return server.getJdbcUrl(USER, "postgres");
    }

    int accounts() {
        return accounts;
    }

    /** The sum of all balances now. */
    long balanceSum() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(sum(abalance), 0) FROM accounts")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
