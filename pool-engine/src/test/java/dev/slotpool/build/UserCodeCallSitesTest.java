package dev.slotpool.build;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every call into user code goes through {@code dev.slotpool.kernel.UserCode} (docs/architecture.md, "User code"):
 * no other engine class invokes a method of a user-supplied interface, directly or by a method reference. The one
 * exception is {@code SqlErrors}, which calls the lease's override: the pool built it with
 * {@code UserCode.guarded}.
 */
class UserCodeCallSitesTest {

    private static final Path CLASSES =
            Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve("target/classes");

    /** The interfaces whose implementations the user supplies (Ticker is a clock for tests, read everywhere). */
    private static final Set<String> USER_INTERFACES = Set.of(
            "dev/slotpool/PoolListener",
            "dev/slotpool/BorrowObserver",
            "dev/slotpool/LabelingCallback",
            "dev/slotpool/SqlExceptionOverride",
            "dev/slotpool/CredentialsProvider");

    private static final String HELPER = "dev/slotpool/kernel/UserCode";
    private static final String GUARDED_OVERRIDE_CALLER = "dev/slotpool/jdbc/SqlErrors";

    @Test
    void onlyUserCodeCallsUserSuppliedInterfaces() throws IOException {
        List<String> callers = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(CLASSES)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(files).as("engine classes under %s", CLASSES).isNotEmpty();
        boolean helperCalls = false;
        for (Path file : files) {
            for (String call : calls(Files.readAllBytes(file))) {
                String caller = call.substring(0, call.indexOf(' '));
                if (caller.equals(HELPER)) {
                    helperCalls = true;
                } else if (!(caller.equals(GUARDED_OVERRIDE_CALLER)
                        && call.endsWith("SqlExceptionOverride.adjudicate"))) {
                    callers.add(call);
                }
            }
        }
        assertThat(helperCalls).as("the helper itself calls user code (the scan sees calls)").isTrue();
        assertThat(callers).as("calls into user code outside UserCode").isEmpty();
    }

    /** "caller owner.method" for each invocation of, or method handle to, a user interface's method. */
    private static List<String> calls(byte[] bytes) {
        List<String> found = new ArrayList<>();
        ClassReader reader = new ClassReader(bytes);
        String self = reader.getClassName();
        if (USER_INTERFACES.contains(self) || self.startsWith("dev/slotpool/CredentialsProvider$")) {
            return found;
        }
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
                        note(owner, method);
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String method, String desc, Handle bsm, Object... args) {
                        for (Object arg : args) {
                            if (arg instanceof Handle h) {
                                note(h.getOwner(), h.getName());
                            }
                        }
                    }

                    private void note(String owner, String method) {
                        if (USER_INTERFACES.contains(owner)) {
                            found.add(self + " " + owner.substring(owner.lastIndexOf('/') + 1) + "." + method);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG);
        return found;
    }
}
