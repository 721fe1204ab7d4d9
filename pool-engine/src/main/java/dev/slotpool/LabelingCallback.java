package dev.slotpool;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * Chooses and prepares connections for labeled borrows ({@link SlotPoolDataSource#getConnection(Map)}), with
 * Oracle UCP's semantics: an available connection of cost 0 is taken at once; otherwise the cheapest acceptable
 * one is taken and {@link #configure} makes it match.
 *
 * <p>Called on the borrowing thread; anything but an {@link SQLException} thrown by {@code configure}
 * ({@link Error}s included) is reported and treated as a failed configuration, and anything thrown by
 * {@code cost} as {@link #UNUSABLE}.
 */
public interface LabelingCallback {

    /** Cost that marks a connection unusable for the request: it is never chosen. */
    int UNUSABLE = Integer.MAX_VALUE;

    /**
     * How expensive it is to make a connection with {@code current} labels serve {@code requested}.
     * 0 means it already matches; {@link #UNUSABLE} means it cannot be used. Must be cheap and side-effect free:
     * it is called during the table scan on connections the caller does not own.
     *
     * @param requested the labels the borrow asks for
     * @param current   the labels the connection carries
     * @return the cost, 0 for a match, {@link #UNUSABLE} for a connection that cannot serve the request
     */
    int cost(Map<String, String> requested, Map<String, String> current);

    /**
     * Makes {@code connection} match {@code requested} (run session setup, apply labels through
     * {@link LabeledConnection}). Returns false if it could not; the connection is then retired and the borrow
     * fails with an {@link SQLException}.
     *
     * @param requested  the labels the borrow asks for
     * @param connection the connection to prepare, the borrower's from now on
     * @return whether the connection now matches {@code requested}
     * @throws SQLException when the configuration failed: the connection is retired, the borrow fails
     */
    boolean configure(Map<String, String> requested, Connection connection) throws SQLException;
}
