package dev.slotpool.dropin;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** An account with a balance in whole cents. */
@Entity
public class Account {

    @Id
    @GeneratedValue
    private Long id;

    private String owner;

    private long balance;

    protected Account() {
    }

    public Account(String owner, long balance) {
        this.owner = owner;
        this.balance = balance;
    }

    public Long getId() { return id; }
    public String getOwner() { return owner; }
    public long getBalance() { return balance; }

    void add(long amount) {
        balance += amount;
    }
}
