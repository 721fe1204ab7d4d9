package dev.slotpool.bench.pg;

import dev.slotpool.bench.UsageException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line: defaults, and bad input rejected with the option named. */
class TransactionOptionsTest {

    @Test
    void defaultsAreTheFullGrid() {
        TransactionOptions o = TransactionOptions.parse();
        assertThat(o.pools()).extracting(p -> p.id()).containsExactly("slotpool", "hikari", "ucp");
        assertThat(o.threads()).containsExactly(10, 100, 1000);
        assertThat(o.connections()).containsExactly(5, 10, 20);
        assertThat(o.runs()).isEqualTo(3);
        assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.window()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.accounts()).isEqualTo(100_000);
        assertThat(o.largestPool()).isEqualTo(20);
        assertThat(o.synchronousCommit()).isFalse();
        assertThat(o.slotpoolTurn()).isNull();
    }

    @Test
    void slotpoolTurnIsADurationUpToOneSecond() {
        assertThat(TransactionOptions.parse("--slotpool-turn", "2500us").slotpoolTurn())
                .isEqualTo(Duration.ofMillis(2).plusNanos(500_000));
        assertThat(TransactionOptions.parse("--slotpool-turn", "0ms").slotpoolTurn()).isZero();
        assertThatThrownBy(() -> TransactionOptions.parse("--slotpool-turn", "2s"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--slotpool-turn: at most 1s");
        assertThatThrownBy(() -> TransactionOptions.parse("--slotpool-turn", "fast"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--slotpool-turn:");
    }

    @Test
    void givenValuesOverrideQuick() {
        TransactionOptions o = TransactionOptions.parse("--quick", "--threads=3", "--window", "1.5s");
        assertThat(o.threads()).isEqualTo(List.of(3));
        assertThat(o.window()).isEqualTo(Duration.ofMillis(1500));
        assertThat(o.runs()).isEqualTo(1);
        assertThat(TransactionOptions.parse("--synchronous-commit", "on").synchronousCommit()).isTrue();
    }

    @Test
    void unknownOptionIsNamed() {
        assertThatThrownBy(() -> TransactionOptions.parse("--thread", "10"))
                .isInstanceOf(UsageException.class).hasMessageContaining("'--thread'");
    }

    @Test
    void badNumbersNameTheirOption() {
        assertThatThrownBy(() -> TransactionOptions.parse("--connections", "5,x"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--connections:");
        assertThatThrownBy(() -> TransactionOptions.parse("--runs", "0"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--runs:");
        assertThatThrownBy(() -> TransactionOptions.parse("--window", "10"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--window:");
        assertThatThrownBy(() -> TransactionOptions.parse("--pools", "slotpool,nope"))
                .isInstanceOf(UsageException.class).hasMessageContaining("'nope'");
        assertThatThrownBy(() -> TransactionOptions.parse("--synchronous-commit", "yes"))
                .isInstanceOf(UsageException.class).hasMessageStartingWith("--synchronous-commit:");
    }
}
