package dev.slotpool;

import java.sql.SQLException;
import java.util.Map;

/**
 * Labels on a pooled connection, for labeled borrows in the style of Oracle UCP.
 *
 * <p>A label is a key/value pair that describes state the holder set up on the physical connection and that is
 * expensive to recreate: a session variable, a loaded package, a role. Labels stay with the physical connection
 * across borrows (return-time hygiene does not clear them), so a borrower asking for labels can be given a
 * connection already carrying them and skip the setup. The holder is responsible for labels matching the
 * connection's real state: apply a label after doing the work it names, remove it after undoing that work.
 *
 * <p>Reach it with {@code connection.unwrap(LabeledConnection.class)} on a connection from the pool. Like the
 * connection itself, it belongs to the holder: once the connection is closed every method throws.
 */
public interface LabeledConnection {

    /**
     * The labels the connection carries now.
     *
     * @return an immutable map, empty when the connection has no label
     * @throws SQLException if the connection is closed
     */
    Map<String, String> labels() throws SQLException;

    /**
     * Sets one label, replacing any value the key had.
     *
     * @param key   the label's key
     * @param value its value
     * @throws SQLException if the connection is closed
     */
    void applyLabel(String key, String value) throws SQLException;

    /**
     * Removes one label; does nothing if the connection has no label with that key.
     *
     * @param key the label's key
     * @throws SQLException if the connection is closed
     */
    void removeLabel(String key) throws SQLException;
}
