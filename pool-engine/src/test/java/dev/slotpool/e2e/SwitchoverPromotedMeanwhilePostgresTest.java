package dev.slotpool.e2e;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.PoolEvent;
import dev.slotpool.PoolListener;
import dev.slotpool.SlotPoolBuilder;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A planned switchover whose standby is promoted by someone else while the pool waits for the primary's last
 * transaction (docs/failover.md, "Planned switchover"), on embedded PostgreSQL 17 ({@link PgStandbyPair}): that
 * transaction commits on the old primary after the promotion, so the promoted server never has it and is never seen
 * caught up. The switchover ends as a promotion: the old primary stays out and writes go to the promoted server.
 */
class SwitchoverPromotedMeanwhilePostgresTest {

    private final List<String> story = new CopyOnWriteArrayList<>();

    @Test
    void aStandbyPromotedMeanwhileEndsTheSwitchoverAndTheOldPrimaryStaysOut() throws Exception {
        try (PgStandbyPair pair = new PgStandbyPair(); SlotPoolDataSource ds = slotpool(pair)) {
            E2e.awaitSnapshot(ds, "second out for its role", s -> s.origin("second").orElseThrow().state()
                    == OriginState.DOWN);
            FutureTask<Object> prepare;
            try (Connection held = ds.getConnection()) {
                prepare = new FutureTask<>(() -> ds.prepareSwitchover("first", "second", Duration.ofSeconds(60)));
                new Thread(prepare, "operator").start();
                E2e.awaitSnapshot(ds, "the primary's writes paused", s -> s.origin("first").orElseThrow().state()
                        == OriginState.DRAINING);
                pair.promote(1);
                try (Statement st = held.createStatement()) {
                    st.execute("CREATE TABLE after_promotion (id int)"); // on the old primary only
                }
            }

            assertThatThrownBy(() -> {
                try {
                    prepare.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause();
                }
            }).isInstanceOf(IllegalStateException.class).hasMessageContaining("'second' was promoted meanwhile")
                    .hasMessageContaining("'first' stays out of service");
            assertThat(ds.snapshot().origin("first").orElseThrow().state()).as("the old primary takes no writes; %s",
                    story).isEqualTo(OriginState.DOWN);
            E2e.awaitSnapshot(ds, "the promoted server in service", s -> s.origin("second").orElseThrow().state()
                    == OriginState.UP);
            for (int i = 0; i < 20; i++) {
                try (Connection c = ds.getConnection()) {
                    assertThat(E2e.queryLong(c, "SELECT inet_server_port()")).as("a write borrow's server")
                            .isEqualTo(pair.port(1));
                }
            }
            assertThat(ds.snapshot().origin("first").orElseThrow().state()).as("still out; %s", story)
                    .isEqualTo(OriginState.DOWN);
            assertThat(story).as("writes never resumed on the old primary")
                    .noneMatch(e -> e.startsWith("first") && e.contains("writes resumed"));
        }
    }

    private SlotPoolDataSource slotpool(PgStandbyPair pair) {
        SlotPoolBuilder b = SlotPoolDataSource.builder().name("promoted-meanwhile").username("postgres")
                .minSize(2).maxSize(4).borrowTimeout(Duration.ofSeconds(30))
                .connectionProperty("connectTimeout", "2").connectionProperty("sslmode", "disable")
                .origin(OriginConfig.named("first").url("jdbc:postgresql://localhost:" + pair.port(0) + "/postgres"))
                .origin(OriginConfig.named("second").url("jdbc:postgresql://localhost:" + pair.port(1) + "/postgres"))
                .listener(new PoolListener() {
                    @Override
                    public void onEvent(PoolEvent e) {
                        if (e.type() == PoolEvent.Type.ORIGIN_STATE) {
                            story.add(e.origin() + " " + e.detail());
                        }
                    }
                });
        return b.build();
    }
}
