package dev.slotpool.layout;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Where the JVM put one instance field of a class among the others: the field offsets {@code sun.misc.Unsafe}
 * reports, as JOL reads them (reached by reflection: the engine's module does not read {@code jdk.unsupported}).
 * For the padded classes whose word must have a cache line to itself (docs/benchmarks.md, "Cache lines: the slot, the
 * means and the entry padded").
 */
public final class FieldLayout {

    public static final int CACHE_LINE = 64;

    /** Bytes of the object's own fields before {@code field}'s offset. */
    public final long before;
    /** Bytes of the object's own fields after {@code field}'s last byte. */
    public final long after;

    private FieldLayout(long before, long after) {
        this.before = before;
        this.after = after;
    }

    /** The layout around {@code field}, declared in {@code type} or one of its superclasses. */
    public static FieldLayout around(Class<?> type, String field) throws ReflectiveOperationException {
        Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        Object unsafe = theUnsafe.get(null);
        Method fieldOffset = unsafe.getClass().getMethod("objectFieldOffset", Field.class);
        // A reference field is as wide as an element of an Object[] (4 bytes with compressed references).
        int referenceBytes = (int) unsafe.getClass().getMethod("arrayIndexScale", Class.class)
                .invoke(unsafe, Object[].class);
        long word = -1;
        long wordEnd = -1;
        long first = Long.MAX_VALUE;
        long last = -1;
        for (Class<?> c = type; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                long offset = (long) fieldOffset.invoke(unsafe, f);
                long end = offset + bytes(f.getType(), referenceBytes);
                if (f.getName().equals(field)) {
                    word = offset;
                    wordEnd = end;
                }
                first = Math.min(first, offset);
                last = Math.max(last, end);
            }
        }
        if (word < 0) {
            throw new NoSuchFieldException(type.getName() + "." + field);
        }
        return new FieldLayout(word - first, last - wordEnd);
    }

    private static int bytes(Class<?> type, int referenceBytes) {
        if (type == long.class || type == double.class) {
            return 8;
        }
        if (type == int.class || type == float.class) {
            return 4;
        }
        if (type == short.class || type == char.class) {
            return 2;
        }
        if (type == byte.class || type == boolean.class) {
            return 1;
        }
        return referenceBytes;
    }
}
