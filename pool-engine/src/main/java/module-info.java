/**
 * slotpool's engine: a wait-free JDBC connection pool. Only {@code dev.slotpool} is its API; the slot table, the
 * pool's internals and the JDBC proxies stay inside the module (docs/architecture.md, "Map"). The API names none of
 * them: it finds the engine as the {@link dev.slotpool.SlotPoolEngine} service this module provides (also listed in
 * {@code META-INF/services} for the class path).
 */
module dev.slotpool {
    requires transitive java.sql;

    exports dev.slotpool;

    uses dev.slotpool.SlotPoolEngine;
    provides dev.slotpool.SlotPoolEngine with dev.slotpool.engine.Engine;
}
