package dev.slotpool.bench.pg;

/** A bad command line of {@link PostgresTransactions}; the message names the option at fault. */
final class BadOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    BadOptionException(String message) {
        super(message);
    }
}
