package dev.slotpool.dropin;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;

/** A booked transfer between two accounts. */
@Entity
public class Transfer {

    @Id
    @GeneratedValue
    private Long id;

    @ManyToOne(optional = false)
    private Account source;

    @ManyToOne(optional = false)
    private Account target;

    private long amount;

    protected Transfer() {
    }

    public Transfer(Account source, Account target, long amount) {
        this.source = source;
        this.target = target;
        this.amount = amount;
    }

    public Long getId() { return id; }
    public Account getSource() { return source; }
    public Account getTarget() { return target; }
    public long getAmount() { return amount; }
}
