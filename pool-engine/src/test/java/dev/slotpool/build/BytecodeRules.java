package dev.slotpool.build;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.RecordComponentVisitor;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.signature.SignatureReader;
import org.objectweb.asm.signature.SignatureVisitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Invariant S4 read from bytecode: the engine synchronises with atomics only and links against the JDK only.
 *
 * <p>Checked on class files rather than sources so that nothing slips through by spelling (a fully qualified
 * name, a {@code var}, a method reference, an inherited lock type): whatever the compiler emitted is what runs.
 * Each violation reads {@code ClassName.member: what}, where member is a method or field name, or
 * {@code <class>} for the class header (supertypes, annotations, inner-class entries).
 */
public final class BytecodeRules {

    /** The one class of {@code java.util.concurrent.locks} allowed: the per-thread permit waiting is built on. */
    static final String LOCK_SUPPORT = "java/util/concurrent/locks/LockSupport";

    private static final String LOCKS_PACKAGE = "java/util/concurrent/locks/";

    /** Libraries the engine must not link against; the POM's enforcer rule bans the same at dependency level. */
    private static final List<String> BANNED_LIBRARY_PREFIXES = List.of(
            "org/springframework/", "org/slf4j/", "io/micrometer/", "ch/qos/logback/", "org/apache/logging/");

    /** What a scan of a directory found: how many classes it read, and every violation in them. */
    public record Report(int classCount, List<String> violations) {
    }

    private BytecodeRules() {
    }

    /** Scans every {@code .class} file under {@code root} (recursively); a missing directory reads as empty. */
    public static Report scanDirectory(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return new Report(0, List.of());
        }
        List<Path> classFiles;
        try (Stream<Path> files = Files.walk(root)) {
            classFiles = files.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        List<String> violations = new ArrayList<>();
        for (Path file : classFiles) {
            violations.addAll(scan(Files.readAllBytes(file)));
        }
        return new Report(classFiles.size(), List.copyOf(violations));
    }

    /** The violations in one class file, in order of appearance, without duplicates. */
    public static List<String> scan(byte[] classBytes) {
        Set<String> violations = new LinkedHashSet<>();
        // Debug info (local variable types) is kept on purpose: a lock-typed local is a lock in use.
        new ClassReader(classBytes).accept(new ClassScanner(violations), 0);
        return List.copyOf(violations);
    }

    /** Scans a class that is on the test classpath, such as a fixture. */
    public static List<String> scan(Class<?> type) {
        String resource = "/" + type.getName().replace('.', '/') + ".class";
        try (var in = type.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no class file for " + type.getName());
            }
            return scan(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Why an internal class name is banned, or null when it is allowed. */
    static String bannedReason(String internalName) {
        if (internalName.startsWith(LOCKS_PACKAGE) && !internalName.equals(LOCK_SUPPORT)) {
            return "uses lock type " + internalName.replace('/', '.');
        }
        for (String prefix : BANNED_LIBRARY_PREFIXES) {
            if (internalName.startsWith(prefix)) {
                return "references non-JDK library class " + internalName.replace('/', '.');
            }
        }
        return null;
    }

    /** Object's monitor methods are final, so a call by name and Object's descriptor is them whatever the owner. */
    static boolean isMonitorMethod(String owner, String name, String descriptor) {
        return switch (name) {
            case "wait" -> owner.equals("java/lang/Object")
                    || descriptor.equals("()V") || descriptor.equals("(J)V") || descriptor.equals("(JI)V");
            case "notify", "notifyAll" -> descriptor.equals("()V");
            default -> false;
        };
    }

    private static final class ClassScanner extends ClassVisitor {

        private final Set<String> violations;
        private String className = "?";

        ClassScanner(Set<String> violations) {
            super(Opcodes.ASM9);
            this.violations = violations;
        }

        private void report(String member, String what) {
            violations.add(className + "." + member + ": " + what);
        }

        private void checkName(String member, String internalName) {
            if (internalName == null) {
                return;
            }
            // Array descriptors ("[Ljava/...;") can stand where a class name is expected (type insns, LDC).
            if (internalName.startsWith("[")) {
                checkDescriptor(member, internalName);
                return;
            }
            String reason = bannedReason(internalName);
            if (reason != null) {
                report(member, reason);
            }
        }

        /** Descriptors are a subset of generic signatures, so one parser serves both. */
        private void checkDescriptor(String member, String descriptorOrSignature) {
            if (descriptorOrSignature == null) {
                return;
            }
            SignatureVisitor collector = new SignatureVisitor(Opcodes.ASM9) {
                @Override
                public void visitClassType(String name) {
                    checkName(member, name);
                }
            };
            SignatureReader reader = new SignatureReader(descriptorOrSignature);
            // Method descriptors and generic method signatures need accept(); field types need acceptType().
            if (descriptorOrSignature.startsWith("(") || descriptorOrSignature.startsWith("<")) {
                reader.accept(collector);
            } else {
                reader.acceptType(collector);
            }
        }

        /** A class signature ("Lsuper;Litf;...", maybe with type parameters first) lists several types. */
        private void checkClassSignature(String signature) {
            if (signature != null) {
                new SignatureReader(signature).accept(new SignatureVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitClassType(String name) {
                        checkName("<class>", name);
                    }
                });
            }
        }

        private void checkConstant(String member, Object value) {
            if (value instanceof Type type) {
                checkDescriptor(member, type.getDescriptor());
            } else if (value instanceof Handle handle) {
                checkHandle(member, handle);
            } else if (value instanceof ConstantDynamic condy) {
                checkDescriptor(member, condy.getDescriptor());
                checkHandle(member, condy.getBootstrapMethod());
                for (int i = 0; i < condy.getBootstrapMethodArgumentCount(); i++) {
                    checkConstant(member, condy.getBootstrapMethodArgument(i));
                }
            }
        }

        private void checkHandle(String member, Handle handle) {
            checkName(member, handle.getOwner());
            checkDescriptor(member, handle.getDesc());
            boolean onInstance = handle.getTag() == Opcodes.H_INVOKEVIRTUAL
                    || handle.getTag() == Opcodes.H_INVOKESPECIAL || handle.getTag() == Opcodes.H_INVOKEINTERFACE;
            if (onInstance && isMonitorMethod(handle.getOwner(), handle.getName(), handle.getDesc())) {
                report(member, "method reference to Object." + handle.getName());
            }
        }

        private AnnotationVisitor annotation(String member, String descriptor) {
            checkDescriptor(member, descriptor);
            return new AnnotationScanner(member);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                          String[] interfaces) {
            className = name.replace('/', '.');
            checkClassSignature(signature);
            checkName("<class>", superName);
            if (interfaces != null) {
                for (String itf : interfaces) {
                    checkName("<class>", itf);
                }
            }
        }

        @Override
        public void visitInnerClass(String name, String outerName, String innerName, int access) {
            checkName("<class>", name);
            checkName("<class>", outerName);
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return annotation("<class>", descriptor);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String descriptor,
                                                     boolean visible) {
            return annotation("<class>", descriptor);
        }

        @Override
        public RecordComponentVisitor visitRecordComponent(String name, String descriptor, String signature) {
            checkDescriptor(name, descriptor);
            checkDescriptor(name, signature);
            return new RecordComponentVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return annotation(name, annotation);
                }

                @Override
                public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String annotation,
                                                             boolean visible) {
                    return annotation(name, annotation);
                }
            };
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature,
                                       Object value) {
            checkDescriptor(name, descriptor);
            checkDescriptor(name, signature);
            return new FieldVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return annotation(name, annotation);
                }

                @Override
                public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String annotation,
                                                             boolean visible) {
                    return annotation(name, annotation);
                }
            };
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                         String[] exceptions) {
            if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                report(name, "synchronized method");
            }
            checkDescriptor(name, descriptor);
            checkDescriptor(name, signature);
            if (exceptions != null) {
                for (String exception : exceptions) {
                    checkName(name, exception);
                }
            }
            return new MethodScanner(name);
        }

        private final class AnnotationScanner extends AnnotationVisitor {

            private final String member;

            AnnotationScanner(String member) {
                super(Opcodes.ASM9);
                this.member = member;
            }

            @Override
            public void visit(String name, Object value) {
                checkConstant(member, value);
            }

            @Override
            public void visitEnum(String name, String descriptor, String value) {
                checkDescriptor(member, descriptor);
            }

            @Override
            public AnnotationVisitor visitAnnotation(String name, String descriptor) {
                return annotation(member, descriptor);
            }

            @Override
            public AnnotationVisitor visitArray(String name) {
                return this;
            }
        }

        private final class MethodScanner extends MethodVisitor {

            private final String method;

            MethodScanner(String method) {
                super(Opcodes.ASM9);
                this.method = method;
            }

            @Override
            public void visitInsn(int opcode) {
                if (opcode == Opcodes.MONITORENTER) {
                    report(method, "monitorenter (synchronized block)");
                } else if (opcode == Opcodes.MONITOREXIT) {
                    report(method, "monitorexit (synchronized block)");
                }
            }

            @Override
            public void visitTypeInsn(int opcode, String type) {
                checkName(method, type);
            }

            @Override
            public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
                checkName(method, owner);
                checkDescriptor(method, descriptor);
            }

            @Override
            public void visitMethodInsn(int opcode, String owner, String name, String descriptor,
                                        boolean isInterface) {
                checkName(method, owner);
                checkDescriptor(method, descriptor);
                if (opcode != Opcodes.INVOKESTATIC && isMonitorMethod(owner, name, descriptor)) {
                    report(method, "calls Object." + name + " on " + owner.replace('/', '.'));
                }
            }

            @Override
            public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap,
                                               Object... arguments) {
                checkDescriptor(method, descriptor);
                checkHandle(method, bootstrap);
                for (Object argument : arguments) {
                    checkConstant(method, argument);
                }
            }

            @Override
            public void visitLdcInsn(Object value) {
                checkConstant(method, value);
            }

            @Override
            public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
                checkDescriptor(method, descriptor);
            }

            @Override
            public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                checkName(method, type);
            }

            @Override
            public void visitLocalVariable(String name, String descriptor, String signature, Label start,
                                           Label end, int index) {
                checkDescriptor(method, descriptor);
                checkDescriptor(method, signature);
            }

            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                return annotation(method, descriptor);
            }

            @Override
            public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
                return annotation(method, descriptor);
            }

            @Override
            public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String descriptor,
                                                         boolean visible) {
                return annotation(method, descriptor);
            }

            @Override
            public AnnotationVisitor visitInsnAnnotation(int typeRef, TypePath typePath, String descriptor,
                                                         boolean visible) {
                return annotation(method, descriptor);
            }

            @Override
            public AnnotationVisitor visitTryCatchAnnotation(int typeRef, TypePath typePath, String descriptor,
                                                             boolean visible) {
                return annotation(method, descriptor);
            }

            @Override
            public AnnotationVisitor visitLocalVariableAnnotation(int typeRef, TypePath typePath, Label[] start,
                                                                  Label[] end, int[] index, String descriptor,
                                                                  boolean visible) {
                return annotation(method, descriptor);
            }

            @Override
            public AnnotationVisitor visitAnnotationDefault() {
                return new AnnotationScanner(method);
            }
        }
    }
}
