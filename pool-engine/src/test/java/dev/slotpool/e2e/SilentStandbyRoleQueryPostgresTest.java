package dev.slotpool.e2e;

import dev.slotpool.ServerRole;
import dev.slotpool.failover.RoleReader;
import dev.slotpool.failover.RoleReading;
import dev.slotpool.testsupport.OwnThread;
import dev.slotpool.testsupport.TcpFaultProxy;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The role query has its own bounds (docs/failover.md, "Primary and standbys"): on a server that stops answering
 * mid-session, with no socket timeout in the driver's settings, the reading ends as unknown within
 * {@code RoleReader}'s network timeout instead of waiting for TCP to give up (about 15 minutes on Linux), and a
 * session that answers keeps the network timeout it had.
 */
class SilentStandbyRoleQueryPostgresTest {

    @Test
    void aServerThatStopsAnsweringEndsTheRoleQueryAsUnknown() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
             TcpFaultProxy proxy = TcpFaultProxy.start("localhost", pg.getPort());
             Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + proxy.port()
                     + "/postgres?user=postgres")) {
            assertThat(RoleReader.read(c).role()).as("answering").isEqualTo(ServerRole.PRIMARY);
            assertThat(c.getNetworkTimeout()).as("the session's own network timeout, kept").isZero();

            proxy.blackhole();
            long start = System.nanoTime();
            CompletableFuture<RoleReading> reading = OwnThread.supply(() -> RoleReader.read(c));

            RoleReading r = reading.get(90, TimeUnit.SECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(r.role()).isEqualTo(ServerRole.UNKNOWN);
            assertThat(r.detail()).startsWith("the role query failed");
            System.out.printf("ROLES silent server: the role query ended as unknown after %d ms (%s)%n", tookMs,
                    r.detail());
        }
    }
}
