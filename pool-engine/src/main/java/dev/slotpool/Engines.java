package dev.slotpool;

import java.util.ServiceLoader;

/** The {@link SlotPoolEngine}, looked up once by the first caller that needs it. */
final class Engines {

    /** Null until found; two first callers may both look, and find the same engine. */
    private static volatile SlotPoolEngine engine;

    private Engines() {
    }

    static SlotPoolEngine engine() {
        SlotPoolEngine e = engine;
        if (e == null) {
            // The API's own loader: the engine ships in the same jar (module), whatever the thread's context loader.
            e = ServiceLoader.load(SlotPoolEngine.class, SlotPoolEngine.class.getClassLoader()).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no slotpool engine found: "
                            + SlotPoolEngine.class.getName() + " has no provider (module-info 'provides', or "
                            + "META-INF/services on the class path)"));
            engine = e;
        }
        return e;
    }
}
