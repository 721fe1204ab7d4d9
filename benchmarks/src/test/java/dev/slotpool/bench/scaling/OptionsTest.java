package dev.slotpool.bench.scaling;

import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OptionsTest {

    @Test
    void defaultsAreTheFullMeasurement() {
        Options o = Options.parse();
        assertThat(o.modes()).containsExactlyInAnyOrder(Mode.values());
        assertThat(o.pools()).containsExactly(PoolKind.values());
        assertThat(o.runs()).isEqualTo(3);
        assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(1));
        assertThat(o.window()).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.hold()).isEqualTo(Duration.ofMillis(1));
        assertThat(o.connections()).isEqualTo(6);
        assertThat(o.borrowTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.out()).isEqualTo(Path.of("benchmarks/results/scaling"));
        assertThat(o.threadCounts(ThreadKind.PLATFORM)).containsExactly(10, 50, 100, 500, 1000, 5000, 10000);
        assertThat(o.threadCounts(ThreadKind.VIRTUAL)).containsExactly(10, 1000, 10000);
        assertThat(o.kinds()).startsWith(ThreadKind.PLATFORM)
                .hasSize(ThreadKind.VIRTUAL.available() ? 2 : 1);
    }

    @Test
    void quickIsTinyAndExplicitOptionsWin() {
        Options quick = Options.parse("--quick");
        assertThat(quick.runs()).isEqualTo(1);
        assertThat(quick.window()).isEqualTo(Duration.ofMillis(300));
        assertThat(quick.threadCounts(ThreadKind.PLATFORM)).containsExactly(10, 100);

        Options mixed = Options.parse("--quick", "--runs=2", "--threads", "7,70", "--mode", "held",
                "--pools", "hikari,slotpool", "--hold", "500us", "--window", "1.5s", "--platform");
        assertThat(mixed.runs()).isEqualTo(2);
        assertThat(mixed.threadCounts(ThreadKind.PLATFORM)).containsExactly(7, 70);
        assertThat(mixed.modes()).containsExactly(Mode.HELD);
        assertThat(mixed.pools()).containsExactly(PoolKind.HIKARI, PoolKind.SLOTPOOL);
        assertThat(mixed.hold()).isEqualTo(Duration.ofNanos(500_000));
        assertThat(mixed.window()).isEqualTo(Duration.ofMillis(1500));
        assertThat(mixed.kinds()).containsExactly(ThreadKind.PLATFORM);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "--bogus                 | unknown option '--bogus'",
            "stray                   | unexpected argument 'stray'",
            "--runs                  | --runs needs a value",
            "--runs 0                | --runs: expected a positive whole number, got '0'",
            "--runs 2 --runs 3       | --runs is given twice",
            "--window 3              | --window: expected a duration",
            "--window 0s             | --window: must be more than zero",
            "--warmup soon           | --warmup: expected a duration",
            "--hold 1ms --timeout -1s | --timeout: expected a duration",
            "--mode fast             | --mode: expected scaling, held or both, got 'fast'",
            "--pools slotpool,foo    | --pools: unknown pool 'foo'",
            "--pools hikari,hikari   | --pools: hikari is listed twice",
            "--threads 10,x          | --threads: expected positive whole numbers",
            "--connections -1        | --connections: expected a positive whole number, got '-1'",
            "--quick=yes             | --quick takes no value",
            "--virtual --platform    | --virtual and --platform exclude each other",
    })
    void badOptionsAreNamed(String args, String message) {
        assertThatThrownBy(() -> Options.parse(args.split(" ")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining(message);
    }

    @Test
    void virtualFailsClearlyWithoutVirtualThreads() {
        if (VirtualThreads.available()) {
            assertThat(Options.parse("--virtual").kinds()).containsExactly(ThreadKind.VIRTUAL);
        } else {
            assertThatThrownBy(() -> Options.parse("--virtual"))
                    .isInstanceOf(UsageException.class)
                    .hasMessageContaining("--virtual: Java " + Runtime.version())
                    .hasMessageContaining("JDK 21 or newer");
        }
    }

    @Test
    void usageNamesEveryOption() {
        for (String option : List.of("--mode", "--pools", "--threads", "--platform", "--virtual", "--runs",
                "--warmup", "--window", "--hold", "--connections", "--timeout", "--out", "--quick", "--help")) {
            assertThat(Options.USAGE).contains(option);
        }
    }
}
