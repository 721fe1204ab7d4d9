package dev.slotpool.build;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariant S4 on the engine's compiled main output: atomics only (no monitors, no locks but LockSupport,
 * no Object.wait/notify) and no library but the JDK. {@link BytecodeRulesSelfTest} proves the scanner bites.
 */
class EngineBytecodeRulesTest {

    /** Surefire sets basedir and runs in it; an IDE usually runs in the module directory too. */
    private static final Path MODULE = Path.of(System.getProperty("basedir", "")).toAbsolutePath();

    @Test
    void engineUsesAtomicsAndTheJdkOnly() throws IOException {
        Path sources = MODULE.resolve("src/main/java");
        Path classes = MODULE.resolve("target/classes");
        long sourceFiles = countSourceFiles(sources);
        assertThat(sourceFiles).as("engine sources under %s", sources).isPositive();

        BytecodeRules.Report report = BytecodeRules.scanDirectory(classes);

        // Every source file yields at least one class file; fewer means the scan looked in the wrong place
        // (or at a stale output) and would pass vacuously.
        assertThat(report.classCount())
                .as("class files under %s, compiled from %d engine source files", classes, sourceFiles)
                .isGreaterThanOrEqualTo((int) sourceFiles);
        assertThat(report.violations())
                .withFailMessage(() -> "Invariant S4 (atomics and the JDK only) broken in " + classes + ":\n  "
                        + String.join("\n  ", report.violations()))
                .isEmpty();
    }

    /** package-info.java compiles to nothing unless annotated, so it does not count. */
    private static long countSourceFiles(Path sources) throws IOException {
        if (!Files.isDirectory(sources)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.endsWith(".java") && !name.equals("package-info.java"))
                    .count();
        }
    }
}
