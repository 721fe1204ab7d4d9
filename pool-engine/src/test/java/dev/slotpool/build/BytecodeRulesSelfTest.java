package dev.slotpool.build;

import dev.slotpool.build.fixtures.UsesOnlyAtomics;
import dev.slotpool.build.fixtures.UsesReadWriteLockLocal;
import dev.slotpool.build.fixtures.UsesReentrantLock;
import dev.slotpool.build.fixtures.UsesSynchronized;
import dev.slotpool.build.fixtures.UsesSynchronizedMethod;
import dev.slotpool.build.fixtures.UsesWait;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The scanner behind {@link EngineBytecodeRulesTest} fails on bad input, so its green means something. */
class BytecodeRulesSelfTest {

    private static final String FIXTURES = "dev.slotpool.build.fixtures.";

    @Test
    void reportsSynchronizedBlock() {
        assertThat(BytecodeRules.scan(UsesSynchronized.class)).contains(
                FIXTURES + "UsesSynchronized.increment: monitorenter (synchronized block)",
                FIXTURES + "UsesSynchronized.increment: monitorexit (synchronized block)");
    }

    @Test
    void reportsSynchronizedMethod() {
        assertThat(BytecodeRules.scan(UsesSynchronizedMethod.class))
                .containsExactly(FIXTURES + "UsesSynchronizedMethod.increment: synchronized method");
    }

    @Test
    void reportsLockTypesInFieldsAndCalls() {
        assertThat(BytecodeRules.scan(UsesReentrantLock.class)).contains(
                FIXTURES + "UsesReentrantLock.lock: uses lock type java.util.concurrent.locks.ReentrantLock",
                FIXTURES + "UsesReentrantLock.ready: uses lock type java.util.concurrent.locks.Condition",
                FIXTURES + "UsesReentrantLock.await: uses lock type java.util.concurrent.locks.ReentrantLock",
                FIXTURES + "UsesReentrantLock.await: uses lock type java.util.concurrent.locks.Condition");
    }

    @Test
    void reportsLockTypesReachedOnlyThroughLocalsAndMethodReferences() {
        assertThat(BytecodeRules.scan(UsesReadWriteLockLocal.class)).contains(
                FIXTURES + "UsesReadWriteLockLocal.readLocked: uses lock type "
                        + "java.util.concurrent.locks.ReentrantReadWriteLock",
                FIXTURES + "UsesReadWriteLockLocal.readLocked: uses lock type "
                        + "java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock");
    }

    @Test
    void reportsObjectMonitorMethodsWhateverTheOwner() {
        List<String> violations = BytecodeRules.scan(UsesWait.class);
        assertThat(violations).contains(
                FIXTURES + "UsesWait.pause: calls Object.wait on java.lang.Object",
                FIXTURES + "UsesWait.wake: calls Object.notify on java.lang.Object",
                FIXTURES + "UsesWait.waker: method reference to Object.notifyAll");
        assertThat(violations).anyMatch(v -> v.startsWith(FIXTURES + "UsesWait.pauseOn: calls Object.wait on "));
        assertThat(violations).anyMatch(v -> v.startsWith(FIXTURES + "UsesWait.wakeAll: calls Object.notifyAll on "));
    }

    @Test
    void reportsMonitorMethodsNamedThroughAnyOwnerButNotLookalikes() {
        // javac names Object as the owner; other compilers and bytecode tools may name the receiver's class.
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "gen/Waits", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "run", "(Lgen/Signal;)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitLdcInsn(10L);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "gen/Signal", "wait", "(J)V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "gen/Signal", "notifyAll", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, "gen/Waitable", "notify", "()V", true);
        // Lookalikes that are not Object's methods: a static wait() and an overload with another descriptor.
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "gen/Signal", "wait", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitLdcInsn("x");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "gen/Signal", "wait", "(Ljava/lang/String;)V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();

        assertThat(BytecodeRules.scan(cw.toByteArray())).containsExactly(
                "gen.Waits.run: calls Object.wait on gen.Signal",
                "gen.Waits.run: calls Object.notifyAll on gen.Signal",
                "gen.Waits.run: calls Object.notify on gen.Waitable");
    }

    @Test
    void atomicsVarHandlesAndLockSupportAreClean() {
        assertThat(BytecodeRules.scan(UsesOnlyAtomics.class)).isEmpty();
    }

    @Test
    void reportsEveryBannedLibraryWhereverItIsReferenced() {
        // The test classpath has none of these libraries, so the class is generated rather than compiled.
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "gen/Bad", null, "java/lang/Object",
                new String[] {"org/springframework/beans/factory/InitializingBean"});
        cw.visitField(Opcodes.ACC_PRIVATE, "log", "Lorg/slf4j/Logger;", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "meter", "()Ljava/lang/Object;",
                null, null);
        mv.visitCode();
        mv.visitLdcInsn(Type.getObjectType("io/micrometer/core/instrument/MeterRegistry"));
        mv.visitInsn(Opcodes.POP);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "org/apache/logging/log4j/LogManager", "getLogger",
                "()Lorg/apache/logging/log4j/Logger;", false);
        mv.visitTypeInsn(Opcodes.CHECKCAST, "ch/qos/logback/classic/Logger");
        mv.visitInsn(Opcodes.ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();

        assertThat(BytecodeRules.scan(cw.toByteArray())).containsExactlyInAnyOrder(
                "gen.Bad.<class>: references non-JDK library class org.springframework.beans.factory.InitializingBean",
                "gen.Bad.log: references non-JDK library class org.slf4j.Logger",
                "gen.Bad.meter: references non-JDK library class io.micrometer.core.instrument.MeterRegistry",
                "gen.Bad.meter: references non-JDK library class org.apache.logging.log4j.LogManager",
                "gen.Bad.meter: references non-JDK library class org.apache.logging.log4j.Logger",
                "gen.Bad.meter: references non-JDK library class ch.qos.logback.classic.Logger");
    }

    @Test
    void directoryScanCountsClassesAndCollectsViolations(@TempDir Path dir) throws IOException {
        assertThat(BytecodeRules.scanDirectory(dir).classCount())
                .as("an empty output is visible as such, so the engine test cannot pass vacuously").isZero();
        assertThat(BytecodeRules.scanDirectory(dir.resolve("missing")).classCount()).isZero();

        copyClass(UsesOnlyAtomics.class, dir);
        copyClass(UsesSynchronizedMethod.class, dir);
        BytecodeRules.Report report = BytecodeRules.scanDirectory(dir);

        assertThat(report.classCount()).isEqualTo(2);
        assertThat(report.violations())
                .containsExactly(FIXTURES + "UsesSynchronizedMethod.increment: synchronized method");
    }

    private static void copyClass(Class<?> type, Path dir) throws IOException {
        String path = type.getName().replace('.', '/') + ".class";
        Path target = dir.resolve(path);
        Files.createDirectories(target.getParent());
        try (var in = type.getResourceAsStream("/" + path)) {
            Files.copy(in, target);
        }
    }
}
