package dev.slotpool.dropin;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Moves money between accounts in one transaction: both balances and the transfer record, or nothing. */
@Service
public class TransferService {

    private final AccountRepository accounts;
    private final TransferRepository transfers;

    public TransferService(AccountRepository accounts, TransferRepository transfers) {
        this.accounts = accounts;
        this.transfers = transfers;
    }

    /**
     * Books the transfer; the source is debited and the record written before the balance is checked, so a
     * refused transfer shows the rollback undoing work already flushed.
     *
     * @throws InsufficientFundsException when the source balance would go below zero (the transaction rolls back)
     */
    @Transactional
    public Transfer transfer(String from, String to, long amount) {
        Account source = accounts.findByOwner(from).orElseThrow();
        Account target = accounts.findByOwner(to).orElseThrow();
        source.add(-amount);
        target.add(amount);
        Transfer transfer = transfers.saveAndFlush(new Transfer(source, target, amount));
        if (source.getBalance() < 0) {
            throw new InsufficientFundsException(from);
        }
        return transfer;
    }
}
