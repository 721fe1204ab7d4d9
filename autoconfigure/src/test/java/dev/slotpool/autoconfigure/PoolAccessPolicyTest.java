package dev.slotpool.autoconfigure;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import dev.slotpool.SlotPoolDataSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Who may act at either front door, and what a reader who may not sees of a failure text. */
class PoolAccessPolicyTest {

    private static final PoolAccessPolicy.Roles ADMIN = roles -> roles.contains("ADMIN");

    @Test
    void readOnlyEndpointMeansNobodyActsAtEitherDoor() {
        PoolAccessPolicy readOnly = new PoolAccessPolicy("read-only", List.of("ADMIN"), true);
        assertThat(readOnly.mayActAtEndpoint(ADMIN)).isFalse();
        assertThat(readOnly.mayActInConsole(null, ADMIN)).isFalse();
        assertThat(readOnly.mayActInConsole(true, ADMIN)).as("actions-enabled=true does not lift it").isFalse();
    }

    @Test
    void withSpringSecurityOnlyANamedRoleActs() {
        PoolAccessPolicy named = new PoolAccessPolicy(null, List.of("ADMIN"), true);
        assertThat(named.mayActAtEndpoint(ADMIN)).isTrue();
        assertThat(named.mayActInConsole(null, ADMIN)).isTrue();
        assertThat(named.mayActAtEndpoint(PoolAccessPolicy.Roles.NONE)).isFalse();
        assertThat(named.mayActInConsole(null, roles -> roles.contains("VIEWER"))).isFalse();
        assertThat(named.mayActInConsole(false, ADMIN)).as("actions-enabled=false").isFalse();
        PoolAccessPolicy none = new PoolAccessPolicy(null, List.of(), true);
        assertThat(none.mayActAtEndpoint(roles -> true)).as("no role named: nobody").isFalse();
        assertThat(none.mayActInConsole(null, roles -> true)).isFalse();
    }

    /** The one holder rule of both doors: an operator Spring Security authenticated, while writes are permitted. */
    @Test
    void onlyAnOperatorSeesHoldersAtEitherDoor() {
        PoolAccessPolicy named = new PoolAccessPolicy(null, List.of("ADMIN"), true);
        assertThat(named.maySeeHolders(ADMIN)).isTrue();
        assertThat(named.maySeeHolders(roles -> roles.contains("VIEWER"))).isFalse();
        assertThat(new PoolAccessPolicy("read-only", List.of("ADMIN"), true).maySeeHolders(ADMIN))
                .as("a read-only endpoint").isFalse();
        assertThat(new PoolAccessPolicy(null, List.of(), true).maySeeHolders(roles -> true)).as("no role named")
                .isFalse();
        PoolAccessPolicy open = new PoolAccessPolicy(null, List.of("ADMIN"), false);
        assertThat(open.mayActAtEndpoint(PoolAccessPolicy.Roles.NONE)).as("without Spring Security, posters act")
                .isTrue();
        assertThat(open.maySeeHolders(ADMIN)).as("but nobody is known to be an operator: no holder").isFalse();
    }

    @Test
    void withoutSpringSecurityTheEndpointsPostersActAndTheConsoleOnlyWhenEnabled() {
        PoolAccessPolicy open = new PoolAccessPolicy(null, List.of(), false);
        assertThat(open.mayActAtEndpoint(PoolAccessPolicy.Roles.NONE)).isTrue();
        assertThat(open.mayActInConsole(null, PoolAccessPolicy.Roles.NONE)).isFalse();
        assertThat(open.mayActInConsole(true, PoolAccessPolicy.Roles.NONE)).isTrue();
    }

    @Test
    void failureTextsLoseClientAddressesAndUserNames() {
        PoolConfig config = SlotPoolDataSource.builder().username("shopper").minSize(0).maxSize(1)
                .origin(OriginConfig.named("east").url("jdbc:x:east").username("east_app"))
                .origin(OriginConfig.named("west").url("jdbc:x:west")).config();
        String[][] cases = {
                {"FATAL: no pg_hba.conf entry for host \"10.20.30.40\", user \"shopper\", database \"shop\", SSL off",
                        "FATAL: no pg_hba.conf entry for host \"***\", user \"***\", database \"shop\", SSL off"},
                {"FATAL: password authentication failed for user \"east_app\"",
                        "FATAL: password authentication failed for user \"***\""},
                {"Access denied for user 'shopper'@'192.168.1.7' (using password: YES)",
                        "Access denied for user *** (using password: YES)"},
                {"connect from fe80::1ff:fe23:4567:890a refused; login shopper", "connect from *** refused; login ***"},
                {"ORA-01017: invalid username/password; logon denied as east_app",
                        "ORA-01017: invalid username/password; logon denied as ***"},
                {"origin 'east': could not connect: Connection refused (user=shopper)",
                        "origin 'east': could not connect: Connection refused (user=***)"},
                {"authentication failed (SQLState 28000, vendor code 0; next attempt in 60000 ms)",
                        "authentication failed (SQLState 28000, vendor code 0; next attempt in 60000 ms)"}};
        for (String[] c : cases) {
            assertThat(PoolAccessPolicy.forReaders(c[0], config)).as(c[0]).isEqualTo(c[1]);
        }
        assertThat(PoolAccessPolicy.forReaders(null, config)).isNull();
    }
}
