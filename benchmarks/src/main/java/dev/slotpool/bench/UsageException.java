package dev.slotpool.bench;

/** A bad command line of a harness; the message names the option at fault. */
public final class UsageException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
