package dev.slotpool;

import java.sql.Connection;
import java.util.Locale;

/** Reads a transaction isolation level by name, as JDBC's constant or as a property value would spell it. */
final class TransactionIsolations {

    /** The names {@link #parse} accepts, for messages. */
    static final String ALLOWED = "READ_UNCOMMITTED, READ_COMMITTED, REPEATABLE_READ or SERIALIZABLE "
            + "(also as TRANSACTION_READ_COMMITTED or read-committed)";

    private TransactionIsolations() {
    }

    /**
     * The {@code Connection.TRANSACTION_*} constant named by {@code name}: {@code TRANSACTION_READ_COMMITTED},
     * {@code READ_COMMITTED} or {@code read-committed}, case-insensitive; -1 for an unknown name.
     */
    static int parse(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        if (n.startsWith("TRANSACTION_")) {
            n = n.substring("TRANSACTION_".length());
        }
        return switch (n) {
            case "READ_UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
            case "READ_COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
            case "REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            case "SERIALIZABLE" -> Connection.TRANSACTION_SERIALIZABLE;
            default -> -1;
        };
    }
}
