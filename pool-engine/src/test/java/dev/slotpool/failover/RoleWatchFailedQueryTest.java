package dev.slotpool.failover;

import dev.slotpool.ServerRole;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A role query that fails on a server whose role is known is no answer: the last verdict stands. */
class RoleWatchFailedQueryTest {

    private final RoleWatch watch = new RoleWatch(new OriginRoles(), r -> {
        Thread t = new Thread(r, "role-watch-test");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        watch.close();
    }

    private static RoleReading standby() {
        return new RoleReading(ServerRole.STANDBY, "42", 0, 0, 0, "standby (pg_is_in_recovery() is true)");
    }

    private static RoleReading failed() {
        return RoleReading.unknown("the role query failed: 57014 canceling statement due to statement timeout");
    }

    @Test
    void aNewConnectionWhoseRoleQueryFailsIsNotLentToWritersOfAKnownStandby() {
        assertThat(watch.admits("s", standby())).isFalse();
        assertThat(watch.admits("s", failed())).as("no answer: still a standby").isFalse();
        assertThat(watch.roles().refusal("s")).isEqualTo("standby (pg_is_in_recovery() is true)");
        assertThat(watch.roles().reading("s").role()).isEqualTo(ServerRole.STANDBY);
    }

    @Test
    void aServerWithoutARoleQueryStillTakesWrites() {
        assertThat(watch.admits("o", RoleReading.unknown("no role query for H2"))).isTrue();
        assertThat(watch.admits("o", RoleReading.unknown("no role query for H2"))).isTrue();
    }

    @Test
    void aFailedQueryOnAKnownPrimaryKeepsItInService() {
        RoleReading primary = new RoleReading(ServerRole.PRIMARY, "42", 1, -1, -1, "primary on timeline 1");
        assertThat(watch.admits("p", primary)).isTrue();
        assertThat(watch.admits("p", failed())).isTrue();
        assertThat(watch.roles().reading("p")).isEqualTo(primary);
    }
}
