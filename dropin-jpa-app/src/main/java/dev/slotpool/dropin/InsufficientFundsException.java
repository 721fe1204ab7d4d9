package dev.slotpool.dropin;

/** A transfer would take an account below zero. */
public class InsufficientFundsException extends RuntimeException {

    public InsufficientFundsException(String owner) {
        super("insufficient funds in the account of " + owner);
    }
}
