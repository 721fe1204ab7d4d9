package dev.slotpool.autoconfigure.oracle;

/**
 * The per-connection query that tells which service, database, instance and host an Oracle connection landed on
 * (design §2.4, discovered origins), kept here for the discovered-origins work; nothing runs it yet.
 *
 * <p>The database column reads {@code DB_UNIQUE_NAME} rather than {@code DB_NAME}: FAN events name the database
 * by its unique name, and the two differ under Data Guard (a primary and its standby share {@code DB_NAME}), so
 * origins discovered with this query match FAN events ({@link EventDimensions}). {@code SERVER_HOST} is the
 * short host name, as FAN's node name is.
 */
public final class OracleOriginQuery {

    /** One row: service, database (unique name), instance, host, in {@code OriginConfig}'s dimension order. */
    public static final String SQL = "SELECT SYS_CONTEXT('USERENV', 'SERVICE_NAME'),"
            + " SYS_CONTEXT('USERENV', 'DB_UNIQUE_NAME'),"
            + " SYS_CONTEXT('USERENV', 'INSTANCE_NAME'),"
            + " SYS_CONTEXT('USERENV', 'SERVER_HOST') FROM DUAL";

    private OracleOriginQuery() {
    }
}
