/**
 * slotpool's engine: a wait-free JDBC connection pool. Only {@code dev.slotpool} is its API; the slot table, the
 * pool's features and the JDBC proxies stay inside the module (docs/architecture.md, "Map"), which this
 * declaration enforces: no other package is exported.
 */
module dev.slotpool {
    requires transitive java.sql;

    exports dev.slotpool;
}
