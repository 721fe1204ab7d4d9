package dev.slotpool.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Finds work handed to the common fork-join pool: a {@code CompletableFuture} {@code *Async} method called without
 * an executor, or {@code ForkJoinPool.commonPool()}. The engine runs its work on its own threads and never on the
 * application's; a test that blocks in such a task can starve the next one, because the common pool has one worker
 * on a two-core machine (from JDK 25 on, {@code CompletableFuture} uses it even then).
 */
final class CommonPoolRule {

    private static final String COMPLETABLE_FUTURE = "java/util/concurrent/CompletableFuture";
    private static final String FORK_JOIN_POOL = "java/util/concurrent/ForkJoinPool";
    private static final Type EXECUTOR = Type.getObjectType("java/util/concurrent/Executor");

    private CommonPoolRule() {
    }

    /** What a scan of a directory found: how many classes it read, and each use as {@code Class.method: what}. */
    record Report(int classCount, List<String> uses) {
    }

    /** Scans every {@code .class} file under {@code root}, leaving out the classes under {@code skipped}. */
    static Report scan(Path root, Path skipped) throws IOException {
        List<String> uses = new ArrayList<>();
        List<Path> classFiles;
        try (Stream<Path> files = Files.walk(root)) {
            classFiles = files.filter(p -> p.toString().endsWith(".class") && !p.startsWith(skipped)).toList();
        }
        for (Path file : classFiles) {
            new ClassReader(Files.readAllBytes(file)).accept(new Scanner(uses), ClassReader.SKIP_FRAMES);
        }
        return new Report(classFiles.size(), uses);
    }

    /** Why a call or method reference hands work to the common pool, or null when it does not. */
    static String commonPoolUse(String owner, String name, String descriptor) {
        if (owner.equals(COMPLETABLE_FUTURE) && name.endsWith("Async")
                && !List.of(Type.getArgumentTypes(descriptor)).contains(EXECUTOR)) {
            return "CompletableFuture." + name + " without an executor";
        }
        if (owner.equals(FORK_JOIN_POOL) && name.equals("commonPool")) {
            return "ForkJoinPool.commonPool()";
        }
        return null;
    }

    private static final class Scanner extends ClassVisitor {

        private final List<String> uses;
        private String className = "?";

        Scanner(List<String> uses) {
            super(Opcodes.ASM9);
            this.uses = uses;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                          String[] interfaces) {
            className = name.replace('/', '.');
        }

        @Override
        public MethodVisitor visitMethod(int access, String method, String descriptor, String signature,
                                         String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
                    note(commonPoolUse(owner, name, desc));
                }

                @Override
                public void visitInvokeDynamicInsn(String name, String desc, Handle bootstrap, Object... args) {
                    for (Object arg : args) {
                        if (arg instanceof Handle h) {
                            note(commonPoolUse(h.getOwner(), h.getName(), h.getDesc()));
                        }
                    }
                }

                private void note(String use) {
                    if (use != null) {
                        uses.add(className + "." + method + ": " + use);
                    }
                }
            };
        }
    }
}
