package dev.slotpool;

/**
 * What sits between an origin and its database (docs/poolers.md). The pool adapts the driver and its own session
 * handling to it, and refuses at startup, naming the setting, a combination it cannot make safe.
 */
public enum Pooler {

    /** Nothing: each connection is one server session for its whole life. The default. */
    NONE,

    /**
     * A session pooler (PgBouncer {@code pool_mode = session}): one server session per client connection for the
     * connection's life, as with no pooler. The return-time reset of docs/architecture.md covers what a holder
     * changed through JDBC; PgBouncer's own reset ({@code DISCARD ALL}) runs only when the pool closes the
     * connection, so nothing more is needed or sent.
     */
    SESSION,

    /**
     * A transaction pooler (PgBouncer {@code pool_mode = transaction}, pgcat, Supavisor, RDS Proxy) that does not
     * keep protocol-level prepared statements: each transaction may run on another server session. For pgjdbc the
     * pool sets {@code prepareThreshold=0} (no server-side named statements) unless the user set it; a non-zero
     * value, and session state set once per connection ({@code schema}, {@code transactionIsolation},
     * {@code connectionInitSql}), are refused at startup.
     */
    TRANSACTION,

    /**
     * A transaction pooler that keeps protocol-level prepared statements per client (PgBouncer 1.21+ with
     * {@code max_prepared_statements > 0}): the driver's named statements stay; session state is refused as for
     * {@link #TRANSACTION}.
     */
    TRANSACTION_WITH_PREPARED_STATEMENTS,

    /**
     * Oracle Database Resident Connection Pooling: the origin's URL says {@code (SERVER=POOLED)} (or
     * {@code :POOLED}); the pool gives the driver a connection class (the pool's name unless set) and purity
     * ({@code SELF} unless set), and attaches a pooled server at each borrow and releases it at each return, as UCP
     * does (docs/oracle.md, "DRCP").
     */
    DRCP;

    /** {@return whether each transaction may run on a different server session} */
    public boolean sharesSessionsPerTransaction() {
        return this == TRANSACTION || this == TRANSACTION_WITH_PREPARED_STATEMENTS;
    }
}
