package dev.slotpool.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.slotpool.build.fixtures.UsesCommonPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Neither the engine nor its tests hand work to the common fork-join pool ({@link CommonPoolRule}): two tests that
 * blocked in {@code CompletableFuture.supplyAsync} tasks never saw their second task start on JDK 25 on two cores.
 */
class CommonPoolRuleTest {

    private static final Path MODULE = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    private static final Path FIXTURES = MODULE.resolve("target/test-classes/dev/slotpool/build/fixtures");

    @Test
    void neitherTheEngineNorItsTestsUseTheCommonPool() throws IOException {
        for (String output : new String[] {"target/classes", "target/test-classes"}) {
            CommonPoolRule.Report report = CommonPoolRule.scan(MODULE.resolve(output), FIXTURES);
            assertThat(report.classCount()).as("class files under %s", output).isGreaterThan(100);
            assertThat(report.uses())
                    .withFailMessage(() -> "work handed to the common pool in " + output + " (run it on a thread "
                            + "of its own: dev.slotpool.testsupport.OwnThread in tests):\n  "
                            + String.join("\n  ", report.uses()))
                    .isEmpty();
        }
    }

    @Test
    void theRuleFindsEachWayOfReachingTheCommonPoolAndLeavesExecutorsAlone(@TempDir Path dir) throws IOException {
        String path = UsesCommonPool.class.getName().replace('.', '/') + ".class";
        Path copy = dir.resolve(path);
        Files.createDirectories(copy.getParent());
        try (var in = UsesCommonPool.class.getResourceAsStream("/" + path)) {
            Files.copy(in, copy);
        }

        CommonPoolRule.Report report = CommonPoolRule.scan(dir, dir.resolve("nothing-skipped"));

        String fixture = UsesCommonPool.class.getName() + ".";
        assertThat(report.uses()).containsExactlyInAnyOrder(
                fixture + "supply: CompletableFuture.supplyAsync without an executor",
                fixture + "chain: CompletableFuture.thenAcceptAsync without an executor",
                fixture + "reference: CompletableFuture.supplyAsync without an executor",
                fixture + "pool: ForkJoinPool.commonPool()");
    }
}
