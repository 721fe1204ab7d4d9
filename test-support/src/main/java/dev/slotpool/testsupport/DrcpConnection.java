package dev.slotpool.testsupport;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The DRCP surface of Oracle's {@code oracle.jdbc.OracleConnection}, with the same two method signatures, as the
 * stub's connections expose it: a pool that looks these methods up on a connection's public interfaces finds them
 * on the stub as on Oracle's thin driver. What the stub does with them is {@link StubDatabase}'s to script
 * ({@link StubDatabase#failNextAttaches}, {@link StubDatabase#failNextDetaches}, {@link StubDatabase#keepTags}).
 */
public interface DrcpConnection extends Connection {

    /**
     * Attaches a pooled server to this connection. True when the server carries the tag this connection was last
     * detached with (or none was given), false when the session is another one (its state is not the tag's).
     */
    boolean attachServerConnection() throws SQLException;

    /** Releases the pooled server back to the DRCP pool, tagged with {@code tag} (null: untagged). */
    void detachServerConnection(String tag) throws SQLException;
}
