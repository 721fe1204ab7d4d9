package dev.slotpool.failover;

import dev.slotpool.ServerRole;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OriginRolesTest {

    private final OriginRoles roles = new OriginRoles();

    private static RoleReading primary(String cluster, long timeline) {
        return new RoleReading(ServerRole.PRIMARY, cluster, timeline, -1, -1, "primary on timeline " + timeline);
    }

    private static RoleReading standby(String cluster) {
        return new RoleReading(ServerRole.STANDBY, cluster, 0, 0, 0, "standby (pg_is_in_recovery() is true)");
    }

    @Test
    void aPrimaryServesWritesAndAStandbyDoesNotWithItsAnswerAsTheReason() {
        assertThat(roles.refusal("a")).as("never read").isNull();
        assertThat(roles.judge("a", primary("c1", 1))).isNull();
        assertThat(roles.judge("b", standby("c1"))).isEqualTo("standby (pg_is_in_recovery() is true)");
        assertThat(roles.judge("c", RoleReading.unknown("no role query for H2"))).isNull();
        assertThat(roles.reading("b").role()).isEqualTo(ServerRole.STANDBY);
    }

    @Test
    void anOldPrimaryOnALowerTimelineIsRefusedUntilAccepted() {
        roles.judge("a", primary("c1", 1));
        roles.judge("b", standby("c1"));
        assertThat(roles.judge("b", primary("c1", 2))).as("promoted").isNull();
        assertThat(roles.refusal("a")).as("its last word is stale but already outranked")
                .contains("split brain").contains("timeline 1").contains("'b'").contains("timeline 2");
        assertThat(roles.judge("a", primary("c1", 1))).as("back, still claiming").contains("split brain");

        roles.accept("a");
        assertThat(roles.refusal("a")).isNull();
        assertThat(roles.judge("a", primary("c1", 1))).as("accepted stays accepted on that timeline").isNull();
        assertThat(roles.refusal("b")).isNull();
    }

    /** A markUp with no split brain to accept (an operator cancelling a planned switchover before the promotion,
     * docs/failover.md "Planned switchover") must not excuse the split brain of a later failover on that timeline. */
    @Test
    void aMarkUpWithNoSplitBrainAcceptsNone() {
        roles.judge("a", primary("c1", 1));
        roles.judge("b", standby("c1"));
        roles.accept("a");
        assertThat(roles.judge("b", primary("c1", 2))).as("promoted later").isNull();
        assertThat(roles.judge("a", primary("c1", 1))).as("back, still claiming").contains("split brain");
    }

    @Test
    void independentPrimariesNeverCompareTimelines() {
        assertThat(roles.judge("east", primary("c1", 1))).isNull();
        assertThat(roles.judge("west", primary("c2", 5))).isNull();
        assertThat(roles.judge("north", primary(null, 1))).isNull();
        assertThat(roles.refusal("east")).isNull();
    }

    @Test
    void aRebuiltOldPrimaryPromotedAgainOnAHigherTimelineServes() {
        roles.judge("a", primary("c1", 1));
        roles.judge("b", primary("c1", 2));
        assertThat(roles.judge("a", standby("c1"))).startsWith("standby");
        assertThat(roles.judge("a", primary("c1", 3))).isNull();
        assertThat(roles.refusal("b")).as("now b is the old one").contains("split brain");
    }
}
