package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.OriginConfig;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.SlotPoolProperties;
import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the subscriber hands simplefan, and what it prints. */
class FanSettingsTest {

    @Test
    void oneSubscriptionPerServiceOfTheOriginsIgnoringCase() {
        try (SlotPoolDataSource pool = SlotPoolDataSource.builder().minSize(0)
                .origin(OriginConfig.named("a").url(StubDatabase.reset("fs-a").url()).service("sales"))
                .origin(OriginConfig.named("b").url(StubDatabase.reset("fs-b").url()).service("SALES"))
                .origin(OriginConfig.named("c").url(StubDatabase.reset("fs-c").url()).service("hr"))
                .origin(OriginConfig.named("d").url(StubDatabase.reset("fs-d").url()))
                .build()) {
            FanSettings settings = FanSettings.of(new SlotPoolProperties.Fan(), pool.snapshot());
            assertThat(settings.services()).containsExactly("sales", "hr");
            assertThat(settings.configureProperties()).as("no ons-configuration: simplefan's defaults").isNull();
        }
    }

    @Test
    void theOnsConfigurationIsPassedAsItIsWithTheWalletAppended() {
        FanSettings s = new FanSettings(List.of("sales"), "nodes=rac1:6200,rac2:6200", "/w", "pw-secret", null);
        assertThat(s.configureProperties()).containsOnlyKeys("onsRemoteConfig");
        assertThat(s.configureProperties().getProperty("onsRemoteConfig"))
                .isEqualTo("nodes=rac1:6200,rac2:6200\nwalletfile=/w\nwalletpassword=pw-secret");
        assertThat(new FanSettings(List.of("sales"), "nodes=rac1:6200", null, null, null).configureProperties()
                .getProperty("onsRemoteConfig")).isEqualTo("nodes=rac1:6200");
    }

    @Test
    void logsShowTheNodesNeverTheWalletPassword() {
        FanSettings s = new FanSettings(List.of("sales"),
                "nodes=rac1:6200,rac2:6200\nwalletpassword=inline-secret\nnodes.2=dr1:6200", "/w", "pw-secret", null);
        assertThat(s.describeOns()).isEqualTo("nodes=rac1:6200,rac2:6200; nodes.2=dr1:6200 (+1 more entries) "
                + "with a wallet");
        assertThat(s.toString()).doesNotContain("secret");
        assertThat(s.redact("failed: walletpassword=inline-secret\nand pw-secret again"))
                .isEqualTo("failed: walletpassword=******\nand ****** again");
    }
}
