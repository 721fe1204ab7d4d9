package dev.slotpool.kernel;

/**
 * The engine's loggers, one per concern, so users tune each on its own (docs/operations.md, "Logs"). The engine
 * logs through {@link System.Logger} only: Boot routes it to SLF4J, a plain JVM to java.util.logging.
 */
public final class Loggers {

    /** The pool's life (start and stop lines at INFO) and failures of its own threads (ERROR). */
    public static final System.Logger POOL = System.getLogger("dev.slotpool.pool");
    /** Origin states: a recovery at INFO, a DOWN and refusing new sessions at WARNING. */
    public static final System.Logger ORIGIN = System.getLogger("dev.slotpool.origin");
    /** Physical connections: a failed connect (the first of a run at WARNING, repeats at DEBUG), opens and closes
     * at DEBUG, a close that threw at ERROR. */
    public static final System.Logger CONNECTION = System.getLogger("dev.slotpool.connection");
    /** Connections held past the leak detection threshold or taken back from their holder, at WARNING. */
    public static final System.Logger LEAK = System.getLogger("dev.slotpool.leak");
    /** A listener, callback or observer that threw, at WARNING (the pool goes on). */
    public static final System.Logger USER_CODE = System.getLogger("dev.slotpool.usercode");

    private Loggers() {
    }
}
