package dev.slotpool.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/** A lease over one physical connection that records what the proxy asked of the pool. */
final class FakeLease implements ConnectionLease {

    /** The one borrow's stamp, as the pool would hand it to the proxy. */
    static final long STAMP = 1;

    private final Connection physical;
    private final ConnectionDefaults defaults;
    int touches;
    int giveBacks;
    int labelWrites;
    boolean reclaimed;
    int aborts;
    final List<SQLException> evictions = new ArrayList<>();
    private Map<String, String> labels = Map.of();
    /** The connection's statement cache; none unless a test sets one. */
    StatementCache statementCache;

    FakeLease(Connection physical) throws SQLException {
        this.physical = physical;
        this.defaults = ConnectionDefaults.readFrom(physical);
    }

    @Override
    public Connection physical() {
        return physical;
    }

    @Override
    public ConnectionDefaults defaults() {
        return defaults;
    }

    @Override
    public dev.slotpool.SqlExceptionOverride exceptionOverride() {
        return null;
    }

    @Override
    public StatementCache statementCache() {
        return statementCache;
    }

    @Override
    public void touch() {
        touches++;
    }

    @Override
    public void evict(SQLException cause, long stamp) {
        evictions.add(cause);
    }

    @Override
    public boolean ended(long stamp) {
        return reclaimed || aborts > 0;
    }

    @Override
    public void giveBack(long stamp) {
        giveBacks++;
    }

    @Override
    public boolean abort(long stamp, Executor executor) {
        if (ended(stamp)) {
            return false;
        }
        aborts++;
        return true;
    }

    @Override
    public Map<String, String> labels() {
        return labels;
    }

    @Override
    public void labels(Map<String, String> labels) {
        labelWrites++;
        this.labels = labels;
    }
}
