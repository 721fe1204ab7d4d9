package dev.slotpool.bench.scaling;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads through reflection: the module compiles for release 17, yet the harness started on a JDK 21+
 * (the Temurin 25 run) must create them.
 */
final class VirtualThreads {

    private static final Method OF_VIRTUAL;
    private static final Method NAME;
    private static final Method UNSTARTED;
    private static final Method FACTORY;
    /** Why virtual threads are unavailable, or null when they are available. */
    private static final String MISSING;

    static {
        Method ofVirtual = null;
        Method name = null;
        Method unstarted = null;
        Method factory = null;
        String missing = null;
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            ofVirtual = Thread.class.getMethod("ofVirtual");
            name = builder.getMethod("name", String.class);
            unstarted = builder.getMethod("unstarted", Runnable.class);
            factory = builder.getMethod("factory");
            // JDK 19 and 20 have the methods but throw unless preview features are enabled.
            ofVirtual.invoke(null);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            missing = "Java " + Runtime.version() + " has no virtual threads";
        } catch (InvocationTargetException | IllegalAccessException e) {
            missing = "Java " + Runtime.version() + " cannot create virtual threads: " + cause(e);
        }
        OF_VIRTUAL = ofVirtual;
        NAME = name;
        UNSTARTED = unstarted;
        FACTORY = factory;
        MISSING = missing;
    }

    private VirtualThreads() {
    }

    static boolean available() {
        return MISSING == null;
    }

    /** Why virtual threads cannot be used here; only meaningful when {@link #available()} is false. */
    static String whyMissing() {
        return MISSING;
    }

    /** A new unstarted virtual thread; throws IllegalStateException when {@link #available()} is false. */
    static Thread unstarted(Runnable task, String name) {
        if (MISSING != null) {
            throw new IllegalStateException(MISSING);
        }
        try {
            Object builder = NAME.invoke(OF_VIRTUAL.invoke(null), name);
            return (Thread) UNSTARTED.invoke(builder, task);
        } catch (InvocationTargetException | IllegalAccessException e) {
            throw new IllegalStateException("could not create a virtual thread: " + cause(e), e);
        }
    }

    /**
     * A factory of unnamed virtual threads, safe to share between threads: one reflective call here, none per
     * thread it makes (the thread-per-request harness makes a million a second).
     */
    static ThreadFactory factory() {
        if (MISSING != null) {
            throw new IllegalStateException(MISSING);
        }
        try {
            return (ThreadFactory) FACTORY.invoke(OF_VIRTUAL.invoke(null));
        } catch (InvocationTargetException | IllegalAccessException e) {
            throw new IllegalStateException("could not create a virtual thread factory: " + cause(e), e);
        }
    }

    private static String cause(ReflectiveOperationException e) {
        Throwable t = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
        return t.toString();
    }
}
