package dev.slotpool.bench.scaling;

/** A bad command line; the message names the option at fault. */
final class UsageException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
